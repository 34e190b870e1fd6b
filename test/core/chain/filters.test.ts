import { id, toBeHex, zeroPadValue, type Contract } from 'ethers'
import { describe, expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { deploy, DEV, devWallet, rpc, startNode, withProbe } from '../../support/chain.ts'
import { failure } from '../../support/failure.ts'

const PING = id('Ping(uint256)')
const VALUE_SET = id('ValueSet(address,uint256,string)')
const word = (value: bigint | number) => zeroPadValue(toBeHex(value), 32)

interface Log {
  address: string
  topics: string[]
  blockNumber: string
  logIndex: string
}

let node: Node | undefined


/** Ping(n) numbers of logs, in order. */
const pings = (logs: Log[]) => logs.map((log) => (log.topics[0] === PING ? Number(log.topics[1]) : 'set'))

describe('log filters', () => {
  test('eth_getFilterChanges returns only the logs since the previous poll', async () => {
    const { call, probe, address } = await withProbe()
    await (await probe.ping(1)).wait() // before the filter: never reported as a change
    const filter = await call<string>('eth_newFilter', { address })
    expect(filter).toMatch(/^0x[0-9a-f]+$/)
    expect(await call('eth_getFilterChanges', filter)).toEqual([])

    await (await probe.ping(2)).wait()
    await (await probe.set(4)).wait()
    expect(pings(await call('eth_getFilterChanges', filter))).toEqual([0, 1, 'set'])
    expect(await call('eth_getFilterChanges', filter)).toEqual([])

    await (await probe.ping(3)).wait()
    const changes = await call<Log[]>('eth_getFilterChanges', filter)
    expect(pings(changes)).toEqual([0, 1, 2])
    expect(changes.map((log) => log.blockNumber)).toEqual(['0x5', '0x5', '0x5'])
    expect(await call('eth_getFilterChanges', filter)).toEqual([])
  })

  test('changes honour the address and topics of the filter', async () => {
    const { node, call, probe, address } = await withProbe()
    const other = (await deploy(devWallet(node, 1), 'Probe')) as Contract
    const byTopic = await call<string>('eth_newFilter', { topics: [PING, [word(1), word(2)]] })
    const byAddress = await call<string>('eth_newFilter', { address })
    const none = await call<string>('eth_newFilter', { address: DEV[2].address })

    await (await probe.ping(3)).wait()
    await (await other.ping(2)).wait()
    await (await other.set(1)).wait()

    const fromTopic = await call<Log[]>('eth_getFilterChanges', byTopic)
    expect(fromTopic.map((log) => [log.address, Number(log.topics[1])])).toEqual([
      [address, 1],
      [address, 2],
      [(await other.getAddress()).toLowerCase(), 1],
    ])
    expect(pings(await call('eth_getFilterChanges', byAddress))).toEqual([0, 1, 2])
    expect(await call('eth_getFilterChanges', none)).toEqual([])
  })

  test('numeric fromBlock/toBlock bound the changes too', async () => {
    const { call, probe, address } = await withProbe()
    const passed = await call<string>('eth_newFilter', { address, fromBlock: 'earliest', toBlock: '0x1' })
    const window = await call<string>('eth_newFilter', { address, fromBlock: '0x3', toBlock: '0x4' })
    for (const n of [1, 2, 3, 4]) await (await probe.ping(n)).wait() // blocks 2, 3, 4, 5
    expect(await call('eth_getFilterChanges', passed)).toEqual([])
    const changes = await call<Log[]>('eth_getFilterChanges', window)
    expect(changes.map((log) => log.blockNumber)).toEqual(['0x3', '0x3', '0x4', '0x4', '0x4'])
  })

  test('eth_getFilterLogs returns every matching log of the range, however often it is called', async () => {
    const { call, probe, address } = await withProbe()
    await (await probe.ping(2)).wait() // block 2
    const filter = await call<string>('eth_newFilter', { address, fromBlock: 'earliest', topics: [PING] })
    await (await probe.set(9)).wait() // block 3: not a Ping
    await (await probe.ping(1)).wait() // block 4

    const all = await call<Log[]>('eth_getFilterLogs', filter)
    expect(all.map((log) => [log.blockNumber, Number(log.topics[1])])).toEqual([
      ['0x2', 0],
      ['0x2', 1],
      ['0x4', 0],
    ])
    expect(await call('eth_getFilterChanges', filter)).toHaveLength(1) // the ping of block 4
    expect(await call('eth_getFilterLogs', filter)).toEqual(all)
    expect(await call('eth_getLogs', { address, fromBlock: 'earliest', topics: [PING] })).toEqual(all)
  })

  test('eth_getFilterLogs of a filter without fromBlock covers the latest block', async () => {
    const { call, probe, address } = await withProbe()
    const filter = await call<string>('eth_newFilter', { address })
    await (await probe.ping(2)).wait()
    await (await probe.set(1)).wait()
    const latest = await call<Log[]>('eth_getFilterLogs', filter)
    expect(latest.map((log) => log.topics[0])).toEqual([VALUE_SET])
  })

  test('eth_newFilter refuses blockHash and bad criteria', async () => {
    const { call } = await withProbe()
    expect(await failure(call('eth_newFilter', { blockHash: `0x${'00'.repeat(32)}` }))).toMatchObject({ code: -32602 })
    expect(await failure(call('eth_newFilter', { topics: [null, null, null, null, null] }))).toMatchObject({ code: -32602 })
    expect(await failure(call('eth_newFilter', { fromBlock: '0x5', toBlock: '0x4' }))).toMatchObject({ code: -32602 })
  })
})

describe('block filters', () => {
  test('report the hashes of new blocks only, in order', async () => {
    const { call, probe } = await withProbe()
    const filter = await call<string>('eth_newBlockFilter')
    expect(await call('eth_getFilterChanges', filter)).toEqual([])

    await (await probe.set(1)).wait()
    await (await probe.set(2)).wait()
    await (await probe.set(3)).wait()
    const hashes = []
    for (const n of ['0x2', '0x3', '0x4']) hashes.push((await call<{ hash: string }>('eth_getBlockByNumber', n, false)).hash)
    expect(await call('eth_getFilterChanges', filter)).toEqual(hashes)
    expect(await call('eth_getFilterChanges', filter)).toEqual([])

    await (await probe.set(4)).wait()
    const block5 = await call<{ hash: string }>('eth_getBlockByNumber', '0x5', false)
    expect(await call('eth_getFilterChanges', filter)).toEqual([block5.hash])
  })

  test('blocks mined without transactions count too', async () => {
    node = await startNode({ mining: { mode: 'manual' } })
    const call = rpc(node)
    const filter = await call<string>('eth_newBlockFilter')
    const mined = [await node.miner.mine(), await node.miner.mine()]
    expect(await call('eth_getFilterChanges', filter)).toEqual(mined.map((block) => block.hash))
  })

  test('eth_getFilterLogs is for log filters only', async () => {
    node = await startNode()
    const call = rpc(node)
    const filter = await call<string>('eth_newBlockFilter')
    expect(await failure(call('eth_getFilterLogs', filter))).toEqual({
      code: -32602,
      message: 'invalid argument 0 (filterId): not a log filter',
    })
  })
})

describe('pending transaction filters', () => {
  test('report the hashes of submitted transactions, in order, once', async () => {
    node = await startNode()
    const call = rpc(node)
    const wallet = devWallet(node)
    const filter = await call<string>('eth_newPendingTransactionFilter')
    expect(await call('eth_getFilterChanges', filter)).toEqual([])

    const first = await wallet.sendTransaction({ to: DEV[1].address, value: 1n })
    const second = await wallet.sendTransaction({ to: DEV[2].address, value: 2n })
    expect(await call('eth_getFilterChanges', filter)).toEqual([first.hash, second.hash])
    expect(await call('eth_getFilterChanges', filter)).toEqual([])
  })

  test('also under manual mining, before the transactions are mined', async () => {
    node = await startNode({ mining: { mode: 'manual' } })
    const call = rpc(node)
    const filter = await call<string>('eth_newPendingTransactionFilter')
    const sent = await devWallet(node).sendTransaction({ to: DEV[1].address, value: 1n })
    expect(await call('eth_getTransactionReceipt', sent.hash)).toBeNull()
    expect(await call('eth_getFilterChanges', filter)).toEqual([sent.hash])
  })
})

describe('eth_uninstallFilter', () => {
  test('true once, then false; the filter is gone', async () => {
    node = await startNode()
    const call = rpc(node)
    const filters = [
      await call<string>('eth_newFilter', {}),
      await call<string>('eth_newBlockFilter'),
      await call<string>('eth_newPendingTransactionFilter'),
    ]
    expect(new Set(filters).size).toBe(3)
    for (const filter of filters) {
      expect(await call('eth_uninstallFilter', filter)).toBe(true)
      expect(await call('eth_uninstallFilter', filter)).toBe(false)
      expect(await failure(call('eth_getFilterChanges', filter))).toEqual({ code: -32000, message: 'filter not found' })
    }
    expect(await failure(call('eth_getFilterLogs', filters[0]))).toEqual({ code: -32000, message: 'filter not found' })
  })

  test('filter ids are 32-byte values, always 64 hex digits', async () => {
    node = await startNode({ limits: { maxFilters: 200 } })
    const call = rpc(node)
    const ids = await Promise.all(Array.from({ length: 150 }, () => call<string>('eth_newBlockFilter')))
    for (const id of ids) expect(id).toMatch(/^0x[0-9a-f]{64}$/)
    expect(new Set(ids).size).toBe(ids.length)
  })

  test('filter ids are matched in any case; malformed ids are -32602', async () => {
    node = await startNode()
    const call = rpc(node)
    const filter = await call<string>('eth_newBlockFilter')
    expect(await call('eth_getFilterChanges', filter.toUpperCase().replace('0X', '0x'))).toEqual([])
    expect(await failure(call('eth_getFilterChanges', '0x'))).toMatchObject({ code: -32602 })
    expect(await failure(call('eth_uninstallFilter', 12))).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^invalid argument 0 \(filterId\)/),
    })
    expect(await failure(call('eth_getFilterChanges', '0xdeadbeef'))).toEqual({ code: -32000, message: 'filter not found' })
  })
})
