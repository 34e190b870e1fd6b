/// <reference lib="webworker" />
/**
 * The node worker: one per tab. It becomes the leader of its chain (the tab that runs the node
 * on IndexedDB) or a follower that forwards to the leader, and takes over when the leader goes
 * away or stops answering; a leader whose lock was taken steps down to follower.
 *
 * The page's control messages are listened to synchronously at load, before any await: a message
 * posted by the page while the module was still starting would otherwise be lost.
 */
// First: before any module that decodes hex reads whether the builtin is there (hexDecoding.ts).
import './hexDecoding.ts'
import { ErrorCode } from '../core/errors.ts'
import type { SubscriptionMessage } from '../core/rpc/subscriptions.ts'
import { channelNames, type FromWorker, type NodeInfo, type Outcome, type Role, type ToWorker, type WorkerEvent, type WorkerOptions } from '../bridge/protocol.ts'
import { serveRequests } from '../bridge/requestPort.ts'
import { Follower } from './follower.ts'
import { Leader } from './leader.ts'
import { holdLock, type HeldLock } from './locks.ts'
import { PageSubscriptions } from './pageSubscriptions.ts'

/** What the page asked for at start, for the worker's lifetime. */
interface Session {
  options: WorkerOptions
  events: (event: WorkerEvent) => void
  subscriptions: PageSubscriptions
  /** This tab's presence lock (a persisted chain): once it is free, the leader drops its subscriptions. */
  presence: HeldLock | undefined
}

/**
 * What the worker is doing; nothing else can be. The transitions are TabNode's methods:
 * `idle` → `starting` (start; a memory chain leads at once) → `leading` (lead: the leader lock was
 * free) or `following` (follow); `following` → `leading` (takeOver: the lock came in turn, or was
 * stolen from a leader that stopped answering); `leading` → `following` (stepDown: another tab
 * stole the lock); any → `stopped` (stop).
 */
type TabState =
  | { kind: 'idle' }
  /** Waiting for this tab's presence lock before asking for the leader lock. */
  | { kind: 'starting'; session: Session }
  /** Runs the chain; `lock` is the leader lock (none for a memory chain: it belongs to this tab). */
  | { kind: 'leading'; session: Session; leader: Leader; lock: HeldLock | undefined }
  /**
   * Forwards to the tab that leads, and waits in line for the leader lock (`queue` withdraws the
   * wait); `stealing` while taking the lock from a leader that stopped answering.
   */
  | { kind: 'following'; session: Session; follower: Follower; queue: AbortController; stealing: boolean }
  | { kind: 'stopped' }

const failure = (code: number, message: string): Outcome => ({ ok: false, error: { code, message } })

class TabNode {
  private readonly tab = crypto.randomUUID()
  private state: TabState = { kind: 'idle' }

  /** Where this tab's page calls go: its own leader, or the leader in another tab. */
  private readonly upstream = (method: string, params: unknown, retried = false): Promise<Outcome> => {
    const state = this.state
    if (state.kind === 'leading') return state.leader.call(method, params, 'page', retried)
    if (state.kind === 'following') return state.follower.call(method, params)
    if (state.kind === 'stopped') return Promise.resolve(failure(4900, 'the node was stopped'))
    return Promise.resolve(failure(ErrorCode.internal, 'the node is not started'))
  }

  async start(options: WorkerOptions, events: (event: WorkerEvent) => void, requests: MessagePort): Promise<NodeInfo> {
    if (this.state.kind !== 'idle') throw new Error(`the node worker was started already (it is ${this.state.kind})`)
    serveRequests(requests, (method, params) => this.request(method, params))
    const toPage = (subscription: string, result: unknown) => events({ type: 'subscription', subscription, result })
    const session: Session = { options, events, subscriptions: new PageSubscriptions(toPage), presence: undefined }

    if (!options.persist) return this.describe(this.lead(session, undefined))

    this.state = { kind: 'starting', session }
    const names = channelNames(options.name)
    session.presence = await holdLock(names.tabLock(this.tab), 'wait')
    const lock = this.state.kind === 'starting' ? await holdLock(names.leaderLock, 'now') : undefined
    if (this.state.kind !== 'starting') {
      // Stopped meanwhile: hold nothing.
      lock?.release()
      session.presence?.release()
      throw new Error('the node was stopped while it started')
    }
    if (lock) return this.describe(this.lead(session, lock))

    const joined = this.follow(session)
    const chainId = await joined.call('eth_chainId', [])
    if (!chainId.ok) throw new Error(`the tab that runs the chain "${options.name}" did not answer: ${chainId.error.message}`)
    const leaderChainId = Number(BigInt(chainId.result as string))
    if (options.chainId !== undefined && options.chainId !== leaderChainId) {
      // What a leader opening this chain would say (core/node.ts restoreChain).
      throw new Error(`the stored chain has chain id ${leaderChainId}, not ${options.chainId}: open it with chainId ${leaderChainId} or use another name`)
    }
    // Through upstream, not `joined`: a takeover meanwhile closed that follower (its channel too).
    const accounts = await this.upstream('eth_accounts', [])
    // This tab may have taken over while joining (its calls then ran here): say what it is now.
    return { role: this.role(), chainId: chainId.result as string, accounts: accounts.ok ? (accounts.result as string[]) : [] }
  }

