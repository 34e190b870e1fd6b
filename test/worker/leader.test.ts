/**
 * The leader's side of a leader change, in Node.js (a memory chain: no Web Locks, no IndexedDB,
 * no channel): a raw transaction re-sent after an earlier leader may have run it. The browser
 * suite runs the same in Chromium (leader.browser.test.ts) and across tabs (tabs.browser.test.ts).
 */
import { afterEach, expect, test, vi } from 'vitest'
import { Subscriptions } from '../../src/core/rpc/subscriptions.ts'
import { Leader } from '../../src/worker/leader.ts'
import { signTransfer } from '../support/rawTx.ts'

const leaders: Leader[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  await Promise.all(leaders.splice(0).map((leader) => leader.close()))
})

function memoryLeader(): Leader {
  const leader = new Leader({ name: `leader-${crypto.randomUUID()}`, persist: false, durability: 'relaxed' }, 'this-tab', () => {})
  leaders.push(leader)
  return leader
}

test('a retried eth_sendRawTransaction the node already knows counts as sent (its hash); a first one is "already known"', async () => {
  const leader = memoryLeader()
  const raw = await signTransfer(0)
  const sent = await leader.call('eth_sendRawTransaction', [raw], 'page')
  expect(sent).toEqual({ ok: true, result: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
  expect(await leader.call('eth_sendRawTransaction', [raw], 'page', true)).toEqual(sent)
  expect(await leader.call('eth_sendRawTransaction', [raw], 'page')).toEqual({ ok: false, error: { code: -32000, message: 'already known' } })
  // Other failures of a retried call stay failures, and "already known" counts only for a send.
  const stale = await leader.call('eth_sendRawTransaction', [await signTransfer(0, 2n)], 'page', true)
  expect(stale).toMatchObject({ ok: false, error: { code: -32000, message: expect.stringContaining('nonce too low') } })
})

test('subscriptions go through the node too: typed errors as they are, a crash as an internal error, logged in the worker', async () => {
  const leader = memoryLeader()
  expect(await leader.call('eth_subscribe', ['newHeads'], 'page')).toEqual({ ok: true, result: expect.stringMatching(/^0x/) })
  expect(await leader.call('eth_subscribe', ['nope'], 'page')).toMatchObject({ ok: false, error: { code: -32602 } })

  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  const crash = new TypeError('boom')
  vi.spyOn(Subscriptions.prototype, 'subscribe').mockImplementationOnce(() => {
    throw crash
  })
  const message = 'internal error in eth_subscribe (a bug in pagenode: please report it): boom'
  expect(await leader.call('eth_subscribe', ['newHeads'], 'page')).toEqual({ ok: false, error: { code: -32603, message } })
  expect(logged.mock.calls).toEqual([[`pagenode: ${message}`, { method: 'eth_subscribe', params: ['newHeads'], cause: crash }]])
})
