import { ContractFactory, getAddress, id, Interface, toBeHex, zeroPadValue, type Contract } from 'ethers'
import { describe, expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { artifacts, deploy, DEV, devWallet, rpc, startNode } from '../../support/chain.ts'
import { failure } from '../../support/failure.ts'

const probeAbi = new Interface(artifacts.Probe.abi)
const PING = id('Ping(uint256)')
const VALUE_SET = id('ValueSet(address,uint256,string)')
const word = (value: bigint | number) => zeroPadValue(toBeHex(value), 32)
const topicOf = (address: string) => zeroPadValue(address, 32).toLowerCase()

interface Log {
  address: string
  topics: string[]
  data: string
  blockHash: string
  blockNumber: string
  transactionHash: string
  transactionIndex: string
  logIndex: string
  transactionLogIndex: string
  removed: boolean
}

let node: Node | undefined

/**
 * Two probes and their events, one transaction per block (automine):
 * 1 deploy A · 2 deploy B · 3 A.set(1) by dev 0 · 4 A.ping(3) · 5 B.set(2) by dev 1 · 6 B.ping(2).
 */
async function eventChain() {
  node = await startNode()
  const a = (await deploy(devWallet(node, 0), 'Probe')) as Contract
  const b = (await deploy(devWallet(node, 0), 'Probe')) as Contract
  await (await a.set(1)).wait()
  await (await a.ping(3)).wait()
  await (await (b.connect(devWallet(node, 1)) as Contract).set(2)).wait()
  await (await b.ping(2)).wait()
  const A = (await a.getAddress()).toLowerCase()
  const B = (await b.getAddress()).toLowerCase()
  const call = rpc(node)
  const logs = (filter: unknown) => call<Log[]>('eth_getLogs', filter)
  return { node, call, logs, A, B }
}

/** A compact view of logs: [block, address, first topics]. */
const summary = (logs: Log[], names: Record<string, string>) =>
  logs.map((log) => [Number(log.blockNumber), names[log.address], log.topics[0] === PING ? `Ping(${Number(log.topics[1])})` : `ValueSet(${Number(log.topics[2])})`])

describe('eth_getLogs', () => {
  test('all logs of a range, in chain order, as the receipts report them', async () => {
    const { call, logs, A, B } = await eventChain()
    const all = await logs({ fromBlock: 'earliest', toBlock: 'latest' })
    expect(summary(all, { [A]: 'A', [B]: 'B' })).toEqual([
      [3, 'A', 'ValueSet(1)'],
      [4, 'A', 'Ping(0)'],
      [4, 'A', 'Ping(1)'],
      [4, 'A', 'Ping(2)'],
      [5, 'B', 'ValueSet(2)'],
      [6, 'B', 'Ping(0)'],
      [6, 'B', 'Ping(1)'],
    ])
    const receiptLogs: unknown[] = []
    for (const hash of new Set(all.map((log) => log.transactionHash))) {
      receiptLogs.push(...(await call<{ logs: unknown[] }>('eth_getTransactionReceipt', hash)).logs)
    }
    expect(all).toEqual(receiptLogs)
  })

  test('the shape of a log', async () => {
    const { logs, call, A } = await eventChain()
    const [log] = await logs({ fromBlock: '0x3', toBlock: '0x3' })
    const block = await call<{ hash: string; transactions: string[]; timestamp: string }>('eth_getBlockByNumber', '0x3', false)
    expect(log).toEqual({
      address: A,
      topics: [VALUE_SET, topicOf(DEV[0].address), word(1)],
      data: probeAbi.getAbiCoder().encode(['string'], ['set']),
      blockHash: block.hash,
      blockNumber: '0x3',
      l1BatchNumber: '0x3',
      transactionHash: block.transactions[0],
      transactionIndex: '0x0',
      logIndex: '0x0',
      transactionLogIndex: '0x0',
      logType: null,
      removed: false,
      blockTimestamp: block.timestamp,
    })
  })

  test('several transactions in one block: logIndex runs through the block, transactionLogIndex through the transaction', async () => {
    node = await startNode({ mining: { mode: 'manual' } })
    const factory = new ContractFactory(artifacts.Probe.abi, artifacts.Probe.bytecode, devWallet(node))
    const a = (await factory.deploy()) as Contract
    const b = (await factory.deploy()) as Contract
    await node.miner.mine()
    const sent = [await a.ping(2), await b.set(7), await a.ping(1)]
    await node.miner.mine()

    const found = await rpc(node)<Log[]>('eth_getLogs', { fromBlock: '0x2', toBlock: '0x2' })
    const A = (await a.getAddress()).toLowerCase()
    const B = (await b.getAddress()).toLowerCase()
    expect(found.map((log) => [log.address, log.transactionHash, log.transactionIndex, log.logIndex, log.transactionLogIndex])).toEqual([
      [A, sent[0].hash, '0x0', '0x0', '0x0'],
      [A, sent[0].hash, '0x0', '0x1', '0x1'],
      [B, sent[1].hash, '0x1', '0x2', '0x0'],
      [A, sent[2].hash, '0x2', '0x3', '0x0'],
    ])
    expect(found[2].topics).toEqual([VALUE_SET, topicOf(DEV[0].address), word(7)])
  })

  describe('block range', () => {
    test('fromBlock/toBlock as hex numbers and tags', async () => {
      const { logs } = await eventChain()
      const blocks = async (filter: unknown) => (await logs(filter)).map((log) => Number(log.blockNumber))
      expect(await blocks({ fromBlock: '0x4', toBlock: '0x5' })).toEqual([4, 4, 4, 5])
      expect(await blocks({ fromBlock: '0x5' })).toEqual([5, 6, 6])
      expect(await blocks({})).toEqual([6, 6]) // both default to latest
      expect(await blocks({ fromBlock: 'earliest', toBlock: '0x3' })).toEqual([3])
      for (const tag of ['latest', 'pending', 'safe', 'finalized', 'committed']) {
        expect(await blocks({ fromBlock: tag, toBlock: tag })).toEqual([6, 6])
      }
      expect(await blocks({ fromBlock: { blockNumber: '0x4' }, toBlock: '0x4' })).toEqual([4, 4, 4])
    })

    test('a range beyond the head is clamped to it', async () => {
      const { logs } = await eventChain()
      expect((await logs({ fromBlock: '0x5', toBlock: '0x3e8' })).map((log) => Number(log.blockNumber))).toEqual([5, 6, 6])
      expect(await logs({ fromBlock: '0x64', toBlock: '0x3e8' })).toEqual([])
    })

    test('fromBlock after toBlock is -32602', async () => {
      const { logs } = await eventChain()
      expect(await failure(logs({ fromBlock: '0x5', toBlock: '0x4' }))).toEqual({
        code: -32602,
        message: 'invalid block range params: fromBlock 5 is after toBlock 4',
      })
      expect(await failure(logs({ fromBlock: 'latest', toBlock: '0x2' }))).toMatchObject({ code: -32602 })
      // Explicit numbers that run backwards are refused even beyond the head.
      expect(await failure(logs({ fromBlock: '0x64', toBlock: '0x5' }))).toEqual({
        code: -32602,
        message: 'invalid block range params: fromBlock 100 is after toBlock 5',
      })
    })

    test('blockHash selects one block; an unknown hash is an error; with a range it is -32602', async () => {
      const { logs, call } = await eventChain()
      const block4 = await call<{ hash: string }>('eth_getBlockByNumber', '0x4', false)
      const found = await logs({ blockHash: block4.hash })
      expect(found.map((log) => [log.blockNumber, log.logIndex])).toEqual([
        ['0x4', '0x0'],
        ['0x4', '0x1'],
        ['0x4', '0x2'],
      ])
      expect(await logs({ blockHash: block4.hash.toUpperCase().replace('0X', '0x') })).toEqual(found)

      const unknown = `0x${'12'.repeat(32)}`
      expect(await failure(logs({ blockHash: unknown }))).toEqual({ code: -32000, message: `unknown block ${unknown}` })
      expect(await failure(logs({ blockHash: block4.hash, fromBlock: '0x1' }))).toEqual({
        code: -32602,
        message: 'invalid argument 0 (filter): cannot specify both blockHash and fromBlock/toBlock, choose one or the other',
      })
    })
  })

  describe('address and topics', () => {
    test('one address, several addresses, any case', async () => {
      const { logs, A, B } = await eventChain()
      const range = { fromBlock: 'earliest', toBlock: 'latest' }
      const addresses = async (address: unknown) => (await logs({ ...range, address })).map((log) => log.address)
      expect(await addresses(A)).toEqual([A, A, A, A])
      expect(await addresses(getAddress(B))).toEqual([B, B, B])
      expect(await addresses([A, B])).toHaveLength(7)
      expect(await addresses([B, DEV[0].address])).toEqual([B, B, B])
      expect(await addresses([])).toHaveLength(7)
      expect(await addresses(DEV[0].address)).toEqual([])
    })

    test('topics: positions, null wildcards, OR-arrays', async () => {
      const { logs, A, B } = await eventChain()
      const names = { [A]: 'A', [B]: 'B' }
      const matching = async (topics: unknown) => summary(await logs({ fromBlock: 'earliest', toBlock: 'latest', topics }), names)

      expect(await matching([VALUE_SET])).toEqual([
        [3, 'A', 'ValueSet(1)'],
        [5, 'B', 'ValueSet(2)'],
      ])
      expect(await matching([null, word(1)])).toEqual([
        [4, 'A', 'Ping(1)'],
        [6, 'B', 'Ping(1)'],
      ])
      expect(await matching([[PING, VALUE_SET], [word(0), topicOf(DEV[1].address)]])).toEqual([
        [4, 'A', 'Ping(0)'],
        [5, 'B', 'ValueSet(2)'],
        [6, 'B', 'Ping(0)'],
      ])
      expect(await matching([null, null, word(2)])).toEqual([[5, 'B', 'ValueSet(2)']])
      expect(await matching([[], [], [word(1), word(2)]])).toEqual([
        [3, 'A', 'ValueSet(1)'],
        [5, 'B', 'ValueSet(2)'],
      ])
      expect(await matching([PING, word(2)])).toEqual([[4, 'A', 'Ping(2)']])
      expect(await matching([null, null, null, word(0)])).toEqual([]) // no log has a fourth topic
      expect(await matching([id('Other()')])).toEqual([])
      expect(await matching([])).toHaveLength(7)
    })

    test('more than 4 topic positions is -32602', async () => {
      const { logs } = await eventChain()
      expect(await failure(logs({ topics: [null, null, null, null, null] }))).toEqual({
        code: -32602,
        message: 'invalid argument 0 (filter): topics: exceed max topics: at most 4 positions',
      })
    })

    test('malformed addresses and topics are -32602 naming the field', async () => {
      const { logs } = await eventChain()
      expect(await failure(logs({ address: '0x1234' }))).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^invalid argument 0 \(filter\): address: expected a 20-byte address/),
      })
      expect(await failure(logs({ topics: ['0x12'] }))).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^invalid argument 0 \(filter\): topics: expected a 32-byte hash/),
      })
      expect(await failure(logs({ fromBlock: 'yesterday' }))).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^invalid argument 0 \(filter\): fromBlock: expected a block number/),
      })
      expect(await failure(logs('latest'))).toMatchObject({ code: -32602 })
    })
  })
})