  private role(): Role {
    return this.state.kind === 'leading' ? 'leader' : 'follower'
  }

  async stop(): Promise<void> {
    const state = this.state
    this.state = { kind: 'stopped' }
    if (state.kind === 'following') {
      state.queue.abort()
      state.follower.close()
    } else if (state.kind === 'leading') {
      await state.leader.close()
      state.lock?.release()
    }
    if (state.kind !== 'idle' && state.kind !== 'stopped') state.session.presence?.release()
  }

  /** A call of this tab's page. */
  private request(method: string, params: unknown): Promise<Outcome> {
    const session = this.state.kind === 'idle' || this.state.kind === 'stopped' ? undefined : this.state.session
    if (session && method === 'eth_subscribe') return session.subscriptions.subscribe(params, this.upstream)
    if (session && method === 'eth_unsubscribe') return session.subscriptions.unsubscribe(params, this.upstream)
    return this.upstream(method, params)
  }

  /** Runs the chain in this tab. */
  private lead(session: Session, lock: HeldLock | undefined, stolen = false): Leader {
    const { options, subscriptions, events } = session
    const deliver = ({ subscription, result }: SubscriptionMessage) => subscriptions.deliver(subscription, result)
    const leader = new Leader(options, this.tab, deliver, {
      stolen,
      accountsChanged: (accounts) => events({ type: 'accounts', accounts }),
      consoleLogged: (output) => events({ type: 'consoleLog', output }),
    })
    this.state = { kind: 'leading', session, leader, lock }
    void lock?.lost.then(() => this.stepDown(leader))
    return leader
  }

  /** Forwards to the tab that runs the chain, and waits in line to run it. */
  private follow(session: Session): Follower {
    const { options, subscriptions, events } = session
    const follower = new Follower(
      options.name,
      this.tab,
      (subscription, result) => subscriptions.deliver(subscription, result),
      () => void subscriptions.renew(this.upstream),
      () => void this.steal(),
      (accounts) => events({ type: 'accounts', accounts }),
      (output) => events({ type: 'consoleLog', output }),
    )
    const queue = new AbortController()
    this.state = { kind: 'following', session, follower, queue, stealing: false }
    void holdLock(channelNames(options.name).leaderLock, 'wait', queue.signal).then((lock) => lock && this.takeOver(lock))
    return follower
  }

  /** The leader stopped answering: take the lock from it (its store is fenced off, see IndexedDbStore). */
  private async steal(): Promise<void> {
    const state = this.state
    if (state.kind !== 'following' || state.stealing) return
    state.stealing = true
    state.queue.abort()
    const lock = await holdLock(channelNames(state.session.options.name).leaderLock, 'steal')
    state.stealing = false
    if (lock) this.takeOver(lock, true)
  }

  /** The leader lock is this tab's now: run the chain here. */
  private takeOver(lock: HeldLock, stolen = false): void {
    const state = this.state
    if (state.kind !== 'following') return lock.release()
    const leader = this.lead(state.session, lock, stolen)
    // Synchronously, before any message of the channel is handled: the page's calls and its
    // subscriptions are first in the new leader's queue.
    state.follower.handOver((method, params, retried) => leader.call(method, params, 'page', retried))
    void state.session.subscriptions.renew(this.upstream)
    state.session.events({ type: 'role', role: 'leader' })
  }

  /** Another tab took the lock (this one had stopped answering): follow it. */
  private stepDown(leader: Leader): void {
    const state = this.state
    if (state.kind !== 'leading' || state.leader !== leader) return
    this.follow(state.session)
    void leader.close()
    void state.session.subscriptions.renew(this.upstream)
    state.session.events({ type: 'role', role: 'follower' })
  }

  private async describe(started: Leader): Promise<NodeInfo> {
    try {
      const node = await started.ready
      return { role: 'leader', chainId: `0x${node.chainId.toString(16)}`, accounts: node.accounts.map((account) => account.address.toString()) }
    } catch (error) {
      // Nothing may stay held by a node that never started: the page can try the name again.
      await this.stop()
      throw error
    }
  }
}

const node = new TabNode()
const toPage = (message: FromWorker) => self.postMessage(message)

self.addEventListener('message', (event: MessageEvent<ToWorker>) => {
  const message = event.data
  if (message.type === 'start') {
    const events = (event: WorkerEvent) => toPage({ type: 'event', event })
    node.start(message.options, events, message.requests).then(
      (info) => toPage({ type: 'started', info }),
      (error: unknown) => toPage({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
    )
  } else if (message.type === 'stop') {
    // Stopping is best effort: whatever fails, the page ends the worker once told.
    node.stop().finally(() => toPage({ type: 'stopped' }))
  }
})
