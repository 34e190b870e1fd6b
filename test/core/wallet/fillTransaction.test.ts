import { Transaction, keccak256 } from 'ethers'
import { createPublicClient, createWalletClient, custom, parseEther, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { DEV, GAS_PRICE, rpc, startNode } from '../../support/chain.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { recordingProvider } from '../../support/recorder.ts'

/** geth's transaction JSON keys (types.Transaction), in its order. */
const EIP1559_KEYS = ['type', 'chainId', 'nonce', 'to', 'gas', 'gasPrice', 'maxPriorityFeePerGas', 'maxFeePerGas', 'value', 'input', 'accessList', 'v', 'r', 's', 'yParity', 'hash']

interface Filled {
  raw: string
  tx: Record<string, unknown>
}

describe('eth_fillTransaction', () => {
  test('viem sends from a local account (a key the node does not hold) through it, and the transaction is mined', async () => {
    const node = await startNode()
    const recorder = recordingProvider(node)
    const account = privateKeyToAccount(generatePrivateKey())
    await rpc(node)('anvil_setBalance', account.address, '0x56bc75e2d63100000')
    const transport = custom(recorder, { retryCount: 0 })
    const wallet = createWalletClient({ account, chain: zksyncInMemoryNode, transport })
    const publicClient = createPublicClient({ chain: zksyncInMemoryNode, transport })

    const hash = await wallet.sendTransaction({ to: DEV[1].address as Hex, value: parseEther('1') })
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
    expect(receipt.status).toBe('success')
    expect(recorder.calls).toContain('eth_fillTransaction')
    expect([...recorder.unserved]).toEqual([])
    // viem signed what the node filled in: the next nonce and 21,000 gas (its fee cap it pads itself).
    const tx = await publicClient.getTransaction({ hash })
    expect(tx).toMatchObject({ from: account.address.toLowerCase(), nonce: 0, gas: 21_000n })
    await wallet.sendTransaction({ to: DEV[1].address as Hex, value: 1n })
    expect(await publicClient.getTransactionCount({ address: account.address })).toBe(2)
  })

  test("geth's shape: raw is the unsigned transaction, tx its JSON with the unsigned hash", async () => {
    const call = rpc(await startNode())
    const filled = await call<Filled>('eth_fillTransaction', { from: DEV[0].address, to: DEV[1].address, value: '0x5', input: '0x' })
    expect(Object.keys(filled)).toEqual(['raw', 'tx'])
    expect(Object.keys(filled.tx)).toEqual(EIP1559_KEYS)
    expect(filled.tx).toEqual({
      type: '0x2',
      chainId: '0x104',
      nonce: '0x0',
      to: DEV[1].address,
      gas: '0x5208',
      gasPrice: null,
      maxPriorityFeePerGas: '0x0',
      maxFeePerGas: `0x${GAS_PRICE.toString(16)}`,
      value: '0x5',
      input: '0x',
      accessList: [],
      v: '0x0',
      r: '0x0',
      s: '0x0',
      yParity: '0x0',
      hash: keccak256(filled.raw),
    })
    const decoded = Transaction.from(filled.raw)
    expect(decoded.signature?.r).toBe(`0x${'0'.repeat(64)}`)
    expect({ to: decoded.to?.toLowerCase(), value: decoded.value, gasLimit: decoded.gasLimit, chainId: decoded.chainId, type: decoded.type }).toEqual({
      to: DEV[1].address,
      value: 5n,
      gasLimit: 21_000n,
      chainId: 260n,
      type: 2,
    })
  })

  test('a legacy request (gasPrice) fills a legacy transaction; a missing sender is the zero address; pooled nonces count', async () => {
    const node = await startNode({ mining: { mode: 'manual' } })
    const call = rpc(node)
    const legacy = await call<Filled>('eth_fillTransaction', { to: DEV[1].address, gasPrice: '0x77359400' })
    expect(legacy.tx).toMatchObject({ type: '0x0', gasPrice: '0x77359400', maxFeePerGas: null, maxPriorityFeePerGas: null, nonce: '0x0', gas: '0x5208' })
    expect(legacy.tx).not.toHaveProperty('yParity')
    expect(Transaction.from(legacy.raw).gasPrice).toBe(0x77359400n)

    await call('eth_sendTransaction', { from: DEV[0].address, to: DEV[1].address })
    expect((await call<Filled>('eth_fillTransaction', { from: DEV[0].address, to: DEV[1].address })).tx.nonce).toBe('0x1')
  })

  test('bad requests are -32602', async () => {
    const call = rpc(await startNode())
    await expectRpcError(call('eth_fillTransaction', { from: DEV[0].address, chainId: '0x1' }), -32602, /chainId 0x1 is not this chain's/)
    await expectRpcError(call('eth_fillTransaction', { from: '0x12' }), -32602, /^invalid argument 0 \(transaction\): from: /)
    await expectRpcError(call('eth_fillTransaction'), -32602, 'missing value for required argument 0 (transaction)')
  })
})
