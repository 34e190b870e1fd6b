/**
 * Several tabs on one chain, as two nodes with the same name in one page (each has its own
 * worker, exactly as two tabs would): one leader, one follower forwarding to it, and a
 * follower that takes over from the stored chain when the leader goes.
 */
import { expect, test } from 'vitest'
import type { PageNode } from '../../src/client/index.ts'
import { DEV, notifications, rejection, resultsOf, signTransfer, start, transfer, uniqueName } from '../support/browser/nodes.ts'

const head = (node: PageNode) => node.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] }) as Promise<{ number: string; hash: string }>

async function twoTabs(label: string): Promise<[PageNode, PageNode, string]> {
  const name = uniqueName(label)
  const leader = await start({ name })
  const follower = await start({ name })
  return [leader, follower, name]
}

test('one leader, one follower; both serve the same chain, whichever tab writes', async () => {
  const [leader, follower] = await twoTabs('tabs-same-chain')
  expect([leader.role, follower.role]).toEqual(['leader', 'follower'])
  const connected: unknown[] = []
  follower.provider.on('connect', (info: unknown) => connected.push(info))
  await expect.poll(() => connected).toEqual([{ chainId: '0x104' }])

  const viaFollower = await transfer(follower, 0)
  const viaLeader = await transfer(leader, 1)
  expect(await head(follower)).toEqual(await head(leader))
  expect((await head(leader)).number).toBe('0x2')
  for (const hash of [viaFollower, viaLeader]) {
    expect(await follower.provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })).toEqual(
      await leader.provider.request({ method: 'eth_getTransactionReceipt', params: [hash] }),
    )
  }
})

test('accountsChanged reaches every tab, whichever tab changed the accounts', async () => {
  const [leader, follower] = await twoTabs('tabs-accounts')
  const heardByLeader: string[][] = []
  const heardByFollower: string[][] = []
  leader.provider.on('accountsChanged', (accounts: string[]) => heardByLeader.push(accounts))
  follower.provider.on('accountsChanged', (accounts: string[]) => heardByFollower.push(accounts))
  const whale = '0x00000000000000000000000000000000000000bb'
  await follower.provider.request({ method: 'anvil_impersonateAccount', params: [whale] })
  const accounts = await leader.provider.request({ method: 'eth_accounts' })
  expect(accounts).toContain(whale)
  await expect.poll(() => heardByLeader).toEqual([accounts])
  await expect.poll(() => heardByFollower).toEqual([accounts])
})

test('two tabs starting at the same moment agree on one leader and one chain', async () => {
  const name = uniqueName('tabs-together')
  const nodes = await Promise.all([start({ name }), start({ name }), start({ name })])
  expect(nodes.map((node) => node.role).sort()).toEqual(['follower', 'follower', 'leader'])
  await Promise.all(nodes.map((node, i) => transfer(node, i)))
  const heads = await Promise.all(nodes.map(head))
  expect(heads[0].number).toBe('0x3')
  expect(heads[1]).toEqual(heads[0])
  expect(heads[2]).toEqual(heads[0])
})

test('a follower gets errors with code and data from the leader', async () => {
  const [, follower] = await twoTabs('tabs-errors')
  expect((await rejection(follower.provider.request({ method: 'eth_nope' }))).code).toBe(-32601)
  const target = '0x00000000000000000000000000000000000000aa'
  const reverting = '0x63deadbeef60e01b60005260046000fd'
  const reverted = await rejection(
    follower.provider.request({ method: 'eth_call', params: [{ to: target }, 'latest', { [target]: { code: reverting } }] }),
  )
  expect(reverted).toMatchObject({ code: 3, data: '0xdeadbeef' })
  const stale = await signTransfer(0, 0)
  await follower.provider.request({ method: 'eth_sendRawTransaction', params: [stale] })
  expect((await rejection(follower.provider.request({ method: 'eth_sendRawTransaction', params: [stale] }))).code).toBe(-32000)
})

