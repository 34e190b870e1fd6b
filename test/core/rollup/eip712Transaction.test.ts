import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { getCreateAddress, Signature, Wallet as EthersWallet, ZeroAddress, type SignatureLike } from 'ethers'
import { describe, expect, test } from 'vitest'
import { EIP712Signer, types, utils } from 'zksync-ethers'
import { MemoryStore } from '../../../src/core/index.ts'
import { ACCOUNT_STEPS_ALLOWANCE } from '../../../src/core/exec/bootloaderEstimate.ts'
import type { Node } from '../../../src/core/node.ts'
import { artifacts, DEV, GAS_PRICE, mineBlock, rpc, startNode } from '../../support/chain.ts'
import { signTx } from '../../support/rawTx.ts'

type Json = Record<string, unknown>
/** EraVM-shaped bytecode (three 32-byte words): what a factory dependency must look like. */
const FACTORY_DEP = `0x${'00'.repeat(31)}01${'ab'.repeat(32)}${'cd'.repeat(32)}`

function request(fields: Partial<types.TransactionLike> = {}): types.TransactionLike {
  return {
    type: utils.EIP712_TX_TYPE,
    chainId: 260,
    from: DEV[0].address,
    to: DEV[1].address,
    nonce: 0,
    gasLimit: 100_000n,
    maxFeePerGas: GAS_PRICE,
    maxPriorityFeePerGas: 0n,
    value: 1n,
    data: '0x',
    ...fields,
    customData: { gasPerPubdata: 50_000n, ...fields.customData },
  }
}

/** Signs the EIP-712 digest with `key` (zksync-ethers' signer) and serializes with a custom signature. */
async function signed712(tx: types.TransactionLike, key: string = DEV[0].key): Promise<string> {
  const signature = await sign(tx, key)
  return utils.serializeEip712({ ...tx, customData: { ...tx.customData, customSignature: signature } })
}

/** zksync-ethers' EIP712Signer over the transaction's fields (its request type is the wider one). */
function sign(tx: types.TransactionLike, key: string = DEV[0].key) {
  return new EIP712Signer(new EthersWallet(key), Number(tx.chainId)).sign(tx as types.TransactionRequest)
}

async function rejection(node: Node, raw: string) {
  return rpc(node)('eth_sendRawTransaction', raw).then(
    () => {
      throw new Error('accepted')
    },
    (error: { code: number; message: string }) => error,
  )
}

