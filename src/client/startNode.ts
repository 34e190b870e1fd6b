import type { ForkConfig, Limits, MiningConfig } from '../core/config.ts'
import type { Durability, FromWorker, NodeInfo, Role, ToWorker, WorkerEvent } from '../bridge/protocol.ts'
import { DISCONNECTED, PagenodeProvider } from './provider.ts'
import { RequestPort } from '../bridge/requestPort.ts'
import { DEFAULT_SCRIPT_URL, startingLockName } from '../bridge/http.ts'
import { checkHttpEndpoint, resolveBaseUrls, setUpServiceWorker } from './serviceWorker.ts'
import { announceProvider, type ProviderInfo } from './eip6963.ts'
import { createNodeWorker, explainWorkerFailure, type WorkerSource } from './workerSource.ts'

export interface StartOptions {
  /** IndexedDB database name and channel namespace: one chain per name. */
  name?: string
  /** false: a memory chain, fresh on every load and private to this tab. */
  persist?: boolean
  /** The chain id; on a fork, the upstream's when absent. */
  chainId?: number
  /**
   * Fork a live chain (createNode's `fork`): the node worker fetches its state from `url` as it
   * needs it, so the upstream must allow this page's origin (CORS). A persisted chain keeps what
   * it fetched in IndexedDB and continues the fork at the next load, offline too.
   */
  fork?: ForkConfig
  mining?: MiningConfig
  /** Bytes of deployed code a contract may have (EIP-170: 24,576); false: no limit, initcode included. */
  codeSizeLimit?: number | false
  /** Hardhat's throwOnTransactionFailures: under automine, a failing transaction's send is an error (it is mined all the same). */
  throwOnTransactionFailures?: boolean
  /**
   * The node's limits, as createNode's `limits` (docs/json-rpc.md, "Limits"): request size, batch
   * length, eth_getLogs range and results, filters, call gas cap, execution time, trace size,
   * blocks per mine call. Those not given keep their defaults.
   */
  limits?: Partial<Limits>
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
  /**
   * Where the node worker comes from, for setups whose bundler does not follow
   * `new URL('…', import.meta.url)` (esbuild) or serve it elsewhere: the URL of pagenode's prebuilt
   * `nodeWorker.js` (copied with its folder: `npx pagenode init <public dir> --worker`), or a
   * function that creates the Worker. Default: the worker shipped beside this module.
   */
  worker?: WorkerSource
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
  const { worker, url } = createNodeWorker(options.worker)
  const calls = new MessageChannel()
  const requests = new RequestPort(calls.port1)

  // A worker that dies never answers a control message: start and stop race this instead (the
  // request port fails its own calls, see end()).
  let reportDeath: (message: string) => void = () => {}
  const death = new Promise<never>((_, reject) => {
    reportDeath = (message) => reject(new Error(message))
  })
  death.catch(() => {})

  let started = false
  // A module worker refused by the page's Content-Security-Policy fails with no message; the
  // violation is reported to the document.
  let blockedByPolicy: string | undefined
  const onViolation = (event: SecurityPolicyViolationEvent) => {
    if (!started && url && event.blockedURI && url.startsWith(event.blockedURI)) blockedByPolicy = `${event.effectiveDirective}`
  }
  globalThis.document?.addEventListener('securitypolicyviolation', onViolation)
  worker.addEventListener('error', (event) => {
    event.preventDefault()
    // An ErrorEvent with a message: an exception thrown by the worker's code. None: it never ran.
    if (event.message) return end(`the node worker failed: ${event.message}`)
    if (started) return end('the node worker failed')
    // The event comes before the violation report: let that arrive first.
    void new Promise((resolve) => setTimeout(resolve, 50))
      .then(() => explainWorkerFailure(url, blockedByPolicy))
      .then((why) => end(`pagenode: ${why}`))
  })

  let role: Role = 'leader'
  const onEvent = (event: WorkerEvent) => {
    if (event.type === 'role') role = event.role
    else if (event.type === 'accounts') provider.emit('accountsChanged', event.accounts)
    else if (event.type === 'consoleLog') provider.emit('consoleLog', event.output)
    else provider.emit('message', { type: 'eth_subscription', data: { subscription: event.subscription, result: event.result } })
  }
  const answers = new Map<'started' | 'stopped', (message: FromWorker) => void>()
  worker.addEventListener('message', (event: MessageEvent<FromWorker>) => {
    const message = event.data
    if (message.type === 'event') return onEvent(message.event)
    answers.get(message.type === 'failed' ? 'started' : message.type)?.(message)
  })
  const answer = (type: 'started' | 'stopped') => new Promise<FromWorker>((resolve) => answers.set(type, resolve))
  const post = (message: ToWorker, transfer: Transferable[] = []) => worker.postMessage(message, transfer)

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
    const reply = answer('started')
    const workerOptions = {
      name,
      persist: options.persist ?? true,
      chainId: options.chainId,
      fork: options.fork,
      mining: options.mining,
      codeSizeLimit: options.codeSizeLimit,
      throwOnTransactionFailures: options.throwOnTransactionFailures,
      limits: options.limits,
      durability: options.durability ?? 'relaxed',
      http: script !== false,
    }
    post({ type: 'start', options: workerOptions, requests: calls.port2 }, [calls.port2])
    const outcome = await Promise.race([reply, death])
    if (outcome.type === 'failed') throw new Error(outcome.message)
    if (outcome.type !== 'started') throw new Error(`pagenode: the node worker answered ${outcome.type} to start`)
    info = outcome.info
    started = true
    if (script !== false) await checkHttpEndpoint(baseUrls[0])
  } catch (error) {
    end('the node could not start')
    throw error
  } finally {
    starting?.release()
    globalThis.document?.removeEventListener('securitypolicyviolation', onViolation)
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
      const stopped = answer('stopped')
      post({ type: 'stop' })
      await Promise.race([stopped, death]).catch(() => {})
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