test('a follower’s subscriptions are served by the leader and reach only that follower’s page', async () => {
  const [leader, follower] = await twoTabs('tabs-subscriptions')
  const [leaderSeen, followerSeen] = [notifications(leader), notifications(follower)]
  const heads = (await follower.provider.request({ method: 'eth_subscribe', params: ['newHeads'] })) as string
  const logs = (await follower.provider.request({ method: 'eth_subscribe', params: ['logs', { address: DEV[3].address }] })) as string
  const pending = (await follower.provider.request({ method: 'eth_subscribe', params: ['newPendingTransactions'] })) as string
  const sent = await transfer(leader)
  await expect.poll(() => resultsOf(followerSeen, heads).map((h) => h.number)).toEqual(['0x1'])
  await expect.poll(() => resultsOf(followerSeen, pending)).toEqual([sent])
  expect(resultsOf(followerSeen, logs)).toEqual([])
  expect(leaderSeen).toEqual([])
  expect(await follower.provider.request({ method: 'eth_unsubscribe', params: [heads] })).toBe(true)
  await transfer(leader)
  await expect.poll(() => resultsOf(followerSeen, pending)).toHaveLength(2)
  expect(resultsOf(followerSeen, heads)).toHaveLength(1)
})

test('the leader drops the subscriptions of a tab that went away without unsubscribing', async () => {
  const [leader, follower, name] = await twoTabs('tabs-gone')
  const pushed: unknown[] = []
  const channel = new BroadcastChannel(`pagenode:${name}:rpc`)
  channel.onmessage = ({ data }: MessageEvent<{ type: string }>) => void (data.type === 'subscription' && pushed.push(data))
  try {
    await follower.provider.request({ method: 'eth_subscribe', params: ['newHeads'] })
    await transfer(leader)
    await expect.poll(() => pushed.length).toBe(1)
    follower.terminate()
    await new Promise((resolve) => setTimeout(resolve, 100))
    await transfer(leader)
    await transfer(leader)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(pushed).toHaveLength(1)
  } finally {
    channel.close()
  }
})

for (const how of ['stop', 'terminate'] as const) {
  test(`when the leader ${how === 'stop' ? 'stops' : 'is killed'}, the follower takes over from the same head, losing nothing acknowledged`, async () => {
    const [leader, follower] = await twoTabs(`tabs-takeover-${how}`)
    const hashes = [await transfer(leader, 0), await transfer(follower, 1), await transfer(leader, 2)]
    const before = await head(follower)
    const roles: string[] = []
    if (how === 'stop') await leader.stop()
    else leader.terminate()

    // The follower's page keeps working through the change; its node ends up the leader.
    await expect.poll(async () => (await head(follower)).hash, { timeout: 10_000 }).toBe(before.hash)
    await expect.poll(() => follower.role, { timeout: 10_000 }).toBe('leader')
    roles.push(follower.role)
    for (const hash of hashes) expect(await follower.provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })).not.toBeNull()
    await transfer(follower, 0)
    expect((await head(follower)).number).toBe('0x4')
    expect(roles).toEqual(['leader'])
  })
}

test('calls made while the leader goes are answered by the new leader, none lost or hanging', async () => {
  const [leader, follower] = await twoTabs('tabs-in-flight')
  await transfer(follower)
  const nonce = Number(await follower.provider.request({ method: 'eth_getTransactionCount', params: [DEV[1].address, 'latest'] }))
  const raws = await Promise.all([0, 1, 2, 3].map((i) => signTransfer(1, nonce + i)))
  leader.terminate()
  // Sent in the gap: before the follower holds the lock, while it loads the chain, and after.
  const outcomes = await Promise.allSettled([
    ...raws.map((raw) => follower.provider.request({ method: 'eth_sendRawTransaction', params: [raw] })),
    follower.provider.request({ method: 'eth_blockNumber' }),
  ])
  expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok', 'ok'])
  await expect.poll(() => follower.role).toBe('leader')
  expect(await follower.provider.request({ method: 'eth_blockNumber' })).toBe('0x5')
})

