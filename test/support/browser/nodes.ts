/**
 * Starting page nodes in browser tests: unique chain names (IndexedDB and channels are shared by
 * every test of a session), and every node stopped and its database deleted after each test.
 */
import { deleteDB } from 'idb'
import { Wallet } from 'ethers'
import { afterEach } from 'vitest'
import { startNode, type PageNode, type ProviderRpcError, type StartOptions } from '../../../src/client/index.ts'
import { DEV_ACCOUNTS, GAS_PRICE } from '../accounts.ts'

/** The dev accounts (all four: transfers go to DEV[3]). */
export const DEV = DEV_ACCOUNTS
export { GAS_PRICE }

/** A chain name no other test uses. */
export const uniqueName = (label: string) => `${label}-${crypto.randomUUID()}`

const started: PageNode[] = []
const databases = new Set<string>()

/**
 * startNode, with the node stopped (and its database deleted) after the test. Provider only: the
 * HTTP endpoint (service worker) has tests of its own, and these must not depend on it.
 */
export async function start(options: StartOptions & { name: string }): Promise<PageNode> {
  if (options.persist !== false) databases.add(options.name)
  const node = await startNode({ serviceWorker: false, ...options })
  started.push(node)
  return node
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((node) => node.stop()))
  // A killed worker's connection can linger and block the delete: it then completes later, unwaited.
  await Promise.all([...databases].map((name) => new Promise<void>((resolve) => void deleteDB(name, { blocked: () => resolve() }).then(resolve))))
  databases.clear()
})

/** The error a call rejects with (and a test failure if it resolves). */
export async function rejection(call: Promise<unknown>): Promise<ProviderRpcError> {
  const outcome = await call.then(
    () => undefined,
    (error: ProviderRpcError) => error,
  )
  if (!outcome) throw new Error('expected the call to fail')
  return outcome
}

/** What `eth_subscription` message events carried, in order. */
export interface Notification {
  subscription: string
  result: unknown
}

/** Collects the `eth_subscription` messages a provider emits. */
export function notifications(node: PageNode): Notification[] {
  const seen: Notification[] = []
  node.provider.on('message', (message: unknown) => {
    const { type, data } = message as { type: string; data: Notification }
    if (type === 'eth_subscription') seen.push(data)
  })
  return seen
}

/** The results delivered to one subscription. */
export const resultsOf = <T = Record<string, unknown>>(seen: Notification[], subscription: string) =>
  seen.filter((n) => n.subscription === subscription).map((n) => n.result as T)

/** Signs a dev-account transfer (EIP-1559, chain 260) as a wallet would. */
export async function signTransfer(from: number, nonce: number, to: string = DEV[3].address, value = 1n): Promise<string> {
  const wallet = new Wallet(DEV[from].key)
  return wallet.signTransaction({
    type: 2,
    chainId: 260,
    nonce,
    to,
    value,
    gasLimit: 21_000n,
    maxFeePerGas: GAS_PRICE,
    maxPriorityFeePerGas: 0n,
  })
}

/** Sends a signed transfer and resolves its hash once the node acknowledged it (mined and stored). */
export async function transfer(node: PageNode, from = 0, to: string = DEV[3].address, value = 1n): Promise<string> {
  const nonce = Number(await node.provider.request({ method: 'eth_getTransactionCount', params: [DEV[from].address, 'pending'] }))
  const raw = await signTransfer(from, nonce, to, value)
  return (await node.provider.request({ method: 'eth_sendRawTransaction', params: [raw] })) as string
}
