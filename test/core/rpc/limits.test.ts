import { Interface, type Contract } from 'ethers'
import { describe, expect, test } from 'vitest'
import { DEFAULT_LIMITS } from '../../../src/core/config.ts'
import type { NodeConfig } from '../../../src/core/index.ts'
import { artifacts, deploy, devWallet, rpc, startNode } from '../../support/chain.ts'
import { failure } from '../../support/failure.ts'

const probeAbi = new Interface(artifacts.Probe.abi)
const FRESH = '0x00000000000000000000000000000000000000c0'
/** Runtime code returning GAS (the gas left after its own 2) as one word. */
const GAS_LEFT_CODE = '0x5a5f5260205ff3'
/** Runtime code that loops forever: JUMPDEST PUSH0 JUMP. */
const LOOP_CODE = '0x5b5f56'

async function start(config: NodeConfig = {}) {
  const node = await startNode(config)
  return { node, call: rpc(node) }
}

const hex = (value: bigint | number) => `0x${value.toString(16)}`

/** A request text of exactly `bytes` UTF-8 bytes, padded with `pad` (a 1- or 3-byte character). */
function requestOfSize(bytes: number, pad = 'x'): string {
  const head = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","pad":"'
  const tail = '"}'
  const room = bytes - head.length - tail.length
  const padBytes = new TextEncoder().encode(pad).length
  return head + pad.repeat(Math.floor(room / padBytes)) + 'x'.repeat(room % padBytes) + tail
}

test('the defaults are the documented ones', () => {
  expect(DEFAULT_LIMITS).toEqual({
    maxRequestBytes: 5 * 1024 * 1024,
    maxBatchLength: 1000,
    maxLogBlockRange: 10_000,
    maxLogResults: 10_000,
    maxFilters: 1000,
    maxSubscriptions: 1000,
    filterIdleMs: 5 * 60 * 1000,
    callGasCap: 50_000_000n,
    evmTimeoutMs: 5000,
    maxTraceBytes: 32 * 1024 * 1024,
    maxMineBlocks: 10_000,
    stateCacheNodes: 50_000,
  })
})

describe('request size', () => {
  test('a request over the limit is refused without being parsed', async () => {
    const { node } = await start({ limits: { maxRequestBytes: 100 } })
    expect(JSON.parse((await node.handleText(requestOfSize(100)))!)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x104' })
    expect(JSON.parse((await node.handleText(requestOfSize(101)))!)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'request too large: the limit is 100 bytes' },
    })
    // Not even JSON: the size is checked first.
    expect(JSON.parse((await node.handleText('x'.repeat(101)))!)).toMatchObject({ error: { code: -32600 } })
  })

  test('counts UTF-8 bytes, not characters', async () => {
    const { node } = await start({ limits: { maxRequestBytes: 100 } })
    const text = requestOfSize(101, '€')
    expect(text.length).toBeLessThan(100)
    expect(JSON.parse((await node.handleText(text))!)).toMatchObject({ error: { code: -32600 } })
    expect(JSON.parse((await node.handleText(requestOfSize(100, '€')))!)).toMatchObject({ result: '0x104' })
  })

  test('default: 5 MiB', async () => {
    const { node } = await start()
    expect(JSON.parse((await node.handleText(requestOfSize(5 * 1024 * 1024)))!)).toMatchObject({ result: '0x104' })
    expect(JSON.parse((await node.handleText(requestOfSize(5 * 1024 * 1024 + 1)))!)).toMatchObject({
      error: { code: -32600, message: 'request too large: the limit is 5242880 bytes' },
    })
  })
})

describe('batch length', () => {
  const batch = (length: number) => Array.from({ length }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' }))

  test('a longer batch is one -32600 error', async () => {
    const { node } = await start({ limits: { maxBatchLength: 3 } })
    expect(await node.handle(batch(3))).toHaveLength(3)
    expect(await node.handle(batch(4))).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'batch too large: 4 calls, the limit is 3' },
    })
  })

  test('default: 1000 calls', async () => {
    const { node } = await start()
    expect(await node.handle(batch(1000))).toHaveLength(1000)
    expect(await node.handle(batch(1001))).toMatchObject({ error: { code: -32600, message: 'batch too large: 1001 calls, the limit is 1000' } })
  })
})

