/**
 * The playground's node: started once per page, shared by every panel. Panels call it through
 * `request` (which rejects with the provider's JSON-RPC error, code and data intact) and follow
 * the chain with `onHead`, fed by one `newHeads` subscription.
 */
import { ServiceWorkerError, startNode, type PageNode } from '../../src/client/index.ts'

export type Hex = `0x${string}`

/** The playground's chain: one IndexedDB database, kept across reloads. */
export const CHAIN_NAME = 'playground'

/**
 * Where the service worker answers HTTP JSON-RPC: the site's /rpc, and anvil-zksync's address
 * (viem's zksyncInMemoryNode), so a dApp or script configured for a local node works unmodified
 * from this origin with nothing listening there (docs/playground.md, "The HTTP endpoint").
 */
export const BASE_URLS = ['/rpc', 'http://localhost:8011', 'http://127.0.0.1:8011']

/**
 * The service worker script: pagenode's relay (imported by it, answering the base URLs) plus the
 * offline cache of the playground and the example dApp (demo/sw/, demo/vite/offlinePlugin.ts).
 */
export const SERVICE_WORKER_SCRIPT = '/playground-sw.js'

export interface Head {
  number: bigint
  hash: Hex
  timestamp: bigint
}

type HeadListener = (head: Head) => void
type Role = PageNode['role']

/** How often the tab's role is looked at: the page API has no event for a takeover. */
const ROLE_POLL_MS = 500

export class Session {
  private readonly headListeners = new Set<HeadListener>()
  private readonly rewindListeners = new Set<HeadListener>()
  private readonly roleListeners = new Set<(role: Role) => void>()
  /** The last head heard, to tell a chain that went back (snapshot revert, reset) from one that grew. */
  private lastHead: Head | undefined

  private constructor(
    readonly node: PageNode,
    readonly chainId: number,
    readonly accounts: Hex[],
    /** Why the HTTP endpoint is unavailable, when it is (the provider still works). */
    readonly endpointProblem: string | undefined,
  ) {}

  /** Starts (or joins, in a second tab) the playground's chain. */
  static async start(): Promise<Session> {
    const { node, problem } = await startWithEndpoint()
    const chainId = Number(BigInt((await node.provider.request({ method: 'eth_chainId', params: [] })) as string))
    const accounts = (await node.provider.request({ method: 'eth_accounts', params: [] })) as Hex[]
    const session = new Session(node, chainId, accounts, problem)
    node.provider.on('message', (message) => {
      const { data } = message as { data?: { result?: { number?: string; hash?: Hex; timestamp?: string } } }
      const result = data?.result
      if (result?.number === undefined || result.hash === undefined) return
      session.hear({ number: BigInt(result.number), hash: result.hash, timestamp: BigInt(result.timestamp ?? 0) })
    })
    await session.request('eth_subscribe', ['newHeads'])
    let role = node.role
    setInterval(() => {
      if (node.role === role) return
      role = node.role
      for (const listener of session.roleListeners) listener(role)
    }, ROLE_POLL_MS)
    return session
  }

  get provider() {
    return this.node.provider
  }

  /** The first HTTP base URL (absolute), or undefined when the page has no endpoint. */
  get endpoint(): string | undefined {
    return this.node.baseUrls[0]
  }

  /** A JSON-RPC call; rejects with the node's error (`code`, `message`, `data`). */
  request<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    return this.node.provider.request({ method, params }) as Promise<T>
  }

  /** Calls `listener` on every new block (mined, or after a revert/reset moved the head). */
  onHead(listener: HeadListener): () => void {
    this.headListeners.add(listener)
    return () => this.headListeners.delete(listener)
  }

  /** Calls `listener` when this tab's role changes: a follower took over, or a leader stepped down. */
  onRole(listener: (role: Role) => void): () => void {
    this.roleListeners.add(listener)
    return () => this.roleListeners.delete(listener)
  }

  /**
   * Calls `listener` when the chain went back under the page: a head at or below the last one
   * heard (a snapshot revert, a reset). What a panel showed about the chain it left (a
   * transaction's outcome, a call's result) no longer holds, and goes.
   */
  onRewind(listener: HeadListener): () => void {
    this.rewindListeners.add(listener)
    return () => this.rewindListeners.delete(listener)
  }

  /** Tells head listeners the chain moved without a new block (snapshot revert, reset). */
  async announceHead(): Promise<void> {
    const block = await this.request<{ number: string; hash: Hex; timestamp: string }>('eth_getBlockByNumber', ['latest', false])
    this.hear({ number: BigInt(block.number), hash: block.hash, timestamp: BigInt(block.timestamp) })
  }

  private hear(head: Head): void {
    const previous = this.lastHead
    this.lastHead = head
    if (previous !== undefined && head.number <= previous.number && head.hash !== previous.hash) {
      for (const listener of this.rewindListeners) listener(head)
    }
    for (const listener of this.headListeners) listener(head)
  }
}

/**
 * The node with its HTTP endpoint; when the endpoint cannot be set up (no service workers in this
 * browser or window, a stale script on the site) the playground still works, provider only, and
 * the page says why HTTP does not.
 */
async function startWithEndpoint(): Promise<{ node: PageNode; problem?: string }> {
  try {
    return { node: await startNode({ name: CHAIN_NAME, baseUrls: BASE_URLS, serviceWorker: SERVICE_WORKER_SCRIPT }) }
  } catch (error) {
    if (!(error instanceof ServiceWorkerError)) throw error
    console.error(error)
    return { node: await startNode({ name: CHAIN_NAME, serviceWorker: false }), problem: error.message }
  }
}
