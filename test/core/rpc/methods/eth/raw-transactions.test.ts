import { Interface, keccak256, parseEther, toBeHex, Transaction, Wallet, type InterfaceAbi } from 'ethers'
import { describe, expect, test } from 'vitest'
import { AlreadyKnownError, NonceTooLowError } from '../../../../../src/core/errors.ts'
import type { Node } from '../../../../../src/core/node.ts'
import { artifacts, DEV, GAS_PRICE, rpc, startNode } from '../../../../support/chain.ts'
import { expectRpcError } from '../../../../support/expectRpc.ts'
import { resignedWith, signPreEip155, signTx, txHash, withSignature } from '../../../../support/rawTx.ts'

let node: Node | undefined

async function fresh(config: Parameters<typeof startNode>[0] = {}) {
  node = await startNode(config)
  return rpc(node)
}

type Tx = Record<string, unknown> & { blockHash: string | null; blockNumber: string | null; v: string }
interface Receipt {
  status: string
  blockNumber: string
}

const hex = (n: bigint | number) => `0x${n.toString(16)}`
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const probe = new Interface(artifacts.Probe.abi as InterfaceAbi)
const send = (raw: string) => node!.request({ method: 'eth_sendRawTransaction', params: [raw] })

describe('accepted transaction types', () => {
  test('legacy with EIP-155', async () => {
    const call = await fresh()
    const raw = await signTx(DEV[0].key, { type: 0 })
    expect(await send(raw)).toBe(txHash(raw))
    const tx = await call<Tx>('eth_getTransactionByHash', txHash(raw))
    expect(tx).toMatchObject({ type: '0x0', chainId: '0x104', blockNumber: '0x1', gasPrice: hex(GAS_PRICE) })
    expect(['0x22b', '0x22c']).toContain(tx.v)
    expect(await call<Receipt>('eth_getTransactionReceipt', txHash(raw))).toMatchObject({ status: '0x1', type: '0x0' })
  })

  test('legacy without EIP-155 (v = 27 or 28): replayable, but accepted like anvil and geth --rpc.allow-unprotected-txs', async () => {
    const call = await fresh()
    const raw = signPreEip155(DEV[0].key)
    expect(Transaction.from(raw).chainId).toBe(0n)
    expect(await send(raw)).toBe(txHash(raw))
    const tx = await call<Tx>('eth_getTransactionByHash', txHash(raw))
    expect(['0x1b', '0x1c']).toContain(tx.v)
    // It commits to no chain, so it shows none.
    expect(tx).not.toHaveProperty('chainId')
    expect(tx).toMatchObject({ type: '0x0', from: DEV[0].address, blockNumber: '0x1' })
    expect(await call('eth_getBalance', DEV[1].address, 'latest')).toBe(hex(parseEther('10000') + 1n))
  })

  test('EIP-2930 with an access list, shown back as sent', async () => {
    const call = await fresh()
    const accessList = [{ address: DEV[2].address, storageKeys: [toBeHex(1, 32)] }]
    const raw = await signTx(DEV[0].key, { type: 1, accessList, gasLimit: 30_000n })
    await send(raw)
    const tx = await call<Tx>('eth_getTransactionByHash', txHash(raw))
    expect(tx).toMatchObject({ type: '0x1', accessList, chainId: '0x104', blockNumber: '0x1' })
    // 21,000 + one address (2,400) + one slot (1,900).
    expect(await call('eth_getTransactionReceipt', txHash(raw))).toMatchObject({ gasUsed: hex(25_300), status: '0x1' })
  })

  test('EIP-1559', async () => {
    const call = await fresh()
    const raw = await signTx(DEV[0].key, { maxPriorityFeePerGas: 5n })
    await send(raw)
    expect(await call('eth_getTransactionReceipt', txHash(raw))).toMatchObject({
      type: '0x2',
      status: '0x1',
      effectiveGasPrice: hex(GAS_PRICE + 5n),
    })
  })

  test('EIP-7702: the authority gets the delegation designator 0xef0100 ‖ address and its nonce moves', async () => {
    const call = await fresh()
    // Probe is deployed by DEV[0]; DEV[2] delegates to it; DEV[1] sponsors the authorization.
    const deployRaw = await signTx(DEV[0].key, { to: null, value: 0n, data: artifacts.Probe.bytecode, gasLimit: 1_000_000n })
    await send(deployRaw)
    const { contractAddress } = await call<{ contractAddress: string }>('eth_getTransactionReceipt', txHash(deployRaw))
    const authorization = await new Wallet(DEV[2].key).authorize({ address: contractAddress, nonce: 0n, chainId: 260n })
    const raw = await signTx(DEV[1].key, { type: 4, authorizationList: [authorization], to: DEV[2].address, value: 0n, gasLimit: 100_000n })
    await send(raw)
    expect(await call<Receipt>('eth_getTransactionReceipt', txHash(raw))).toMatchObject({ status: '0x1', type: '0x4' })
    expect(await call('eth_getCode', DEV[2].address, 'latest')).toBe(`0xef0100${contractAddress.slice(2)}`)
    expect(await call('eth_getCode', DEV[2].address, '0x1')).toBe('0x')
    expect(await call('eth_getTransactionCount', DEV[2].address, 'latest')).toBe('0x1')

    // The EOA now runs Probe's code: set() writes the EOA's own storage.
    const data = probe.encodeFunctionData('set', [5])
    const setRaw = await signTx(DEV[0].key, { nonce: 1, to: DEV[2].address, value: 0n, data, gasLimit: 100_000n })
    await send(setRaw)
    expect(await call('eth_getStorageAt', DEV[2].address, '0x0', 'latest')).toBe(toBeHex(5, 32))
  })

  test('EIP-7702: an authorization for another chain is skipped, the transaction still runs', async () => {
    const call = await fresh()
    const authorization = await new Wallet(DEV[2].key).authorize({ address: DEV[1].address, nonce: 0n, chainId: 1n })
    const raw = await signTx(DEV[0].key, { type: 4, authorizationList: [authorization], gasLimit: 100_000n })
    await send(raw)
    expect(await call('eth_getTransactionReceipt', txHash(raw))).toMatchObject({ status: '0x1' })
    expect(await call('eth_getCode', DEV[2].address, 'latest')).toBe('0x')
    expect(await call('eth_getTransactionCount', DEV[2].address, 'latest')).toBe('0x0')
  })

  test('EIP-7702 admission: an empty auth list, a creation, too little gas for the authorizations', async () => {
    await fresh()
    const authorization = await new Wallet(DEV[2].key).authorize({ address: DEV[1].address, nonce: 0n, chainId: 260n })
    await expectRpcError(
      send(await signTx(DEV[0].key, { type: 4, authorizationList: [], gasLimit: 100_000n })),
      -32000,
      'EIP-7702 transaction with empty auth list',
    )
    // geth cannot even decode a 7702 creation (its `to` is not optional): malformed input.
    await expectRpcError(
      send(await signTx(DEV[0].key, { type: 4, to: null, authorizationList: [authorization], gasLimit: 100_000n })),
      -32602,
      /^invalid transaction: /,
    )
    // 21,000 + 25,000 per authorization.
    await expectRpcError(
      send(await signTx(DEV[0].key, { type: 4, authorizationList: [authorization], gasLimit: 45_999n })),
      -32000,
      'intrinsic gas too low: gas 45999, minimum needed 46000',
    )
  })

  test('EIP-4844 blob transactions are refused as not supported', async () => {
    await fresh()
    const raw = await signTx(DEV[0].key, { type: 3, maxFeePerBlobGas: 1n, blobVersionedHashes: [`0x01${'00'.repeat(31)}`] })
    await expectRpcError(send(raw), -32000, /^transaction type not supported: blob \(EIP-4844\)/)
    expect(await node!.request({ method: 'eth_blockNumber' })).toBe('0x0')
  })

  test('an unknown typed transaction is refused as not supported', async () => {
    await fresh()
    await expectRpcError(send('0x7fc0'), -32000, 'transaction type not supported: type 127 is unknown')
  })
})

