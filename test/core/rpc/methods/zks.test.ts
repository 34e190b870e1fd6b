import { Contract } from 'ethers'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Node } from '../../../../src/core/node.ts'
import { ErrorCode } from '../../../../src/core/index.ts'
import { methods } from '../../../../src/core/rpc/methods/index.ts'
import { L1_ASSET_ROUTER } from '../../../../src/core/rollup/l1Settlement.ts'
import { DEV, devWallet, rpc, startNode } from '../../../support/chain.ts'
import { signTx } from '../../../support/rawTx.ts'

type Json = Record<string, unknown>
const ZERO_HASH = `0x${'00'.repeat(32)}`
const HASH = /^0x[0-9a-f]{64}$/
const ADDRESS = /^0x[0-9a-f]{40}$/
const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/

let node: Node
let call: ReturnType<typeof rpc>
let messageTx: string
let transferTx: string

beforeAll(async () => {
  node = await startNode({}, { shared: true })
  call = rpc(node)
  transferTx = await call('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce: 0, to: DEV[1].address, value: 5n }))
  const messenger = new Contract('0x0000000000000000000000000000000000008008', ['function sendToL1(bytes) returns (bytes32)'], devWallet(node))
  const sent = await messenger.sendToL1('0x1234')
  await sent.wait()
  messageTx = sent.hash
})
afterAll(() => node.close())

/**
 * One shape check per method; the list is checked against the method table, so a zks_ method
 * served without a test here fails.
 */
const shapes: Record<string, () => Promise<void>> = {
  async zks_estimateFee() {
    const fee = await call<Json>('zks_estimateFee', { from: DEV[0].address, to: DEV[1].address, value: '0x1' })
    expect(Object.keys(fee)).toEqual(['gas_limit', 'max_fee_per_gas', 'max_priority_fee_per_gas', 'gas_per_pubdata_limit'])
    expect(fee).toEqual({ gas_limit: '0x5208', max_fee_per_gas: '0x2b275d0', max_priority_fee_per_gas: '0x0', gas_per_pubdata_limit: '0xc350' })
  },
  async zks_estimateGasL1ToL2() {
    expect(await call('zks_estimateGasL1ToL2', { from: DEV[0].address, to: DEV[1].address, value: '0x1' })).toBe('0x5208')
  },
  async zks_gasPerPubdata() {
    expect(await call('zks_gasPerPubdata')).toBe('0xc350')
  },
  async zks_getFeeParams() {
    const params = await call<{ V2: Json & { config: Json; conversion_ratio: Json } }>('zks_getFeeParams')
    expect(Object.keys(params)).toEqual(['V2'])
    expect(Object.keys(params.V2)).toEqual(['config', 'l1_gas_price', 'l1_pubdata_price', 'conversion_ratio'])
    expect(Object.keys(params.V2.config)).toEqual([
      'minimal_l2_gas_price',
      'compute_overhead_part',
      'pubdata_overhead_part',
      'batch_overhead_l1_gas',
      'max_gas_per_batch',
      'max_pubdata_per_batch',
    ])
    expect(params.V2.config.minimal_l2_gas_price).toBe(45_250_000)
    expect(params.V2.conversion_ratio).toEqual({ numerator: 1, denominator: 1 })
  },
  async zks_getBatchFeeInput() {
    const input = await call<Json>('zks_getBatchFeeInput')
    expect(Object.keys(input)).toEqual(['fair_l2_gas_price', 'fair_pubdata_price', 'l1_gas_price'])
    expect(input.fair_l2_gas_price).toBe(45_250_000)
    expect(typeof input.l1_gas_price).toBe('number')
  },
  async zks_getL1GasPrice() {
    expect(await call('zks_getL1GasPrice')).toMatch(QUANTITY)
    expect(BigInt(await call<string>('zks_getL1GasPrice'))).toBe(BigInt((await call<Json>('zks_getBatchFeeInput')).l1_gas_price as number))
  },
  async zks_L1ChainId() {
    expect(await call('zks_L1ChainId')).toBe('0x9')
  },
  async zks_getMainContract() {
    expect(await call('zks_getMainContract')).toMatch(ADDRESS)
  },
  async zks_getBridgehubContract() {
    expect(await call('zks_getBridgehubContract')).toBeNull()
  },
  async zks_getBridgeContracts() {
    expect(await call('zks_getBridgeContracts')).toEqual({
      l1SharedDefaultBridge: L1_ASSET_ROUTER,
      l2SharedDefaultBridge: '0x0000000000000000000000000000000000010003',
      l1Erc20DefaultBridge: null,
      l2Erc20DefaultBridge: null,
      l1WethBridge: null,
      l2WethBridge: null,
      l2LegacySharedBridge: null,
    })
  },
  async zks_getBaseTokenL1Address() {
    expect(await call('zks_getBaseTokenL1Address')).toBe('0x0000000000000000000000000000000000000001')
  },
  async zks_getTestnetPaymaster() {
    expect(await call('zks_getTestnetPaymaster')).toBeNull()
  },
  async zks_getTimestampAsserter() {
    expect(await call('zks_getTimestampAsserter')).toBeNull()
  },
  async zks_getL2Multicall3() {
    expect(await call('zks_getL2Multicall3')).toBeNull()
  },
  async zks_getConfirmedTokens() {
    const eth = { l1Address: '0x0000000000000000000000000000000000000000', l2Address: '0x000000000000000000000000000000000000800a', name: 'Ether', symbol: 'ETH', decimals: 18 }
    expect(await call('zks_getConfirmedTokens', 0, 255)).toEqual([eth])
    expect(await call('zks_getConfirmedTokens', 1, 10)).toEqual([])
    expect(await call('zks_getConfirmedTokens', 0, 0)).toEqual([])
  },
  async zks_getAllAccountBalances() {
    const balance = await call<string>('eth_getBalance', DEV[1].address, 'latest')
    expect(await call('zks_getAllAccountBalances', DEV[1].address)).toEqual({ '0x0000000000000000000000000000000000000000': balance })
    expect(await call('zks_getAllAccountBalances', '0x000000000000000000000000000000000000dead')).toEqual({})
  },
  async zks_getProtocolVersion() {
    const version = await call<Json>('zks_getProtocolVersion')
    expect(Object.keys(version)).toEqual([
      'version_id',
      'minorVersion',
      'timestamp',
      'verification_keys_hashes',
      'base_system_contracts',
      'bootloaderCodeHash',
      'defaultAccountCodeHash',
      'evmSimulatorCodeHash',
      'l2_system_upgrade_tx_hash',
      'l2SystemUpgradeTxHash',
    ])
    expect(version).toMatchObject({ version_id: 28, minorVersion: 28, l2_system_upgrade_tx_hash: null })
    expect(version.timestamp).toBe(Number((await call<Json>('eth_getBlockByNumber', '0x0', false)).timestamp))
    expect(await call('zks_getProtocolVersion', null)).toEqual(version)
    expect(await call('zks_getProtocolVersion', 28)).toEqual(version)
    expect(await call('zks_getProtocolVersion', 24)).toBeNull()
  },
  async zks_L1BatchNumber() {
    expect(await call('zks_L1BatchNumber')).toBe('0x2')
  },
  async zks_getL1BatchBlockRange() {
    expect(await call('zks_getL1BatchBlockRange', 2)).toEqual(['0x2', '0x2'])
    expect(await call('zks_getL1BatchBlockRange', 99)).toBeNull()
  },
  async zks_getL1BatchDetails() {
    const details = await call<Json>('zks_getL1BatchDetails', 1)
    expect(Object.keys(details)).toEqual([
      'number',
      'timestamp',
      'l1TxCount',
      'l2TxCount',
      'rootHash',
      'status',
      'commitTxHash',
      'committedAt',
      'commitChainId',
      'proveTxHash',
      'provenAt',
      'proveChainId',
      'executeTxHash',
      'executedAt',
      'executeChainId',
      'l1GasPrice',
      'l2FairGasPrice',
      'fairPubdataPrice',
      'baseSystemContractsHashes',
    ])
    expect(details).toMatchObject({ number: 1, l1TxCount: 0, l2TxCount: 1, status: 'verified', l2FairGasPrice: 45_250_000, fairPubdataPrice: 0 })
    expect(details.rootHash).toMatch(HASH)
    expect(details.baseSystemContractsHashes).toEqual({ bootloader: ZERO_HASH, default_aa: ZERO_HASH, evm_emulator: null })
    expect(await call('zks_getL1BatchDetails', 99)).toBeNull()
  },
  async zks_getBlockDetails() {
    const details = await call<Json>('zks_getBlockDetails', 1)
    const keys = Object.keys(details)
    expect(keys.slice(0, 2)).toEqual(['number', 'l1BatchNumber'])
    expect(keys.slice(-2)).toEqual(['operatorAddress', 'protocolVersion'])
    // number, l1BatchNumber, era's 18 BlockDetailsBase keys, operatorAddress, protocolVersion
    expect(keys).toHaveLength(22)
    expect(details).toMatchObject({ number: 1, l1BatchNumber: 1, l2TxCount: 1, protocolVersion: 'Version28', commitTxHash: null })
    expect(details.rootHash).toBe((await call<Json>('eth_getBlockByNumber', '0x1', false)).hash)
    expect(await call('zks_getBlockDetails', 99)).toBeNull()
  },
  async zks_getTransactionDetails() {
    const details = await call<Json>('zks_getTransactionDetails', transferTx)
    expect(Object.keys(details)).toEqual([
      'isL1Originated',
      'status',
      'fee',
      'gasPerPubdata',
      'initiatorAddress',
      'receivedAt',
      'ethCommitTxHash',
      'ethProveTxHash',
      'ethExecuteTxHash',
    ])
    expect(details).toMatchObject({ isL1Originated: false, status: 'included', fee: `0x${(21_000n * 45_250_000n).toString(16)}`, initiatorAddress: DEV[0].address })
    expect(details.receivedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(await call('zks_getTransactionDetails', ZERO_HASH)).toBeNull()
  },
  async zks_getRawBlockTransactions() {
    const [raw] = await call<Json[]>('zks_getRawBlockTransactions', 1)
    expect(Object.keys(raw)).toEqual(['common_data', 'execute', 'received_timestamp_ms', 'raw_bytes'])
    const l2 = (raw.common_data as { L2: Json }).L2
    expect(Object.keys(l2)).toEqual(['nonce', 'fee', 'initiatorAddress', 'signature', 'transactionType', 'input', 'paymasterParams'])
    expect(l2).toMatchObject({ nonce: 0, transactionType: 'EIP1559Transaction', initiatorAddress: DEV[0].address })
    // signTx caps the fee at twice the gas price and tips nothing.
    expect(l2.fee).toEqual({ gas_limit: '0x5208', max_fee_per_gas: '0x564eba0', max_priority_fee_per_gas: '0x0', gas_per_pubdata_limit: '0xc350' })
    expect(l2.signature).toHaveLength(65)
    expect([27, 28]).toContain((l2.signature as number[])[64])
    expect(l2.paymasterParams).toEqual({ paymaster: '0x0000000000000000000000000000000000000000', paymasterInput: [] })
    const input = l2.input as { hash: string; data: number[] }
    expect(input.hash).toBe(transferTx)
    expect(`0x${Buffer.from(input.data).toString('hex')}`).toBe(raw.raw_bytes)
    expect(raw.execute).toEqual({ contractAddress: DEV[1].address, calldata: '0x', value: '0x5', factoryDeps: [] })
    expect(typeof raw.received_timestamp_ms).toBe('number')
    expect(await call('zks_getRawBlockTransactions', 0)).toEqual([])
    expect(await call('zks_getRawBlockTransactions', 99)).toEqual([])
  },
  async zks_getBytecodeByHash() {
    expect(await call('zks_getBytecodeByHash', ZERO_HASH)).toBeNull()
  },
  async zks_getL2ToL1LogProof() {
    const proof = await call<Json>('zks_getL2ToL1LogProof', messageTx)
    expect(Object.keys(proof)).toEqual(['proof', 'id', 'root'])
    expect(proof.id).toBe(0)
    expect(proof.root).toMatch(HASH)
    expect(await call('zks_getL2ToL1LogProof', messageTx, null, null)).toEqual(proof)
    expect(await call('zks_getL2ToL1LogProof', messageTx, 1)).toBeNull()
    expect(await call('zks_getL2ToL1LogProof', transferTx)).toBeNull()
    expect(await call('zks_getL2ToL1LogProof', ZERO_HASH)).toBeNull()
  },
  async zks_getL2ToL1MsgProof() {
    const proof = await call<Json>('zks_getL2ToL1LogProof', messageTx)
    const { keccak256 } = await import('ethers')
    expect(await call('zks_getL2ToL1MsgProof', 2, DEV[0].address, keccak256('0x1234'))).toEqual(proof)
    expect(await call('zks_getL2ToL1MsgProof', '0x2', DEV[0].address, keccak256('0x1234'), null)).toEqual(proof)
    expect(await call('zks_getL2ToL1MsgProof', 2, DEV[0].address, ZERO_HASH)).toBeNull()
    expect(await call('zks_getL2ToL1MsgProof', 99, DEV[0].address, keccak256('0x1234'))).toBeNull()
  },
  async zks_getProof() {
    const proof = await call<Json & { storageProof: Json[] }>('zks_getProof', DEV[0].address, [ZERO_HASH], 2)
    expect(Object.keys(proof)).toEqual(['address', 'storageProof', 'accountProof', 'storageHash'])
    expect(Object.keys(proof.storageProof[0])).toEqual(['key', 'proof', 'value', 'index'])
    expect(proof.storageProof[0]).toMatchObject({ key: ZERO_HASH, value: ZERO_HASH, index: 0 })
    // The same account proof eth_getProof gives at the batch's last block.
    const eth = await call<Json>('eth_getProof', DEV[0].address, [ZERO_HASH], '0x2')
    expect(proof.accountProof).toEqual(eth.accountProof)
    expect(proof.storageHash).toBe(eth.storageHash)
    expect(await call('zks_getProof', DEV[0].address, [], 99)).toBeNull()
  },
  async zks_sendRawTransactionWithDetailedOutput() {
    const raw = await signTx(DEV[2].key, { nonce: 0, to: DEV[1].address, value: 1n })
    const output = await call<Json>('zks_sendRawTransactionWithDetailedOutput', raw)
    expect(Object.keys(output)).toEqual(['transactionHash', 'storageLogs', 'events'])
    expect(output).toMatchObject({ storageLogs: [], events: [] })
    expect(await call('eth_getTransactionReceipt', output.transactionHash)).toMatchObject({ status: '0x1' })
  },
  async unstable_sendRawTransactionWithDetailedOutput() {
    const raw = await signTx(DEV[2].key, { nonce: 1, to: DEV[1].address, value: 1n })
    const output = await call<Json>('unstable_sendRawTransactionWithDetailedOutput', raw)
    expect(Object.keys(output)).toEqual(['transactionHash', 'storageLogs', 'events'])
  },
}

test('every zks_ and unstable_ method the node serves has a shape test here', () => {
  const served = Object.keys(methods).filter((name) => name.startsWith('zks_') || name.startsWith('unstable_'))
  expect(Object.keys(shapes).sort()).toEqual(served.sort())
})

describe('shapes', () => {
  for (const [name, check] of Object.entries(shapes)) test(name, check)
})

describe('bad inputs', () => {
  const invalid = async (method: string, params: unknown[], message: RegExp | string) => {
    const error = await call(method, ...params).then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string },
    )
    expect(error, `${method}(${JSON.stringify(params)})`).toBeDefined()
    expect(error!.code).toBe(ErrorCode.invalidParams)
    expect(error!.message).toMatch(message)
  }

  test('block and batch numbers: JSON integers and hex; anything else is -32602 naming the argument', async () => {
    expect(await call('zks_getBlockDetails', '0x1')).toEqual(await call('zks_getBlockDetails', 1))
    for (const method of ['zks_getBlockDetails', 'zks_getL1BatchBlockRange', 'zks_getL1BatchDetails', 'zks_getRawBlockTransactions']) {
      const name = method === 'zks_getL1BatchBlockRange' || method === 'zks_getL1BatchDetails' ? 'batch' : 'block'
      await invalid(method, [-1], `invalid argument 0 (${name}): expected a non-negative integer`)
      await invalid(method, [1.5], 'expected a non-negative integer')
      await invalid(method, ['1'], 'expected a non-negative integer')
      await invalid(method, ['0x01'], 'expected a hex quantity')
      await invalid(method, ['0xzz'], 'expected a hex quantity')
      await invalid(method, [2 ** 32], 'out of range')
      await invalid(method, [null], `invalid argument 0 (${name}): expected a non-negative integer (a JSON number, or hex like "0x1a"), got null`)
      await invalid(method, [], `missing value for required argument 0`)
      await invalid(method, [1, 2], 'too many arguments')
    }
  })

  test('hashes, addresses and the rest', async () => {
    await invalid('zks_getTransactionDetails', ['0x1234'], 'invalid argument 0 (transactionHash): expected a 32-byte hash')
    await invalid('zks_getL2ToL1LogProof', [messageTx, -1], 'invalid argument 1 (index)')
    await invalid('zks_getL2ToL1LogProof', [messageTx, 0, 'proof_based_gw'], /invalid argument 2 \(interopMode\).*settles on L1/)
    await invalid('zks_getL2ToL1MsgProof', [2, '0x1234', ZERO_HASH], 'invalid argument 1 (sender)')
    await invalid('zks_getL2ToL1MsgProof', [2, DEV[0].address], 'missing value for required argument 2 (messageHash)')
    await invalid('zks_getBytecodeByHash', ['0x00'], 'invalid argument 0 (bytecodeHash)')
    await invalid('zks_getConfirmedTokens', [0, 256], 'invalid argument 1 (limit): expected an integer from 0 to 255')
    await invalid('zks_getAllAccountBalances', ['nobody'], 'invalid argument 0 (address)')
    await invalid('zks_getProof', [DEV[0].address, ZERO_HASH, 1], 'invalid argument 1 (keys)')
    await invalid('zks_getProtocolVersion', ['28'], 'invalid argument 0 (versionId)')
    await invalid('zks_estimateFee', [{ to: 'nowhere' }], 'invalid argument 0 (call): to')
    await invalid('zks_sendRawTransactionWithDetailedOutput', ['0x'], 'invalid transaction: empty input')
    await invalid('zks_gasPerPubdata', [1], 'too many arguments')
  })
})
