import { proxy, transfer, wrap, type Remote } from 'comlink'
import type { MiningConfig } from '../core/config.ts'
import type { Durability, NodeInfo, Role, WorkerApi, WorkerEvent } from '../bridge/protocol.ts'
import { DISCONNECTED, PagenodeProvider } from './provider.ts'
import { RequestPort } from '../bridge/requestPort.ts'
import { DEFAULT_SCRIPT_URL, startingLockName } from '../bridge/http.ts'
import { checkHttpEndpoint, resolveBaseUrls, setUpServiceWorker } from './serviceWorker.ts'
import { announceProvider, type ProviderInfo } from './eip6963.ts'

export interface StartOptions {
  /** IndexedDB database name and channel namespace: one chain per name. */
  name?: string
  /** false: a memory chain, fresh on every load and private to this tab. */
  persist?: boolean
  chainId?: number
  mining?: MiningConfig
  /** IndexedDB commit durability: 'relaxed' survives tab and browser crashes; 'strict' also an OS crash. */
  durability?: Durability
  /**
   * Where the service worker answers HTTP JSON-RPC for this chain: `POST {base}/` and
   * `POST {base}/<method>`. Same-origin paths or other origins (e.g. 'http://127.0.0.1:8011').
   */
  baseUrls?: string[]
  /** The service worker script (at the site root, so it controls every page); false: provider only. */
  serviceWorker?: string | false
  /**
   * Announce the provider as a wallet through EIP-6963 (wagmi, mipd, …): true for pagenode's
   * name, icon and rdns, or your own. Ends when the node stops.
   */
  announce?: boolean | Partial<Omit<ProviderInfo, 'uuid'>>
}

export interface PageNode {
  readonly provider: PagenodeProvider
  /** 'leader' runs the chain in this tab; 'follower' forwards to the tab that does. */
  readonly role: Role
  /** The HTTP endpoint's base URLs, absolute; empty for a provider-only node. */
  readonly baseUrls: readonly string[]
  /** Stops the node: waits for a block being stored, releases the worker, locks and channels. */
  stop(): Promise<void>
  /** Ends the worker at once, as a crash would: for tests of what survives one. */
  terminate(): void
  /**
   * Resolves when the node worker answers a bare message, before any node code runs: it is alive
   * and not held by long synchronous work. Rejects once the node has stopped. (The bench's floor
   * of a provider round trip.)
   */
  ping(): Promise<void>
}

/**
 * Starts a pagenode in a module Web Worker and returns its EIP-1193 provider. Resolves once the
 * node answers (the chain loaded from IndexedDB, or this tab joined the tab that runs it) and,
 * unless `serviceWorker` is false, once its base URLs answer HTTP from this page.
 */
export async function startNode(options: StartOptions = {}): Promise<PageNode> {
  const name = options.name ?? 'pagenode'
  const script = options.serviceWorker ?? DEFAULT_SCRIPT_URL
  // Bad base URLs fail here, before a worker exists.
  const baseUrls = script === false ? [] : resolveBaseUrls(options.baseUrls ?? ['/rpc'])
  const starting = script === false ? undefined : holdStartingLock(name)
  if (script !== false) {
    // Before the node worker exists. Measured in Chromium: when a worker's scripts load under
    // the page's previous service worker while the new one waits to activate (an update: other
    // base URLs, another pagenode), the new one stayed 'waiting' despite skipWaiting, past any
    // timeout. Once the page is controlled by the new one, the worker loads under it.
    try {
      await setUpServiceWorker({ script, name, baseUrls })
    } catch (error) {
      starting?.release()
      throw error
    }
  }
  const worker = new Worker(new URL('../worker/nodeWorker.ts', import.meta.url), { type: 'module', name: 'pagenode' })
  const api: Remote<WorkerApi> = wrap<WorkerApi>(worker)
  const calls = new MessageChannel()
  const requests = new RequestPort(calls.port1)

  // Comlink never rejects a call whose worker died: start and stop race this instead (the
  // request port fails its own calls, see end()).
  let reportDeath: (message: string) => void = () => {}
  const death = new Promise<never>((_, reject) => {
    reportDeath = (message) => reject(new Error(message))
  })
  death.catch(() => {})
  worker.addEventListener('error', (event) => {
    event.preventDefault()
    end(`the node worker failed: ${event.message || 'unknown error'}`)
  })

  let role: Role = 'leader'
  const onEvent = (event: WorkerEvent) => {
    if (event.type === 'role') role = event.role
    else if (event.type === 'accounts') provider.emit('accountsChanged', event.accounts)
    else provider.emit('message', { type: 'eth_subscription', data: { subscription: event.subscription, result: event.result } })
  }

  let ended = false
  let unannounce = () => {}
  const end = (message: string) => {
    if (ended) return
    ended = true
    unannounce()
    reportDeath(message)
    requests.close({ code: DISCONNECTED, message })
    provider.disconnect(message)
    worker.terminate()
  }

  const provider = new PagenodeProvider((method, params) => requests.call(method, params))

  let info: NodeInfo
  try {
    info = await Promise.race([
      api.start(
        { name, persist: options.persist ?? true, chainId: options.chainId, mining: options.mining, durability: options.durability ?? 'relaxed', http: script !== false },
        proxy(onEvent),
        transfer(calls.port2, [calls.port2]),
      ),
      death,
    ])
    if (script !== false) await checkHttpEndpoint(baseUrls[0])
  } catch (error) {
    end('the node could not start')
    throw error
  } finally {
    starting?.release()
  }
  role = info.role
  if (options.announce) unannounce = announceProvider(provider, options.announce === true ? {} : options.announce)
  // On a later task, so that listeners attached right after `await startNode()` hear it.
  setTimeout(() => provider.emit('connect', { chainId: info.chainId }))

  return {
    provider,
    get role() {
      return role
    },
    baseUrls,
    async stop() {
      if (ended) return
      await Promise.race([api.stop(), death]).catch(() => {})
      end('the node was stopped')
    },
    terminate() {
      end('the node worker was terminated')
    },
    ping: () => requests.ping(),
  }
}

/**
 * Tells the service worker (which looks for the chain's locks) that a node is on its way, from
 * before the worker loads until the node's own relay holds its lock. Shared: several pages may
 * be starting the same chain.
 */
function holdStartingLock(name: string): { release(): void } {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  navigator.locks?.request(startingLockName(name), { mode: 'shared' }, () => held).catch(() => {})
  return { release }
}
