/**
 * A page's subscriptions across leader changes: made again on each new leader, delivered under
 * the ids the page was given.
 */
import { expect, test } from 'vitest'
import type { Outcome } from '../../src/bridge/protocol.ts'
import { PageSubscriptions, type Upstream } from '../../src/worker/pageSubscriptions.ts'

/** A stand-in leader: numbered subscription ids, and a log of what it was asked. */
function leader(prefix: string) {
  const asked: [string, unknown][] = []
  let next = 0
  const call: Upstream = async (method, params): Promise<Outcome> => {
    asked.push([method, params])
    if (method === 'eth_subscribe') return { ok: true, result: `0x${prefix}${next++}` }
    return { ok: true, result: true }
  }
  return { call, asked }
}

function page() {
  const seen: [string, unknown][] = []
  return { subscriptions: new PageSubscriptions((id, result) => seen.push([id, result])), seen }
}

test('after a leader change every subscription is made again and delivered under its first id', async () => {
  const { subscriptions, seen } = page()
  const first = leader('a')
  const heads = await subscriptions.subscribe(['newHeads'], first.call)
  const logs = await subscriptions.subscribe(['logs', { address: '0x01' }], first.call)
  expect([heads, logs]).toEqual([
    { ok: true, result: '0xa0' },
    { ok: true, result: '0xa1' },
  ])

  const second = leader('b')
  await subscriptions.renew(second.call)
  expect(second.asked).toEqual([
    ['eth_subscribe', ['newHeads']],
    ['eth_subscribe', ['logs', { address: '0x01' }]],
  ])
  subscriptions.deliver('0xa0', 'stale') // the old leader's id means nothing any more
  subscriptions.deliver('0xb0', 'head')
  subscriptions.deliver('0xb1', 'log')
  expect(seen).toEqual([
    ['0xa0', 'head'],
    ['0xa1', 'log'],
  ])

  expect(await subscriptions.unsubscribe(['0xA0'], second.call)).toEqual({ ok: true, result: true })
  expect(second.asked.at(-1)).toEqual(['eth_unsubscribe', ['0xb0']])
  subscriptions.deliver('0xb0', 'after unsubscribe')
  expect(seen).toHaveLength(2)
})

test('an id the page never had is the node’s to answer', async () => {
  const { subscriptions } = page()
  const node = leader('a')
  await subscriptions.unsubscribe(['0x99'], node.call)
  expect(node.asked).toEqual([['eth_unsubscribe', ['0x99']]])
})

test('unsubscribing while a renewal is under way leaves nothing behind on the new leader', async () => {
  const { subscriptions, seen } = page()
  await subscriptions.subscribe(['newHeads'], leader('a').call)
  const second = leader('b')
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const slow: Upstream = async (method, params) => {
    if (method === 'eth_subscribe') await gate
    return second.call(method, params)
  }
  const renewal = subscriptions.renew(slow)
  await subscriptions.unsubscribe(['0xa0'], slow)
  release()
  await renewal
  expect(second.asked).toEqual([
    ['eth_subscribe', ['newHeads']],
    ['eth_unsubscribe', ['0xb0']],
  ])
  subscriptions.deliver('0xb0', 'head')
  expect(seen).toEqual([])
})

test('a subscription made while the leader changed is made again on the new one', async () => {
  const { subscriptions, seen } = page()
  const old = leader('a')
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  // As in the worker: one upstream that routes to whichever leader is current.
  let current: Upstream = async (method, params) => {
    await gate
    return old.call(method, params)
  }
  const upstream: Upstream = (method, params) => current(method, params)
  const made = subscriptions.subscribe(['newHeads'], upstream)
  const fresh = leader('b')
  current = fresh.call
  await subscriptions.renew(upstream)
  release()
  // Answered by the old leader, under its id, which the page keeps.
  expect(await made).toEqual({ ok: true, result: '0xa0' })
  expect(fresh.asked).toEqual([['eth_subscribe', ['newHeads']]])
  subscriptions.deliver('0xb0', 'head')
  expect(seen).toEqual([['0xa0', 'head']])
})