describe('eth_getLogs', () => {
  test('block range: more blocks than the limit is -32005; the head clamps the range first', async () => {
    const { node, call } = await start({ limits: { maxLogBlockRange: 3 }, mining: { mode: 'manual' } })
    for (let i = 0; i < 4; i++) await node.miner.mine() // blocks 1-4
    expect(await call('eth_getLogs', { fromBlock: '0x2', toBlock: '0x4' })).toEqual([])
    expect(await call('eth_getLogs', { fromBlock: '0x2', toBlock: '0x3e8' })).toEqual([])
    expect(await failure(call('eth_getLogs', { fromBlock: '0x1', toBlock: '0x4' }))).toEqual({
      code: -32005,
      message: 'block range too large: 4 blocks, the limit is 3',
    })
    expect(await failure(call('eth_getLogs', { fromBlock: 'earliest' }))).toEqual({
      code: -32005,
      message: 'block range too large: 5 blocks, the limit is 3',
    })
    // A single block by hash is always one block.
    const head = await call<{ hash: string }>('eth_getBlockByNumber', 'latest', false)
    expect(await call('eth_getLogs', { blockHash: head.hash })).toEqual([])
  })

  test('eth_getFilterLogs has the same range limit', async () => {
    const { node, call } = await start({ limits: { maxLogBlockRange: 2 }, mining: { mode: 'manual' } })
    const filter = await call<string>('eth_newFilter', { fromBlock: 'earliest' })
    expect(await call('eth_getFilterLogs', filter)).toEqual([])
    for (let i = 0; i < 2; i++) await node.miner.mine()
    expect(await failure(call('eth_getFilterLogs', filter))).toEqual({
      code: -32005,
      message: 'block range too large: 3 blocks, the limit is 2',
    })
  })

  test('result count: more logs than the limit is -32005', async () => {
    const { node, call } = await start({ limits: { maxLogResults: 5 } })
    const probe = (await deploy(devWallet(node), 'Probe')) as Contract
    await (await probe.ping(5)).wait() // block 2
    expect(await call('eth_getLogs', { fromBlock: '0x2' })).toHaveLength(5)
    await (await probe.ping(1)).wait() // block 3
    expect(await failure(call('eth_getLogs', { fromBlock: '0x2' }))).toEqual({
      code: -32005,
      message: 'query returned more than 5 results; narrow the block range or the filter',
    })
    const filter = await call<string>('eth_newFilter', { fromBlock: '0x2' })
    expect(await failure(call('eth_getFilterLogs', filter))).toMatchObject({ code: -32005 })
    // Narrowing the query is the way out.
    expect(await call('eth_getLogs', { fromBlock: '0x2', topics: [null, [`0x${'0'.repeat(64)}`]] })).toHaveLength(2)
  })

  test('default result count: 10,000 logs', async () => {
    const { node, call } = await start()
    const probe = (await deploy(devWallet(node), 'Probe')) as Contract
    await (await probe.ping(10_001, { gasLimit: 20_000_000 })).wait()
    expect(await failure(call('eth_getLogs', { fromBlock: '0x2' }))).toEqual({
      code: -32005,
      message: 'query returned more than 10000 results; narrow the block range or the filter',
    })
    expect(await call('eth_getLogs', { fromBlock: '0x2', topics: [null, [`0x${'0'.repeat(64)}`]] })).toHaveLength(1)
  })

  test('a log filter keeps reporting changes beyond both limits, so it is never stuck', async () => {
    const { node, call } = await start({ limits: { maxLogBlockRange: 2, maxLogResults: 2 } })
    const probe = (await deploy(devWallet(node), 'Probe')) as Contract
    const filter = await call<string>('eth_newFilter', {})
    for (const n of [1, 2, 3]) await (await probe.ping(n)).wait()
    expect(await call('eth_getFilterChanges', filter)).toHaveLength(6)
    expect(await call('eth_getFilterChanges', filter)).toEqual([])
  })
})

