/// <reference lib="webworker" />
/**
 * The node worker: one per tab. It becomes the leader of its chain (the tab that runs the node
 * on IndexedDB) or a follower that forwards to the leader, and takes over when the leader goes
 * away or stops answering; a leader whose lock was taken steps down to follower.
 *
 * The page's control messages are listened to synchronously at load, before any await: a message
 * posted by the page while the module was still starting would otherwise be lost.
 */
import { ErrorCode } from '../core/errors.ts'
import type { SubscriptionMessage } from '../core/rpc/subscriptions.ts'
import { channelNames, type FromWorker, type NodeInfo, type Outcome, type ToWorker, type WorkerEvent, type WorkerOptions } from '../bridge/protocol.ts'
import { serveRequests } from '../bridge/requestPort.ts'
import { Follower } from './follower.ts'
import { Leader } from './leader.ts'
import { holdLock, type HeldLock } from './locks.ts'
import { PageSubscriptions } from './pageSubscriptions.ts'

const tab = crypto.randomUUID()

interface Session {
  options: WorkerOptions
  events: (event: WorkerEvent) => void
  subscriptions: PageSubscriptions
}

let session: Session | undefined
let leader: Leader | undefined
let follower: Follower | undefined
/** The leader lock while this tab leads; this tab's presence lock. */
let leaderLock: HeldLock | undefined
let presence: HeldLock | undefined
/** Aborts this tab's wait in line for the leader lock. */
let queue: AbortController | undefined
let stealing = false
let stopped = false

/** Where this tab's page calls go: its own leader, or the leader in another tab. */
function upstream(method: string, params: unknown, retried = false): Promise<Outcome> {
  if (leader) return leader.call(method, params, 'page', retried)
  if (follower) return follower.call(method, params)
  return Promise.resolve({ ok: false, error: { code: ErrorCode.internal, message: 'the node is not started' } })
}

const api = {
  async start(options: WorkerOptions, events: (event: WorkerEvent) => void, requests: MessagePort): Promise<NodeInfo> {
    serveRequests(requests, request)
    const toPage = (subscription: string, result: unknown) => events({ type: 'subscription', subscription, result })
    session = { options, events, subscriptions: new PageSubscriptions(toPage) }

    if (!options.persist) return describe(lead(session))

    // This tab's presence, for the leader to drop its subscriptions once it is gone.
    presence = await holdLock(channelNames(options.name).tabLock(tab), 'wait')
    const lock = await holdLock(channelNames(options.name).leaderLock, 'now')
    if (lock) return describe(lead(session, lock))

    const joined = follow(session)
    const chainId = await joined.call('eth_chainId', [])
    if (!chainId.ok) throw new Error(`the tab that runs the chain "${options.name}" did not answer: ${chainId.error.message}`)
    const leaderChainId = Number(BigInt(chainId.result as string))
    if (options.chainId !== undefined && options.chainId !== leaderChainId) {
      // What a leader opening this chain would say (core/node.ts restoreChain).
      throw new Error(`the stored chain has chain id ${leaderChainId}, not ${options.chainId}: open it with chainId ${leaderChainId} or use another name`)
    }
    // Through upstream, not `joined`: a takeover meanwhile closed that follower (its channel too).
    const accounts = await upstream('eth_accounts', [])
    // This tab may have taken over while joining (its calls then ran here): say what it is now.
    const role = leader ? 'leader' : 'follower'
    return { role, chainId: chainId.result as string, accounts: accounts.ok ? (accounts.result as string[]) : [] }
  },

  async stop(): Promise<void> {
    stopped = true
    queue?.abort()
    follower?.close()
    follower = undefined
    await leader?.close()
    leaderLock?.release()
    presence?.release()
  },
}

const toPage = (message: FromWorker) => self.postMessage(message)

self.addEventListener('message', (event: MessageEvent<ToWorker>) => {
  const message = event.data
  if (message.type === 'start') {
    const events = (event: WorkerEvent) => toPage({ type: 'event', event })
    api.start(message.options, events, message.requests).then(
      (info) => toPage({ type: 'started', info }),
      (error: unknown) => toPage({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
    )
  } else if (message.type === 'stop') {
    // Stopping is best effort: whatever fails, the page ends the worker once told.
    api.stop().finally(() => toPage({ type: 'stopped' }))
  }
})

/** A call of this tab's page. */
function request(method: string, params: unknown): Promise<Outcome> {
  if (session && method === 'eth_subscribe') return session.subscriptions.subscribe(params, upstream)
  if (session && method === 'eth_unsubscribe') return session.subscriptions.unsubscribe(params, upstream)
  return upstream(method, params)
}

/** Runs the chain in this tab. */
function lead({ options, subscriptions, events }: Session, lock?: HeldLock, stolen = false): Leader {
  const deliver = ({ subscription, result }: SubscriptionMessage) => subscriptions.deliver(subscription, result)
  leader = new Leader(options, tab, deliver, { stolen, accountsChanged: (accounts) => events({ type: 'accounts', accounts }) })
  leaderLock = lock
  void lock?.lost.then(stepDown)
  return leader
}

/** Forwards to the tab that runs the chain, and waits in line to run it. */
function follow(current: Session): Follower {
  const { options, subscriptions } = current
  follower = new Follower(
    options.name,
    tab,
    (subscription, result) => subscriptions.deliver(subscription, result),
    () => void subscriptions.renew(upstream),
    () => void steal(current),
    (accounts) => current.events({ type: 'accounts', accounts }),
  )
  queue = new AbortController()
  void holdLock(channelNames(options.name).leaderLock, 'wait', queue.signal).then((lock) => lock && takeOver(current, lock))
  return follower
}

/** The leader stopped answering: take the lock from it (its store is fenced off, see IndexedDbStore). */
async function steal(current: Session): Promise<void> {
  if (stealing || !follower) return
  stealing = true
  queue?.abort()
  const lock = await holdLock(channelNames(current.options.name).leaderLock, 'steal')
  stealing = false
  if (lock) takeOver(current, lock, true)
}

/** The leader lock is this tab's now: run the chain here. */
function takeOver(current: Session, lock: HeldLock, stolen = false): void {
  if (stopped || !follower) return lock.release()
  const next = lead(current, lock, stolen)
  // Synchronously, before any message of the channel is handled: the page's calls and its
  // subscriptions are first in the new leader's queue.
  follower.handOver((method, params, retried) => next.call(method, params, 'page', retried))
  follower = undefined
  void current.subscriptions.renew(upstream)
  current.events({ type: 'role', role: 'leader' })
}

/** Another tab took the lock (this one had stopped answering): follow it. */
function stepDown(): void {
  if (stopped || !session || !leader) return
  const old = leader
  leader = undefined
  leaderLock = undefined
  follow(session)
  void old.close()
  void session.subscriptions.renew(upstream)
  session.events({ type: 'role', role: 'follower' })
}

async function describe(started: Leader): Promise<NodeInfo> {
  try {
    const node = await started.ready
    return { role: 'leader', chainId: `0x${node.chainId.toString(16)}`, accounts: node.accounts.map((account) => account.address.toString()) }
  } catch (error) {
    // Nothing may stay held by a node that never started: the page can try the name again.
    await api.stop()
    throw error
  }
}