describe('accepted', () => {
  test('factory dependencies are recorded under their versioned hash for zks_getBytecodeByHash', async () => {
    const node = await startNode()
    const call = rpc(node)
    const hash = await call<string>('eth_sendRawTransaction', await signed712(request({ customData: { factoryDeps: [FACTORY_DEP] } })))
    const versioned = bytesToHex(utils.hashBytecode(FACTORY_DEP))
    expect(await call('zks_getBytecodeByHash', versioned)).toEqual(Array.from(hexToBytes(FACTORY_DEP as `0x${string}`)))
    const [raw] = await call<Json[]>('zks_getRawBlockTransactions', 1)
    expect((raw.execute as Json).factoryDeps).toEqual([Array.from(hexToBytes(FACTORY_DEP as `0x${string}`))])
    expect(((raw.common_data as Json).L2 as Json).transactionType).toBe('EIP712Transaction')
    expect(((raw.common_data as Json).L2 as Json).input).toMatchObject({ hash })
  })

  test('signed through v/r/s instead of a custom signature: era hashes r‖s‖v with v as 27/28', async () => {
    const node = await startNode()
    const tx = request()
    const sig = Signature.from((await sign(tx)) as SignatureLike)
    const raw = utils.serializeEip712(tx, sig)
    // The RLP carries yParity (0/1); the hash uses v as 27/28, as zksync-ethers' eip712TxHash does.
    const hash = await rpc(node)<string>('eth_sendRawTransaction', raw)
    expect(hash).toBe(utils.eip712TxHash(tx as types.TransactionRequest, { r: sig.r, s: sig.s, v: sig.v }))
    const mined = await rpc(node)<Json>('eth_getTransactionByHash', hash)
    expect(mined).toMatchObject({ type: '0x71', r: `0x${BigInt(sig.r).toString(16)}`, s: `0x${BigInt(sig.s).toString(16)}`, yParity: `0x${sig.yParity}` })
  })

  test('no `to`: a contract creation with `data` as init code (what era does with its EVM emulator)', async () => {
    const node = await startNode()
    const call = rpc(node)
    // An empty `to` signs as address 0 (uint256 0 in the typed data), so sign with ZeroAddress and send without.
    const fields = { to: ZeroAddress, value: 0n, gasLimit: 2_000_000n, data: artifacts.Probe.bytecode }
    const signature = await sign(request(fields))
    const raw = utils.serializeEip712({ ...request(fields), to: undefined, customData: { gasPerPubdata: 50_000n, customSignature: signature } })
    const hash = await call<string>('eth_sendRawTransaction', raw)
    const receipt = await call<Json>('eth_getTransactionReceipt', hash)
    const address = getCreateAddress({ from: DEV[0].address, nonce: 0 }).toLowerCase()
    expect(receipt).toMatchObject({ status: '0x1', type: '0x71', to: null, contractAddress: address })
    expect(await call('eth_getCode', address, 'latest')).toBe(artifacts.Probe.deployedBytecode)
    const [rawTx] = await call<Json[]>('zks_getRawBlockTransactions', 1)
    expect((rawTx.execute as Json).contractAddress).toBeNull()
  })

  test('blocks commit to the raw 0x71 bytes: transactions root and size recompute from them', async () => {
    const node = await startNode({ mining: { mode: 'manual' } })
    const call = rpc(node)
    const first = await signed712(request())
    const second = await signTx(DEV[1].key, { nonce: 0, to: DEV[2].address })
    await call('eth_sendRawTransaction', first)
    await call('eth_sendRawTransaction', second)
    await mineBlock(node)
    const block = await call<Json>('eth_getBlockByNumber', '0x1', true)
    expect((block.transactions as Json[]).map((tx) => tx.type)).toEqual(['0x71', '0x2'])

    const trie = new MerklePatriciaTrie()
    await trie.put(RLP.encode(0), hexToBytes(first as `0x${string}`))
    await trie.put(RLP.encode(1), hexToBytes(second as `0x${string}`))
    expect(bytesToHex(trie.root())).toBe(block.transactionsRoot)

    const { createBlockHeaderFromRPC } = await import('@ethereumjs/block')
    const { createChainCommon } = await import('../../../src/core/exec/chainCommon.ts')
    const header = createBlockHeaderFromRPC(block as never, { common: createChainCommon(260) })
    expect(bytesToHex(header.hash())).toBe(block.hash)
    const size = RLP.encode([header.raw(), [hexToBytes(first as `0x${string}`), hexToBytes(second as `0x${string}`)], [], []]).length
    expect(block.size).toBe(`0x${size.toString(16)}`)
  })

  test('pending under manual mining: visible with a null block, details say pending; then mined', async () => {
    const node = await startNode({ mining: { mode: 'manual' } })
    const call = rpc(node)
    const hash = await call<string>('eth_sendRawTransaction', await signed712(request()))
    expect(await call('eth_getTransactionByHash', hash)).toMatchObject({ type: '0x71', blockHash: null, l1BatchNumber: null })
    expect(await call('zks_getTransactionDetails', hash)).toMatchObject({ status: 'pending', fee: '0x0', initiatorAddress: DEV[0].address })
    expect(await call('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x1')
    await mineBlock(node)
    expect(await call('eth_getTransactionReceipt', hash)).toMatchObject({ status: '0x1', type: '0x71' })
  })

  test('eth_estimateGas takes what zksync-ethers sends for a 0x71 transaction (type and eip712Meta)', async () => {
    const node = await startNode()
    const gas = await rpc(node)('eth_estimateGas', {
      from: DEV[0].address,
      to: DEV[1].address,
      value: '0x1',
      type: '0x71',
      eip712Meta: { gasPerPubdata: '0xc350', factoryDeps: [Array.from(hexToBytes(FACTORY_DEP as `0x${string}`))] },
    })
    // The transfer's 21,000 and the allowance a 0x71 estimate from an EOA has for account steps.
    expect(BigInt(gas as string)).toBe(21_000n + ACCOUNT_STEPS_ALLOWANCE)
  })

  test('a node reopened on its store serves its 0x71 transactions and factory dependencies as before', async () => {
    const store = new MemoryStore()
    const first = await startNode({ store })
    const hash = await rpc(first)<string>('eth_sendRawTransaction', await signed712(request({ customData: { factoryDeps: [FACTORY_DEP] } })))
    const before = {
      tx: await rpc(first)('eth_getTransactionByHash', hash),
      receipt: await rpc(first)('eth_getTransactionReceipt', hash),
      block: await rpc(first)('eth_getBlockByNumber', '0x1', true),
      raw: await rpc(first)('zks_getRawBlockTransactions', 1),
    }
    await first.close()

    const second = await startNode({ store })
    const call = rpc(second)
    expect(await call('eth_getTransactionByHash', hash)).toEqual(before.tx)
    expect(await call('eth_getTransactionReceipt', hash)).toEqual(before.receipt)
    expect(await call('eth_getBlockByNumber', '0x1', true)).toEqual(before.block)
    expect(await call('zks_getRawBlockTransactions', 1)).toEqual(before.raw)
    expect(await call('zks_getBytecodeByHash', bytesToHex(utils.hashBytecode(FACTORY_DEP)))).not.toBeNull()
    await call('eth_sendRawTransaction', await signed712(request({ nonce: 1 })))
    expect(await call('eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x2')
  })
})

describe('refused (nothing is pooled)', () => {
  test('wrong chain id, a signature by someone else, a custom signature that is not 65 bytes, no signature', async () => {
    const node = await startNode()
    const other = await signed712(request({ chainId: 270 }))
    expect(await rejection(node, other)).toMatchObject({ code: -32000, message: 'invalid chain id for signer: have 270 want 260' })

    const forged = await signed712(request(), DEV[1].key)
    expect(await rejection(node, forged)).toMatchObject({
      code: -32000,
      message: `invalid sender: the signature is by ${DEV[1].address}, not by the from address ${DEV[0].address}`,
    })

    const long = utils.serializeEip712(request({ customData: { customSignature: `0x${'11'.repeat(66)}` } }))
    expect((await rejection(node, long)).message).toMatch(/custom signature must be a 65-byte ECDSA signature .* got 66 bytes/)

    const unsigned = utils.serializeEip712(request())
    expect(await rejection(node, unsigned)).toMatchObject({ code: -32000, message: 'invalid sender: transaction is not signed' })
    expect(await rpc(node)('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x0')
  })

  test('a factory dependency that is not EraVM-shaped bytecode', async () => {
    const node = await startNode()
    const even = utils.serializeEip712(request({ customData: { factoryDeps: [`0x${'00'.repeat(64)}`], customSignature: `0x${'11'.repeat(65)}` } }))
    expect(await rejection(node, even)).toMatchObject({ code: -32000, message: 'invalid factory dependency #0: the bytecode length in 32-byte words must be odd' })
  })

  test('a paymaster that cannot pay the fee, or is no contract, is named in the refusal (test/core/exec/bootloader.test.ts runs real ones)', async () => {
    const node = await startNode()
    const paymasterParams = utils.getPaymasterParams('0x000000000000000000000000000000000000beef', { type: 'General', innerInput: new Uint8Array() })
    const raw = await signed712(request({ customData: { paymasterParams } }))
    const poor = await rejection(node, raw)
    expect(poor.code).toBe(-32000)
    expect(poor.message).toMatch(/^insufficient funds for gas \* price \+ value: address 0x000000000000000000000000000000000000beef have 0 want /)
    await rpc(node)('hardhat_setBalance', '0x000000000000000000000000000000000000beef', '0xde0b6b3a7640000')
    expect(await rejection(node, raw)).toMatchObject({
      code: -32000,
      message: 'failed to validate the transaction. reason: Validation revert: Paymaster validation error: the paymaster 0x000000000000000000000000000000000000beef has no code',
    })
  })

  test("geth's admission rules apply to 0x71 as to any transaction", async () => {
    const node = await startNode()
    const lowFee = await signed712(request({ maxFeePerGas: 1n, maxPriorityFeePerGas: 0n }))
    expect((await rejection(node, lowFee)).message).toMatch(/^max fee per gas less than block base fee/)
    const tip = await signed712(request({ maxFeePerGas: GAS_PRICE, maxPriorityFeePerGas: GAS_PRICE + 1n }))
    expect((await rejection(node, tip)).message).toBe('max priority fee per gas higher than max fee per gas')
    const rich = await signed712(request({ value: 10n ** 30n }))
    expect((await rejection(node, rich)).message).toMatch(/^insufficient funds for gas \* price \+ value/)
    await rpc(node)('eth_sendRawTransaction', await signed712(request()))
    expect((await rejection(node, await signed712(request()))).message).toMatch(/^(already known|nonce too low)/)
  })

  test('malformed 0x71 bytes are -32602', async () => {
    const node = await startNode()
    const error = await rejection(node, '0x71c180')
    expect(error).toMatchObject({ code: -32602, message: 'invalid transaction: an EIP-712 transaction is an RLP list of 16 fields, got 1' })
  })
})