describe('filters', () => {
  test('count: one filter more than the limit is -32005; uninstalling makes room', async () => {
    const { call } = await start({ limits: { maxFilters: 2 } })
    const first = await call<string>('eth_newBlockFilter')
    await call('eth_newFilter', {})
    expect(await failure(call('eth_newPendingTransactionFilter'))).toEqual({
      code: -32005,
      message: 'too many filters: the limit is 2; uninstall unused ones',
    })
    expect(await call('eth_uninstallFilter', first)).toBe(true)
    expect(await call('eth_newPendingTransactionFilter')).toMatch(/^0x/)
  })

  test('default count: 1000', async () => {
    const { call } = await start()
    for (let i = 0; i < 1000; i++) await call('eth_newBlockFilter')
    expect(await failure(call('eth_newBlockFilter'))).toMatchObject({ code: -32005, message: expect.stringMatching(/limit is 1000/) })
  })

  test('an idle filter expires; polling keeps it alive', async () => {
    let nowMs = 1_750_000_000_000
    const { call } = await start({ now: () => nowMs, limits: { filterIdleMs: 1000 } })
    const polled = await call<string>('eth_newBlockFilter')
    const idle = await call<string>('eth_newFilter', {})
    const removed = await call<string>('eth_newPendingTransactionFilter')
    expect(await call('eth_uninstallFilter', removed)).toBe(true)

    for (let i = 0; i < 3; i++) {
      nowMs += 700
      expect(await call('eth_getFilterChanges', polled)).toEqual([])
    }
    // 2100 ms after its creation, 'idle' was never polled.
    for (const filter of [idle, removed]) {
      expect(await failure(call('eth_getFilterChanges', filter))).toEqual({ code: -32000, message: 'filter not found' })
    }
    expect(await failure(call('eth_getFilterLogs', idle))).toEqual({ code: -32000, message: 'filter not found' })
    expect(await call('eth_uninstallFilter', idle)).toBe(false)
  })

  test('default idle time: 5 minutes; expired filters free their slot', async () => {
    let nowMs = 1_750_000_000_000
    const { call } = await start({ now: () => nowMs, limits: { maxFilters: 2 } })
    const a = await call<string>('eth_newBlockFilter')
    const b = await call<string>('eth_newBlockFilter')
    nowMs += 5 * 60 * 1000
    expect(await call('eth_getFilterChanges', a)).toEqual([]) // exactly 5 minutes idle: still there
    nowMs += 5 * 60 * 1000
    expect(await call('eth_getFilterChanges', a)).toEqual([]) // polled 5 minutes ago: still there
    nowMs += 5 * 60 * 1000 + 1
    expect(await failure(call('eth_getFilterChanges', a))).toEqual({ code: -32000, message: 'filter not found' })
    expect(await failure(call('eth_getFilterChanges', b))).toEqual({ code: -32000, message: 'filter not found' })
    await call('eth_newBlockFilter')
    await call('eth_newBlockFilter')
  })
})

describe('call gas cap', () => {
  test('a huge gas is capped, not refused', async () => {
    const { call } = await start({ limits: { callGasCap: 100_000n } })
    const overrides = { [FRESH]: { code: GAS_LEFT_CODE } }
    const gasLeft = (gas?: string) => call<string>('eth_call', { to: FRESH, gas }, 'latest', overrides)
    // The call starts with the cap minus the transaction's intrinsic 21000, minus GAS itself.
    expect(BigInt(await gasLeft('0xffffffffffffffff'))).toBe(100_000n - 21_000n - 2n)
    // Past 64 bits it is not a gas amount at all: refused as geth refuses it.
    await expect(gasLeft('0xffffffffffffffffffff')).rejects.toMatchObject({ code: -32602, message: 'invalid argument 0 (call): gas: hex number > 64 bits' })
    expect(BigInt(await gasLeft())).toBe(100_000n - 21_000n - 2n)
    expect(BigInt(await gasLeft(hex(50_000)))).toBe(50_000n - 21_000n - 2n)
  })

  test('an endless loop runs out of gas at the cap', async () => {
    const { call } = await start({ limits: { callGasCap: 1_000_000n } })
    const overrides = { [FRESH]: { code: LOOP_CODE } }
    expect(await failure(call('eth_call', { to: FRESH, gas: '0xffffffffffffffff' }, 'latest', overrides))).toEqual({
      code: -32000,
      message: 'out of gas',
    })
    expect(await failure(call('eth_estimateGas', { to: FRESH }, 'latest', overrides))).toEqual({
      code: -32000,
      message: 'gas required exceeds allowance (1000000)',
    })
  })

  test('an estimate is capped as well', async () => {
    const { call } = await start({ limits: { callGasCap: 60_000n } })
    const overrides = { [FRESH]: { code: artifacts.Probe.deployedBytecode } }
    const estimate = (rounds: number, gas?: string) =>
      call<string>('eth_estimateGas', { to: FRESH, data: probeAbi.encodeFunctionData('burn', [rounds]), gas }, 'latest', overrides)
    expect(BigInt(await estimate(10))).toBeLessThan(60_000n)
    expect(await failure(estimate(1000, hex(10n ** 9n)))).toEqual({
      code: -32000,
      message: 'gas required exceeds allowance (60000)',
    })
  })

  test('default cap: 50,000,000', async () => {
    const { call } = await start()
    const gasLeft = await call<string>('eth_call', { to: FRESH, gas: '0xffffffffffffffff' }, 'latest', { [FRESH]: { code: GAS_LEFT_CODE } })
    expect(BigInt(gasLeft)).toBe(50_000_000n - 21_000n - 2n)
  })
})
