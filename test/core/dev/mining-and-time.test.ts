import { afterEach, expect, test, vi } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { DEV, rpc, startNode } from '../../support/chain.ts'

let node: Node | undefined
afterEach(() => {
  vi.useRealTimers()
})
async function fresh(config: Parameters<typeof startNode>[0] = {}) {
  node = await startNode(config)
  return rpc(node)
}
const send = (call: ReturnType<typeof rpc>, nonce: number) =>
  call<string>('eth_sendTransaction', { from: DEV[0].address, to: DEV[1].address, value: '0x1', nonce: `0x${nonce.toString(16)}` })

test('the mining mode switches at run time: auto → manual → interval → manual → auto', async () => {
  const call = await fresh()
  expect([await call('anvil_getAutomine'), await call('eth_mining')]).toEqual([true, true])
  await send(call, 0)
  expect(await call('eth_blockNumber')).toBe('0x1')

  expect(await call('evm_setAutomine', false)).toBeNull()
  expect([await call('hardhat_getAutomine'), await call('eth_mining')]).toEqual([false, false])
  await send(call, 1)
  expect(await call('eth_blockNumber')).toBe('0x1')

  // An interval replaces manual mining: the pooled transaction goes into the next tick's block.
  await call('evm_setIntervalMining', 1)
  expect([await call('anvil_getAutomine'), await call('eth_mining')]).toEqual([false, true])
  await vi.waitFor(async () => expect(await call('eth_blockNumber')).toBe('0x2'), { timeout: 3000, interval: 50 })
  // setAutomine(false) leaves interval mining alone; interval 0 stops it.
  await call('evm_setAutomine', false)
  expect(node!.mining.current).toEqual({ mode: 'interval', intervalMs: 1000 })
  await call('evm_setIntervalMining', '0x0')
  expect(node!.mining.current).toEqual({ mode: 'manual' })
  const blocks = await call('eth_blockNumber')
  await new Promise((resolve) => setTimeout(resolve, 1200))
  expect(await call('eth_blockNumber')).toBe(blocks)

  await call('evm_setAutomine', true)
  await send(call, 2)
  expect(await call('eth_blockNumber')).toBe(`0x${(Number(blocks) + 1).toString(16)}`)
})

test('evm_mine mines in any mode, with the pool; {blocks, timestamp} as anvil takes it', async () => {
  const call = await fresh({ mining: { mode: 'manual' } })
  const hash = await send(call, 0)
  expect(await call('evm_mine')).toBe('0x0')
  expect((await call<{ transactions: string[] }>('eth_getBlockByNumber', '0x1', false)).transactions).toEqual([hash])
  const head = Number((await call<{ timestamp: string }>('eth_getBlockByNumber', 'latest', false)).timestamp)
  await call('evm_mine', { blocks: 3, timestamp: head + 100 })
  const stamps = await Promise.all([2, 3, 4].map(async (n) => Number((await call<{ timestamp: string }>('eth_getBlockByNumber', `0x${n}`, false)).timestamp)))
  expect(stamps[0]).toBe(head + 100)
  // Later blocks carry on from the timestamp given, not from the wall clock.
  expect(stamps[2]).toBeGreaterThanOrEqual(head + 100)
  await call('evm_mine', head + 500)
  expect(Number((await call<{ timestamp: string }>('eth_getBlockByNumber', 'latest', false)).timestamp)).toBe(head + 500)
})

test('evm_increaseTime answers the total offset; evm_setTime how far the clock moved', async () => {
  const call = await fresh()
  expect(await call('evm_increaseTime', 100)).toBe(100)
  expect(await call('evm_increaseTime', '0x64')).toBe(200)
  const now = Math.floor(Date.now() / 1000)
  const moved = await call<number>('evm_setTime', now + 1000)
  expect(moved).toBeGreaterThanOrEqual(798)
  expect(moved).toBeLessThanOrEqual(801)
  await call('evm_mine')
  expect(Number((await call<{ timestamp: string }>('eth_getBlockByNumber', 'latest', false)).timestamp)).toBeGreaterThanOrEqual(now + 1000)
})

