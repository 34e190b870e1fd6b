/**
 * A follower tab's forwarding, against a stand-in leader on the same BroadcastChannel: re-sends,
 * what happens to calls in flight when the leader changes, and noticing a leader that is silent.
 */
import { afterEach, expect, test, vi } from 'vitest'
import type { ChannelMessage, Outcome } from '../../src/bridge/protocol.ts'
import { Follower } from '../../src/worker/follower.ts'
import { isRetrySafe } from '../../src/worker/methodKinds.ts'

const opened: { close(): void }[] = []

afterEach(() => {
  vi.useRealTimers()
  for (const thing of opened.splice(0)) thing.close()
})

function setUp(hooks: { onLeaderChanged?: () => void; onStalled?: () => void } = {}) {
  const name = `follower-${crypto.randomUUID()}`
  const follower = new Follower(name, 'tab-1', () => {}, hooks.onLeaderChanged ?? (() => {}), hooks.onStalled ?? (() => {}))
  const leader = new BroadcastChannel(`pagenode:${name}:rpc`)
  const calls: Extract<ChannelMessage, { type: 'call' }>[] = []
  leader.onmessage = ({ data }: MessageEvent<ChannelMessage>) => void (data.type === 'call' && calls.push(data))
  const post = (message: ChannelMessage) => leader.postMessage(message)
  opened.push(follower, leader)
  return { follower, calls, post }
}

const ok = (result: unknown): Outcome => ({ ok: true, result })

test('a call is sent again until a leader takes it, and settles with the outcome it sends', async () => {
  const { follower, calls, post } = setUp()
  const outcome = follower.call('eth_blockNumber', [])
  await vi.waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(3))
  const { id } = calls[0]
  expect(calls.every((call) => call.id === id && call.method === 'eth_blockNumber' && !call.retried)).toBe(true)
  post({ type: 'ack', id })
  const seen = calls.length
  await new Promise((resolve) => setTimeout(resolve, 250))
  expect(calls.length).toBe(seen)
  post({ type: 'outcome', id, outcome: ok('0x7') })
  expect(await outcome).toEqual(ok('0x7'))
})

test('when another tab becomes leader, a taken read is sent again as retried and a taken write fails', async () => {
  const onLeaderChanged = vi.fn()
  const { follower, calls, post } = setUp({ onLeaderChanged })
  const read = follower.call('eth_getBalance', ['0x0000000000000000000000000000000000000001', 'latest'])
  const write = follower.call('evm_increaseTime', [10])
  const raw = follower.call('eth_sendRawTransaction', ['0x02'])
  await vi.waitFor(() => expect(new Set(calls.map((call) => call.id)).size).toBe(3))
  for (const id of new Set(calls.map((call) => call.id))) post({ type: 'ack', id })
  await new Promise((resolve) => setTimeout(resolve, 50))
  calls.length = 0

  post({ type: 'leader', epoch: 'new' })
  expect(await write).toMatchObject({ ok: false, error: { message: expect.stringMatching(/leader changed while evm_increaseTime was running; its outcome is unknown/) } })
  await vi.waitFor(() => expect(new Set(calls.map((call) => call.method))).toEqual(new Set(['eth_getBalance', 'eth_sendRawTransaction'])))
  expect(calls.every((call) => call.retried)).toBe(true)
  expect(onLeaderChanged).toHaveBeenCalledOnce()
  for (const call of calls) post({ type: 'outcome', id: call.id, outcome: ok(call.method) })
  expect(await read).toEqual(ok('eth_getBalance'))
  expect(await raw).toEqual(ok('eth_sendRawTransaction'))
})

test('taking over hands every call to this tab’s leader, except a taken write whose fate is unknown', async () => {
  const { follower, calls, post } = setUp()
  const notTaken = follower.call('evm_mine', [])
  const takenRead = follower.call('eth_chainId', [])
  const takenWrite = follower.call('evm_snapshot', [])
  await vi.waitFor(() => expect(new Set(calls.map((call) => call.id)).size).toBe(3))
  for (const call of calls.filter((call) => call.method !== 'evm_mine')) post({ type: 'ack', id: call.id })
  await new Promise((resolve) => setTimeout(resolve, 50))

  const ran: [string, boolean][] = []
  follower.handOver(async (method, _params, retried) => {
    ran.push([method, retried])
    return ok(`${method} here`)
  })
  expect(await notTaken).toEqual(ok('evm_mine here'))
  expect(await takenRead).toEqual(ok('eth_chainId here'))
  expect(await takenWrite).toMatchObject({ ok: false, error: { message: expect.stringContaining('outcome is unknown') } })
  expect(ran).toEqual([
    ['evm_mine', false],
    ['eth_chainId', true],
  ])
})

test('a follower that handed over answers a later call with a clear error instead of throwing on its closed channel', async () => {
  const { follower, calls } = setUp()
  follower.handOver(async () => ok('unused'))
  expect(await follower.call('eth_accounts', [])).toMatchObject({ ok: false, error: { code: 4900, message: expect.stringContaining('no longer follows') } })
  expect(calls).toEqual([])
})

test('a leader that takes no call for 5 s is reported as stalled; after 20 s the call fails clearly', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
  const onStalled = vi.fn()
  const { follower } = setUp({ onStalled })
  const outcome = follower.call('eth_blockNumber', [])
  vi.advanceTimersByTime(4_900)
  expect(onStalled).not.toHaveBeenCalled()
  vi.advanceTimersByTime(300)
  expect(onStalled).toHaveBeenCalled()
  vi.advanceTimersByTime(15_000)
  expect(await outcome).toMatchObject({ ok: false, error: { message: 'no pagenode leader answered for this chain within 20 s' } })
})

test('only reads and eth_sendRawTransaction are safe to run twice', () => {
  for (const method of ['eth_call', 'eth_getLogs', 'eth_chainId', 'zks_getBlockDetails', 'eth_sendRawTransaction']) expect(isRetrySafe(method), method).toBe(true)
  for (const method of ['eth_sendTransaction', 'evm_mine', 'anvil_setBalance', 'eth_newFilter', 'eth_getFilterChanges', 'eth_subscribe', 'zks_sendRawTransactionWithDetailedOutput']) {
    expect(isRetrySafe(method), method).toBe(false)
  }
})
