/**
 * The leader's side of a leader change, without workers: a call re-sent to a new leader after
 * the old one may have run it.
 */
import { deleteDB, openDB } from 'idb'
import { afterEach, expect, test } from 'vitest'
import { Leader } from '../../src/worker/leader.ts'
import { signTransfer, uniqueName } from '../support/browser/nodes.ts'

const leaders: Leader[] = []
const memoryLeader = () => {
  const leader = new Leader({ name: uniqueName('leader'), persist: false, durability: 'relaxed' }, 'this-tab', () => {})
  leaders.push(leader)
  return leader
}

afterEach(async () => {
  await Promise.all(leaders.splice(0).map((leader) => leader.close()))
})

test('a retried eth_sendRawTransaction the leader already has counts as sent; a first one is "already known"', async () => {
  const leader = memoryLeader()
  const raw = await signTransfer(0, 0)
  const sent = await leader.call('eth_sendRawTransaction', [raw], 'page')
  expect(sent.ok).toBe(true)
  expect(await leader.call('eth_sendRawTransaction', [raw], 'page', true)).toEqual(sent)
  expect(await leader.call('eth_sendRawTransaction', [raw], 'page')).toEqual({ ok: false, error: { code: -32000, message: 'already known' } })
  // Other failures of a retried call stay failures.
  const stale = await leader.call('eth_sendRawTransaction', [await signTransfer(0, 0, undefined, 2n)], 'page', true)
  expect(stale).toMatchObject({ ok: false, error: { code: -32000, message: expect.stringContaining('nonce too low') } })
})

test('calls made before the chain is loaded wait for it; a chain that cannot load fails them clearly', async () => {
  const leader = memoryLeader()
  expect(await leader.call('eth_chainId', [], 'page')).toEqual({ ok: true, result: '0x104' })

  const name = uniqueName('leader-newer')
  ;(await openDB(name, 99)).close()
  try {
    const broken = new Leader({ name, persist: true, durability: 'relaxed' }, 'this-tab', () => {})
    leaders.push(broken)
    const outcome = await broken.call('eth_chainId', [], 'page')
    expect(outcome).toMatchObject({ ok: false, error: { message: expect.stringContaining('written by a newer pagenode') } })
    await expect(broken.ready).rejects.toThrow('written by a newer pagenode')
  } finally {
    await deleteDB(name)
  }
})