test("time refusals: a next timestamp not after the head's (anvil's code and wording)", async () => {
  const call = await fresh()
  const head = Number((await call<{ timestamp: string }>('eth_getBlockByNumber', 'latest', false)).timestamp)
  await expectRpcError(call('evm_setNextBlockTimestamp', head - 1), -32602, `Timestamp error: ${head - 1} is lower than or equal to previous block's timestamp ${head}`)
  await expectRpcError(call('evm_setNextBlockTimestamp', head), -32602, `Timestamp error: ${head} is lower than or equal to previous block's timestamp ${head}`)
  await expectRpcError(call('evm_mine', head), -32602, /is lower than or equal to previous block's timestamp/)
  await expectRpcError(call('hardhat_setBlockTimestampInterval', 1500), -32602, 'invalid argument 0 (interval): 1500 ms is not a whole number of seconds (block timestamps are in seconds)')
})

test('anvil_mine is bounded by limits.maxMineBlocks', async () => {
  const call = await fresh({ limits: { maxMineBlocks: 5 } })
  await expectRpcError(call('anvil_mine', '0x6'), -32005, 'cannot mine 6 blocks in one call: the limit is 5 (limits.maxMineBlocks)')
  expect(await call('hardhat_mine', '0x5')).toBe(true)
  expect(await call('eth_blockNumber')).toBe('0x5')
})

test('anvil_nodeInfo describes the head and the next block', async () => {
  const call = await fresh()
  await call('anvil_setNextBlockBaseFeePerGas', '0x10')
  const head = await call<{ hash: string; timestamp: string }>('eth_getBlockByNumber', 'latest', false)
  expect(await call('anvil_nodeInfo')).toEqual({
    currentBlockNumber: 0,
    currentBlockTimestamp: Number(head.timestamp),
    currentBlockHash: head.hash,
    hardFork: 'prague',
    transactionOrder: 'fifo',
    environment: { baseFee: 16, chainId: 260, gasLimit: 2 ** 50, gasPrice: 16 },
    forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
  })
})

test('block timestamps strictly increase in every mining path, however many blocks one second holds', async () => {
  const NOW_MS = 1_750_000_000_000
  const call = await fresh({ now: () => NOW_MS }) // the wall clock stands still
  await send(call, 0) // automine
  await send(call, 1)
  await call('evm_mine')
  await call('evm_mine', { blocks: 2 })
  await call('anvil_mine', '0x2')
  await call('hardhat_mine', '0x3', '0x5') // the first block as any other, each later one 5 s after
  await call('evm_setAutomine', false)
  await send(call, 2)
  await call('evm_mine') // manual mining: the pooled transaction
  const count = Number(await call('eth_blockNumber')) + 1
  const times: number[] = []
  for (let n = 0; n < count; n++) times.push(Number((await call<{ timestamp: string }>('eth_getBlockByNumber', `0x${n.toString(16)}`, false)).timestamp))
  expect(count).toBe(12)
  for (let n = 1; n < count; n++) expect(times[n], `block ${n}`).toBeGreaterThan(times[n - 1])
  // hardhat_mine's interval holds between its own blocks (blocks 8 → 9 → 10).
  expect([times[9] - times[8], times[10] - times[9]]).toEqual([5, 5])
})

test("hardhat_setPrevRandao sets the next block's PREVRANDAO; the blocks after derive theirs from it", async () => {
  const call = await fresh()
  const randao = `0x${'12'.repeat(32)}`
  // Initcode that returns PREVRANDAO (PREVRANDAO PUSH0 MSTORE PUSH1 32 PUSH0 RETURN), run by eth_call.
  const readRandao = (block: string) => call('eth_call', { data: '0x445f5260205ff3' }, block)
  expect(await call('hardhat_setPrevRandao', randao)).toBe(true)
  expect(await readRandao('pending')).toBe(randao)
  const id = await call<string>('evm_snapshot')
  await call('evm_mine')
  const mined = await call<{ mixHash: string; number: string }>('eth_getBlockByNumber', 'latest', false)
  expect(mined.mixHash).toBe(randao)
  expect(await readRandao(mined.number)).toBe(randao)
  await call('evm_mine')
  const next = await call<{ mixHash: string }>('eth_getBlockByNumber', 'latest', false)
  // keccak256 of the set value, as Hardhat derives it.
  expect(next.mixHash).toBe('0x1ade9f553ac636b4081983b175c3bbe991dd726b1cdbdb2588588cf5442bf50b')
  // A snapshot taken before the block keeps the setting for the next block again.
  await call('evm_revert', id)
  await call('evm_mine')
  expect(await call<{ mixHash: string }>('eth_getBlockByNumber', 'latest', false)).toMatchObject({ mixHash: randao })
  await expectRpcError(
    call('hardhat_setPrevRandao', '0x1234'),
    -32602,
    'invalid argument 0 (prevRandao): expected a 32-byte hash (0x-prefixed, 64 hex digits), got "0x1234"',
  )
})