describe('signature errors', () => {
  test('a high s value (malleable signature) → invalid transaction v, r, s values', async () => {
    await fresh()
    const raw = withSignature(await signTx(DEV[0].key), ([yParity, r, s]) => [
      yParity === '0x' ? '0x01' : '0x',
      r,
      toBeHex(SECP256K1_N - BigInt(s)),
    ])
    await expectRpcError(send(raw), -32000, /^invalid transaction v, r, s values: /)
  })

  test('a y-parity other than 0 or 1 → invalid transaction v, r, s values', async () => {
    await fresh()
    const raw = withSignature(await signTx(DEV[0].key), ([, r, s]) => ['0x02', r, s])
    await expectRpcError(send(raw), -32000, /^invalid transaction v, r, s values: /)
  })

  test('an r that is no curve point recovers nobody → invalid sender', async () => {
    await fresh()
    const raw = withSignature(await signTx(DEV[0].key), ([yParity, , s]) => [yParity, toBeHex(2n ** 256n - 1n), s])
    await expectRpcError(send(raw), -32000, /^invalid sender/)
  })

  test('a zero signature is not signed → invalid sender', async () => {
    await fresh()
    const raw = withSignature(await signTx(DEV[0].key), () => ['0x', '0x', '0x'])
    await expectRpcError(send(raw), -32000, /^invalid sender/)
  })

  test('a flipped y-parity recovers another, empty account: the node never charges the real signer', async () => {
    const call = await fresh()
    const raw = withSignature(await signTx(DEV[0].key), ([yParity, r, s]) => [yParity === '0x' ? '0x01' : '0x', r, s])
    const error = await expectRpcError(
      send(raw),
      -32000,
      /^insufficient funds for gas \* price \+ value: address 0x[0-9a-f]{40} have 0 want /,
    )
    expect(error.message).not.toContain(DEV[0].address)
    expect(await call('eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x0')
  })
})

describe('admission errors (geth wording, -32000)', () => {
  test('signed for another chain → invalid chain id for signer', async () => {
    await fresh()
    await expectRpcError(send(await signTx(DEV[0].key, { chainId: 1n })), -32000, 'invalid chain id for signer: have 1 want 260')
    await expectRpcError(send(await signTx(DEV[0].key, { type: 0, chainId: 1n })), -32000, 'invalid chain id for signer: have 1 want 260')
    const other = await signTx(DEV[0].key, { type: 1, chainId: 324n })
    await expectRpcError(send(other), -32000, 'invalid chain id for signer: have 324 want 260')
  })

  test('nonce too low', async () => {
    await fresh()
    await send(await signTx(DEV[0].key))
    const error = await expectRpcError(
      send(await signTx(DEV[0].key, { value: 2n })),
      -32000,
      `nonce too low: address ${DEV[0].address}, tx: 0 state: 1`,
    )
    expect(error).toMatchObject({ address: DEV[0].address, nonce: 0n, stateNonce: 1n })
    expect(error).toBeInstanceOf(NonceTooLowError)
  })

  test('insufficient funds: an empty account, and a value above the balance', async () => {
    await fresh()
    const stranger = Wallet.createRandom()
    const cost = 21_000n * 2n * GAS_PRICE
    await expectRpcError(
      send(await signTx(stranger.privateKey)),
      -32000,
      `insufficient funds for gas * price + value: address ${stranger.address.toLowerCase()} have 0 want ${cost + 1n}`,
    )
    const value = parseEther('10000')
    await expectRpcError(
      send(await signTx(DEV[0].key, { value })),
      -32000,
      `insufficient funds for gas * price + value: address ${DEV[0].address} have ${parseEther('10000')} want ${cost + value}`,
    )
  })

  test('intrinsic gas too low, including the EIP-7623 calldata floor', async () => {
    await fresh()
    const tooLittle = await signTx(DEV[0].key, { gasLimit: 20_999n })
    await expectRpcError(send(tooLittle), -32000, 'intrinsic gas too low: gas 20999, minimum needed 21000')
    // 100 non-zero bytes: 22,600 by the old rule, but the Prague floor is 21,000 + 400 tokens × 10.
    const data = `0x${'ff'.repeat(100)}`
    const belowFloor = await signTx(DEV[0].key, { data, gasLimit: 24_999n })
    await expectRpcError(send(belowFloor), -32000, 'intrinsic gas too low: gas 24999, minimum needed 25000')
    expect(await send(await signTx(DEV[0].key, { data, gasLimit: 25_000n }))).toMatch(/^0x[0-9a-f]{64}$/)
  })

  test('a fee cap below the base fee', async () => {
    await fresh()
    const message = (cap: bigint) =>
      `max fee per gas less than block base fee: address ${DEV[0].address}, maxFeePerGas: ${cap}, baseFee: ${GAS_PRICE}`
    await expectRpcError(send(await signTx(DEV[0].key, { maxFeePerGas: GAS_PRICE - 1n })), -32000, message(GAS_PRICE - 1n))
    await expectRpcError(send(await signTx(DEV[0].key, { type: 0, gasPrice: 1n })), -32000, message(1n))
  })

  test('a tip above the fee cap', async () => {
    await fresh()
    const raw = resignedWith(DEV[0].key, await signTx(DEV[0].key), (fields) =>
      fields.map((field, i) => (i === 2 ? toBeHex(3n * GAS_PRICE) : field)),
    )
    await expectRpcError(send(raw), -32000, 'max priority fee per gas higher than max fee per gas')
  })

  test('a gas limit above the block gas limit', async () => {
    await fresh()
    await expectRpcError(send(await signTx(DEV[0].key, { gasLimit: 2n ** 50n + 1n })), -32000, /^exceeds block gas limit/)
  })

  test('already known: in the pool (manual mining) and already mined (automine)', async () => {
    await fresh({ mining: { mode: 'manual' } })
    const raw = await signTx(DEV[0].key)
    await send(raw)
    // Its own class, with the hash: the worker's leader tells a re-sent transaction by it.
    const pooled = await expectRpcError(send(raw), -32000, 'already known')
    expect(pooled).toBeInstanceOf(AlreadyKnownError)
    expect((pooled as AlreadyKnownError).hash).toBe(txHash(raw))
    await node!.close()

    await fresh()
    await send(raw)
    expect(await expectRpcError(send(raw), -32000, 'already known')).toBeInstanceOf(AlreadyKnownError)
  })

  test('replacement underpriced unless both fee caps rise by 10%; a replacement takes the old one`s place', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    const fees = (maxFeePerGas: bigint, maxPriorityFeePerGas: bigint) => ({ maxFeePerGas, maxPriorityFeePerGas })
    const original = await signTx(DEV[0].key, fees(100_000_000n, 1_000n))
    await send(original)
    for (const [cap, tip] of [[109_999_999n, 1_100n], [110_000_000n, 1_099n], [100_000_000n, 1_000n]]) {
      await expectRpcError(send(await signTx(DEV[0].key, { ...fees(cap, tip), value: 2n })), -32000, 'replacement transaction underpriced')
    }
    const replacement = await signTx(DEV[0].key, { ...fees(110_000_000n, 1_100n), value: 2n })
    expect(await send(replacement)).toBe(txHash(replacement))
    expect(await call('eth_getTransactionByHash', txHash(original))).toBeNull()
    expect(await call<Tx>('eth_getTransactionByHash', txHash(replacement))).toMatchObject({ value: '0x2', blockHash: null })
    expect(await call('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x1')
  })

  test('a nonce gap waits in the queue (automine) until the gap fills, then both are mined in order', async () => {
    const call = await fresh()
    const later = await signTx(DEV[0].key, { nonce: 1 })
    expect(await send(later)).toBe(txHash(later))
    expect(await call('eth_blockNumber')).toBe('0x0')
    expect(await call('eth_getTransactionReceipt', txHash(later))).toBeNull()
    expect(await call<Tx>('eth_getTransactionByHash', txHash(later))).toMatchObject({ blockHash: null, nonce: '0x1' })
    expect(await call('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x0')

    const first = await signTx(DEV[0].key, { nonce: 0 })
    await send(first)
    expect(await call('eth_blockNumber')).toBe('0x2')
    expect(await call('eth_getTransactionReceipt', txHash(first))).toMatchObject({ status: '0x1', blockNumber: '0x1' })
    expect(await call('eth_getTransactionReceipt', txHash(later))).toMatchObject({ status: '0x1', blockNumber: '0x2' })
    expect(await call('eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x2')
  })

  test('a refused transaction changes nothing', async () => {
    const call = await fresh()
    await expectRpcError(send(await signTx(DEV[0].key, { gasLimit: 20_000n })), -32000, /^intrinsic gas too low/)
    expect(await call('eth_blockNumber')).toBe('0x0')
    expect(await call('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x0')
    // The same nonce is still free.
    await send(await signTx(DEV[0].key))
    expect(await call('eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x1')
  })
})

describe('malformed input → -32602', () => {
  test.each([
    ['odd-length hex', '0x02f', /^invalid argument 0 \(transaction\): expected 0x-prefixed hex bytes of even length/],
    ['non-hex characters', '0xzz', /^invalid argument 0 \(transaction\): /],
    ['no 0x prefix', 'f86c', /^invalid argument 0 \(transaction\): /],
    ['a number', 42, /^invalid argument 0 \(transaction\): /],
    ['empty bytes', '0x', 'invalid transaction: empty input'],
    ['garbage RLP', '0xdeadbeef', /^invalid transaction: /],
    ['a typed transaction with garbage RLP', '0x02deadbeef', /^invalid transaction: /],
    ['an RLP list with no fields', '0xc0', /^invalid transaction: /],
    ['a typed empty list', '0x02c0', /^invalid transaction: /],
  ])('%s', async (_, raw, message) => {
    await fresh()
    await expectRpcError(node!.request({ method: 'eth_sendRawTransaction', params: [raw] }), -32602, message)
  })

  test('trailing bytes after a valid transaction', async () => {
    await fresh()
    await expectRpcError(send(`${await signTx(DEV[0].key)}00`), -32602, /^invalid transaction: /)
  })

  test('missing and extra arguments', async () => {
    const call = await fresh()
    await expectRpcError(call('eth_sendRawTransaction'), -32602, 'missing value for required argument 0 (transaction)')
    await expectRpcError(call('eth_sendRawTransaction', await signTx(DEV[0].key), 'latest'), -32602, 'too many arguments, want at most 1')
  })

  test('none of them reaches the chain', async () => {
    const call = await fresh()
    await expectRpcError(send('0xdeadbeef'), -32602, /^invalid transaction: /)
    expect(await call('eth_blockNumber')).toBe('0x0')
    expect(await call('eth_getTransactionByHash', keccak256('0xdeadbeef'))).toBeNull()
  })
})
