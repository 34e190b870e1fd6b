/**
 * Starting page nodes in browser tests: unique chain names (IndexedDB and channels are shared by
 * every test of a session), and every node stopped and its database deleted after each test.
 */
import { deleteDB } from 'idb'
import { Wallet } from 'ethers'
import { afterEach } from 'vitest'
import { startNode, type PageNode, type ProviderRpcError, type StartOptions } from '../../../src/client/index.ts'

/** The first dev accounts of the `test … junk` mnemonic (public keys of a dev chain). */
export const DEV = [
  { address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', key: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' },
  { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', key: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' },
  { address: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', key: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a' },
  { address: '0x90f79bf6eb2c4f870365e785982e1f101e93b906', key: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6' },
] as const

/** The L2 gas price of the dev chain, also every block's base fee. */
export const GAS_PRICE = 45_250_000n

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
