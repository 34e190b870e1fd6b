/// <reference lib="webworker" />
/**
 * The node worker: one per tab. It becomes the leader of its chain (the tab that runs the node
 * on IndexedDB) or a follower that forwards to the leader, and takes over when the leader goes.
 *
 * `expose` runs synchronously at load, before any await: a call posted by the page while the
 * module was still starting would otherwise be lost (Comlink #665).
 */
import { expose } from 'comlink'
import { ErrorCode } from '../core/rpc/errors.ts'
import { channelNames, type NodeInfo, type Outcome, type WorkerApi, type WorkerEvent, type WorkerOptions } from '../bridge/protocol.ts'
import { Follower } from './follower.ts'
import { Leader } from './leader.ts'
import { holdLock, type Release } from './locks.ts'
import { PageSubscriptions } from './pageSubscriptions.ts'

let leader: Leader | undefined
let follower: Follower | undefined
let stopped = false
const held: Release[] = []
const stopping = new AbortController()

const tab = crypto.randomUUID()

/** Where this tab's page calls go: its own leader, or the leader in another tab. */
function upstream(method: string, params: unknown, retried = false): Promise<Outcome> {
  if (leader) return leader.call(method, params, 'page', retried)
  if (follower) return follower.call(method, params)
  return Promise.resolve({ ok: false, error: { code: ErrorCode.internal, message: 'the node is not started' } })
}

let subscriptions: PageSubscriptions | undefined

const api: WorkerApi = {
  async start(options: WorkerOptions, events: (event: WorkerEvent) => void): Promise<NodeInfo> {
    const toPage = (subscription: string, result: unknown) => events({ type: 'subscription', subscription, result })
    const pageSubscriptions = (subscriptions = new PageSubscriptions(toPage))
    const deliver = ({ subscription, result }: { subscription: string; result: unknown }) => pageSubscriptions.deliver(subscription, result)
    const names = channelNames(options.name)

    if (!options.persist) {
      leader = new Leader(options, tab, deliver)
      return describe(leader, options)
    }

    // This tab's presence, for the leader to drop its subscriptions when it goes.
    held.push((await holdLock(names.tabLock(tab), true))!)
    const leading = await holdLock(names.leaderLock, false)
    if (leading) {
      held.push(leading)
      leader = new Leader(options, tab, deliver)
      return describe(leader, options)
    }

    follower = new Follower(options.name, tab, (subscription, result) => pageSubscriptions.deliver(subscription, result), () => {
      void pageSubscriptions.renew(upstream)
    })
    // Wait in line for the lock: it is granted when the leader's tab goes away.
    void holdLock(names.leaderLock, true, stopping.signal).then((release) => {
      if (!release) return
      if (stopped) return release()
      held.push(release)
      takeOver(options, deliver, events)
    })
    const chainId = await follower.call('eth_chainId', [])
    if (!chainId.ok) throw new Error(`the tab that runs the chain "${options.name}" did not answer: ${chainId.error.message}`)
    const leaderChainId = Number(BigInt(chainId.result as string))
    if (options.chainId !== undefined && options.chainId !== leaderChainId) {
      // What a leader opening this chain would say (core/node.ts restoreChain).
      throw new Error(`the stored chain has chain id ${leaderChainId}, not ${options.chainId}: open it with chainId ${leaderChainId} or use another name`)
    }
    const accounts = await follower.call('eth_accounts', [])
    return { role: 'follower', chainId: chainId.result as string, accounts: accounts.ok ? (accounts.result as string[]) : [] }
  },

  async request(method: string, params: unknown): Promise<Outcome> {
    if (subscriptions && method === 'eth_subscribe') return subscriptions.subscribe(params, upstream)
    if (subscriptions && method === 'eth_unsubscribe') return subscriptions.unsubscribe(params, upstream)
    return upstream(method, params)
  },

  async stop(): Promise<void> {
    stopped = true
    stopping.abort()
    follower?.close()
    await leader?.close()
    for (const release of held.splice(0)) release()
  },
}

expose(api)

/** The leader's tab went away and this one holds the lock now: run the chain here. */
function takeOver(options: WorkerOptions, deliver: ConstructorParameters<typeof Leader>[2], events: (event: WorkerEvent) => void): void {
  const next = new Leader(options, tab, deliver)
  leader = next
  // Synchronously, before any message of the channel is handled: the page's calls and its
  // subscriptions are first in the new leader's queue.
  follower?.handOver((method, params, retried) => next.call(method, params, 'page', retried))
  follower = undefined
  void subscriptions?.renew(upstream)
  events({ type: 'role', role: 'leader' })
}

async function describe(leader: Leader, options: WorkerOptions): Promise<NodeInfo> {
  try {
    const node = await leader.ready
    return { role: 'leader', chainId: `0x${node.chainId.toString(16)}`, accounts: node.accounts.map((account) => account.address.toString()) }
  } catch (error) {
    // Nothing may stay held by a node that never started: the page can try the name again.
    await leader.close()
    for (const release of held.splice(0)) release()
    throw error instanceof Error ? error : new Error(`the chain "${options.name}" could not be opened: ${String(error)}`)
  }
}