test('subscriptions outlive a leader change, under the ids the pages already hold', async () => {
  const [leader, b, name] = await twoTabs('tabs-subscriptions-takeover')
  const c = await start({ name })
  const [bSeen, cSeen] = [notifications(b), notifications(c)]
  const subscribe = (node: PageNode) => node.provider.request({ method: 'eth_subscribe', params: ['newHeads'] }) as Promise<string>
  const [bHeads, cHeads] = [await subscribe(b), await subscribe(c)]
  await transfer(leader)
  await expect.poll(() => [resultsOf(bSeen, bHeads).length, resultsOf(cSeen, cHeads).length]).toEqual([1, 1])

  leader.terminate()
  await expect.poll(() => [b.role, c.role].sort(), { timeout: 10_000 }).toEqual(['follower', 'leader'])
  await transfer(c)
  await transfer(b)
  await expect.poll(() => resultsOf(bSeen, bHeads).map((h) => h.number)).toEqual(['0x1', '0x2', '0x3'])
  await expect.poll(() => resultsOf(cSeen, cHeads).map((h) => h.number)).toEqual(['0x1', '0x2', '0x3'])
  expect(await b.provider.request({ method: 'eth_unsubscribe', params: [bHeads] })).toBe(true)
  expect(await c.provider.request({ method: 'eth_unsubscribe', params: [cHeads] })).toBe(true)
})

test('a third tab joins whoever leads now', async () => {
  const [leader, follower, name] = await twoTabs('tabs-third')
  await transfer(leader)
  leader.terminate()
  await expect.poll(() => follower.role, { timeout: 10_000 }).toBe('leader')
  const third = await start({ name })
  expect(third.role).toBe('follower')
  await transfer(third)
  expect(await head(third)).toEqual(await head(follower))
  expect((await head(follower)).number).toBe('0x2')
})

test('a follower asking for another chain id than the leader’s is refused like a leader would be', async () => {
  const [leader, , name] = await twoTabs('tabs-chain-id')
  expect(leader.role).toBe('leader')
  await expect(start({ name, chainId: 300 })).rejects.toThrow(/chain id 260, not 300/)
})

const TRIALS = 4

test(`the leader tab closed during an out-of-order nonce burst: the new leader holds every acknowledged transaction, mined or pooled (${TRIALS} trials)`, async () => {
  let acknowledgedTotal = 0
  let lost = 0
  for (let trial = 0; trial < TRIALS; trial++) {
    const [leader, follower] = await twoTabs(`tabs-burst-${trial}`)
    // Nonces in reverse, alternately through each tab: all but nonce 0 wait in the pool for it.
    const raws = await Promise.all(Array.from({ length: 16 }, (_, i) => signTransfer(0, 16 - i)))
    const acknowledged: string[] = []
    // The leader goes right after the (trial + 2)-th acknowledgement, the rest of the burst in flight.
    const killAt = trial + 2
    const sends = raws.map((raw, i) =>
      (i % 2 === 0 ? leader : follower).provider
        .request({ method: 'eth_sendRawTransaction', params: [raw] })
        .then((hash) => {
          acknowledged.push(hash as string)
          if (acknowledged.length === killAt) leader.terminate()
        })
        .catch(() => {}),
    )
    await Promise.all(sends)
    await expect.poll(() => follower.role, { timeout: 10_000 }).toBe('leader')
    for (const hash of acknowledged) {
      const tx = await follower.provider.request({ method: 'eth_getTransactionByHash', params: [hash] })
      if (tx === null) lost++
    }
    acknowledgedTotal += acknowledged.length
    await follower.stop()
  }
  console.log(`leader closed during a burst: ${TRIALS} trials, ${acknowledgedTotal} acknowledged, ${lost} lost`)
  expect(lost).toBe(0)
}, 120_000)
