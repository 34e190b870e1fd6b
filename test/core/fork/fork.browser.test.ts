/**
 * A fork in the page: the node worker fetches the upstream (a pagenode CLI on loopback, started by
 * a browser command), keeps what it fetched in IndexedDB, and a new worker on the same name
 * continues the fork with the upstream down.
 */
import { Interface, type InterfaceAbi } from 'ethers'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { commands } from 'vitest/browser'
import artifacts from '../../contracts/artifacts.json' with { type: 'json' }
import { DEV, rejection, start, uniqueName } from '../../support/browser/nodes.ts'

declare module 'vitest/browser' {
  interface BrowserCommands {
    startForkUpstream(): Promise<{ url: string; token: string; seededBlock: string }>
    setForkUpstream(settings: { down?: boolean; cors?: boolean }): Promise<{ requests: number }>
    stopForkUpstream(): Promise<void>
  }
}

const token = new Interface(artifacts.Token.abi as InterfaceAbi)
/** What the upstream's seeding sent dev account 1 (support/forkUpstream.ts, SEED_SENT). */
const SEED_SENT = 1_234n * 10n ** 18n
let upstream: { url: string; token: string; seededBlock: string }

beforeAll(async () => {
  upstream = await commands.startForkUpstream()
}, 60_000)
afterAll(() => commands.stopForkUpstream())
afterEach(async () => {
  await commands.setForkUpstream({ down: false, cors: true })
})

type Node = Awaited<ReturnType<typeof start>>
const call = (node: Node, method: string, ...params: unknown[]) => node.provider.request({ method, params })
const balanceOf = async (node: Node, who: string) => BigInt((await call(node, 'eth_call', { to: upstream.token, data: token.encodeFunctionData('balanceOf', [who]) }, 'latest')) as string)

test('a forked chain in IndexedDB: reads and a transfer, then a reload with the upstream down', async () => {
  const name = uniqueName('fork')
  const first = await start({ name, fork: { url: upstream.url, retries: 0 } })
  expect(await call(first, 'eth_chainId')).toBe('0x539')
  // The chain continues the upstream's numbering, and its history up to the fork block is the upstream's.
  expect(BigInt((await call(first, 'eth_blockNumber')) as string)).toBe(BigInt(upstream.seededBlock))
  const block1 = (await call(first, 'eth_getBlockByNumber', '0x1', false)) as { number: string; transactions: string[] }
  expect(block1.number).toBe('0x1')
  expect(block1.transactions).toHaveLength(1)
  expect(await balanceOf(first, DEV[1].address)).toBe(SEED_SENT)
  await commands.setForkUpstream({})
  // Warm: the same call again asks the upstream nothing.
  expect(await balanceOf(first, DEV[1].address)).toBe(SEED_SENT)
  expect((await commands.setForkUpstream({})).requests).toBe(0)
  await call(first, 'eth_sendTransaction', { from: DEV[1].address, to: upstream.token, data: token.encodeFunctionData('transfer', [DEV[2].address, 21n]) })
  expect(await balanceOf(first, DEV[2].address)).toBe(21n)
  const info = (await call(first, 'anvil_nodeInfo')) as { forkConfig: { forkUrl: string; forkBlockNumber: number } }
  expect(info.forkConfig).toEqual({ forkUrl: upstream.url, forkBlockNumber: Number(upstream.seededBlock), forkRetryBackoff: null })
  await first.stop()

  await commands.setForkUpstream({ down: true })
  const offline = await start({ name })
  expect(await call(offline, 'eth_chainId')).toBe('0x539')
  expect(await balanceOf(offline, DEV[1].address)).toBe(SEED_SENT - 21n)
  expect(await balanceOf(offline, DEV[2].address)).toBe(21n)
  expect(await call(offline, 'eth_getBlockByNumber', '0x1', false)).toEqual(block1)
  expect(BigInt((await call(offline, 'eth_blockNumber')) as string)).toBe(BigInt(upstream.seededBlock) + 1n)
  await call(offline, 'eth_sendTransaction', { from: DEV[1].address, to: upstream.token, data: token.encodeFunctionData('transfer', [DEV[2].address, 1n]) })
  expect(await balanceOf(offline, DEV[2].address)).toBe(22n)
  const error = await rejection(call(offline, 'eth_getBalance', '0x00000000000000000000000000000000000000cc', 'latest'))
  expect(error.code).toBe(-32603)
  expect(error.message).toMatch(/^the fork's upstream 127\.0\.0\.1:\d+ failed eth_get(Code|Proof), eth_get(Code|Proof): it could not be reached/)
})

test('an upstream that does not allow the page origin (CORS): the start fails saying so', async () => {
  await commands.setForkUpstream({ cors: false })
  const error = await start({ name: uniqueName('fork-cors'), fork: { url: upstream.url, retries: 0 } }).then(
    () => undefined,
    (e: Error) => e,
  )
  expect(error?.message).toMatch(
    new RegExp(`the fork's upstream 127\\.0\\.0\\.1:\\d+ failed .*: it could not be reached \\(Failed to fetch\\); the upstream may not allow cross-origin requests \\(CORS\\) from ${location.origin}`),
  )
})
