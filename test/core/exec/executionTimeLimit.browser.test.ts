/**
 * The execution time limit in the page: a looping call in the leader's node worker lets the
 * worker go on answering its own page, the followers (whose 5 s steal rule would otherwise take
 * the chain over) and the HTTP relay, and ends with geth's error at the limit.
 */
import { expect, test } from 'vitest'
import { post, startHttpNode } from '../../support/browser/http.ts'
import { start, uniqueName } from '../../support/browser/nodes.ts'

const LOOP = '0x5b600056'

test('a looping call past the 5 s steal rule: no tab takes over, cheap calls answer meanwhile, the loop ends at the limit', async () => {
  const name = uniqueName('time-limit-tabs')
  // Longer than a follower waits for an acknowledgement before it steals the chain (5 s); a gas cap
  // at which the loop would run far longer than that.
  const limits = { evmTimeoutMs: 7000, callGasCap: 1_000_000_000n }
  const leader = await start({ name, limits })
  const follower = await start({ name, limits })
  expect([leader.role, follower.role]).toEqual(['leader', 'follower'])

  const events: string[] = []
  const looping = leader.provider.request({ method: 'eth_call', params: [{ data: LOOP }, 'latest'] }).then(
    () => events.push('loop answered'),
    (error: { code: number; message: string }) => events.push(`loop: ${error.code} ${error.message}`),
  )
  await new Promise((resolve) => setTimeout(resolve, 200))
  // The leader's page, and another tab through the leader, while the loop runs.
  expect(await leader.provider.request({ method: 'eth_blockNumber' })).toBe('0x0')
  events.push('leader page answered')
  expect(await follower.provider.request({ method: 'eth_call', params: [{ data: '0x602a60005260206000f3' }, 'latest'] })).toBe(`0x${'00'.repeat(31)}2a`)
  events.push('follower answered')
  // Past the steal rule's 5 s, a follower's call is still taken by the same leader.
  await new Promise((resolve) => setTimeout(resolve, 5500))
  expect(await follower.provider.request({ method: 'eth_chainId' })).toBe('0x104')
  events.push('follower answered after 5 s')
  await looping
  expect(events).toEqual(['leader page answered', 'follower answered', 'follower answered after 5 s', 'loop: -32000 execution aborted (timeout = 7s)'])
  expect([leader.role, follower.role]).toEqual(['leader', 'follower'])
})

test("the page's HTTP endpoint answers while the node worker runs a looping call", async () => {
  const node = await startHttpNode({ limits: { evmTimeoutMs: 3000, callGasCap: 1_000_000_000n } })
  const events: string[] = []
  const looping = node.provider.request({ method: 'eth_call', params: [{ data: LOOP }, 'latest'] }).catch((error: { message: string }) => {
    events.push(`loop: ${error.message}`)
  })
  await new Promise((resolve) => setTimeout(resolve, 200))
  // Through the service worker and the relay in the busy node worker.
  const answered = await post(`${node.base}/`, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })
  expect(answered.json).toEqual({ jsonrpc: '2.0', id: 1, result: '0x0' })
  events.push('http answered')
  await looping
  expect(events).toEqual(['http answered', 'loop: execution aborted (timeout = 3s)'])
})
