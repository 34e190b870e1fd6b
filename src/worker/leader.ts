import { AlreadyKnownError, InternalError, RpcError } from '../core/errors.ts'
import { createNode, type ConsoleOutput, type Node } from '../core/node.ts'
import { Subscriptions, type SubscriptionMessage } from '../core/rpc/subscriptions.ts'
import { IndexedDbStore } from '../core/store/indexedDbStore.ts'
import type { Store } from '../core/store/store.ts'
import { callResponderWire, channelNames, type CallMessage, type ChannelMessage, type Outcome, type WorkerOptions } from '../bridge/protocol.ts'
import { Responder } from '../bridge/reliableChannel.ts'
import { HttpRelay } from './httpRelay.ts'
import { whenFree } from './locks.ts'
import { SenderRecovery } from './senderRecovery.ts'

/** Who asked: this tab's own page, or another tab (by its id) through the channel. */
export type Caller = 'page' | string

/** The tab a forwarded call comes from (its id is `<tab>/<n>`). */
const tabOf = (id: string): string => id.split('/')[0]

/**
 * The tab that owns the chain: it runs the core node on the IndexedDB store and serves its own
 * page plus the followers' forwarded calls on the chain's BroadcastChannel.
 *
 * It listens from the moment it exists, before the chain is loaded (which can take a while):
 * calls that arrive meanwhile are acknowledged, so followers do not give up on a leader that is
 * merely starting, and wait for the node.
 */
export class Leader {
  /** The node once the chain is loaded; rejects if it cannot be opened. */
  readonly ready: Promise<Node>
  private readonly subscriptions = new Map<Caller, Subscriptions>()
  /** Only a persisted chain is shared between tabs; a memory chain belongs to its tab alone. */
  private readonly channel: BroadcastChannel | undefined
  /** Takes the followers' calls on the channel (bridge/reliableChannel.ts): acknowledged at once, each id run once. */
  private readonly forwarded: Responder<CallMessage, Outcome, ChannelMessage> | undefined
  /** Answers the service worker's HTTP requests, when this page asked for an endpoint. */
  private readonly http: HttpRelay | undefined
  private readonly closing = new AbortController()
  /** Recovers the senders of raw transactions sent together on a second thread. */
  private recovery: SenderRecovery | undefined

  /** `stolen`: this tab took the chain from a leader that stopped answering (and so its endpoint). */
  constructor(
    private readonly options: WorkerOptions,
    private readonly tab: string,
    private readonly pushToPage: (message: SubscriptionMessage) => void,
    {
      stolen = false,
      accountsChanged = () => {},
      consoleLogged = () => {},
    }: { stolen?: boolean; accountsChanged?: (accounts: string[]) => void; consoleLogged?: (output: ConsoleOutput) => void } = {},
  ) {
    if (options.persist) {
      this.channel = new BroadcastChannel(channelNames(options.name).rpc)
      this.forwarded = new Responder(this.channel, callResponderWire, {
        run: (call, id) => this.call(call.method, call.params, tabOf(id), call.retried),
        // This tab's own follower, from before it took over: its calls were handed over directly.
        ignore: (id) => tabOf(id) === this.tab,
      })
    }
    this.ready = openNode(options)
    // Like the channel, the HTTP relay starts before the chain loads: a request sent meanwhile waits.
    this.http = options.http ? new HttpRelay(options.name, this.ready, { steal: stolen }) : undefined
    this.ready.then(
      (node) => {
        const stop = node.impersonation.onChange(() => {
          void node.request({ method: 'eth_accounts', params: [] }).then((accounts) => {
            if (this.closing.signal.aborted) return
            this.post({ type: 'accounts', accounts: accounts as string[] })
            accountsChanged(accounts as string[])
          })
        })
        // Every tab's page hears what console.log printed, whichever tab's call ran it.
        const stopConsole = node.on('consoleLog', (output) => {
          this.post({ type: 'consoleLog', output })
          consoleLogged(output)
        })
        this.closing.signal.addEventListener('abort', () => {
          stop()
          stopConsole()
        })
      },
      () => {
        this.forwarded?.close()
        this.channel?.close()
        this.http?.close()
      },
    )
    // Followers re-send what they could not deliver and renew their subscriptions.
    this.post({ type: 'leader', epoch: crypto.randomUUID() })
  }

  /**
   * Runs one call. `retried`: the caller sent it to an earlier leader too, which may have run it;
   * a raw transaction that is already known then counts as sent (it is idempotent by hash).
   */
  async call(method: string, params: unknown, caller: Caller, retried = false): Promise<Outcome> {
    let node: Node
    try {
      node = await this.ready
    } catch (error) {
      // The chain could not be opened (a ChainStoreError, a refused database): every call says why.
      const why = error instanceof RpcError ? error : new InternalError(error instanceof Error ? error.message : String(error), { cause: error })
      return { ok: false, error: why.toJSON() }
    }
    if (method === 'eth_sendRawTransaction') {
      this.recovery ??= new SenderRecovery(Number(node.chainId))
      return this.recovery.submit(params, () => this.run(node, method, params, caller, retried))
    }
    return this.run(node, method, params, caller, retried)
  }

  private async run(node: Node, method: string, params: unknown, caller: Caller, retried: boolean): Promise<Outcome> {
    try {
      return { ok: true, result: await this.dispatch(node, method, params, caller) }
    } catch (error) {
      // The node answers with RpcErrors only (Node.run converts and reports anything else).
      const failure = error as RpcError
      if (retried && method === 'eth_sendRawTransaction' && failure instanceof AlreadyKnownError) return { ok: true, result: failure.hash }
      return { ok: false, error: failure.toJSON() }
    }
  }

  private dispatch(node: Node, method: string, params: unknown, caller: Caller): Promise<unknown> {
    // Subscriptions need a way to push, which only this layer has (HTTP has none).
    if (method === 'eth_subscribe') return node.run(method, params, () => this.subscriptionsOf(node, caller).subscribe(params))
    if (method === 'eth_unsubscribe') {
      return node.run(method, params, () => this.subscriptionsOf(node, caller).unsubscribe(Array.isArray(params) ? params[0] : undefined))
    }
    return node.request({ method, params })
  }

  private subscriptionsOf(node: Node, caller: Caller): Subscriptions {
    let subscriptions = this.subscriptions.get(caller)
    if (subscriptions) return subscriptions
    if (caller === 'page') {
      subscriptions = new Subscriptions(node, this.pushToPage)
    } else {
      subscriptions = new Subscriptions(node, (message) => this.post({ type: 'subscription', tab: caller, ...message }))
      // A tab that closes or crashes never unsubscribes: its presence lock says it is gone.
      void whenFree(channelNames(this.options.name).tabLock(caller), this.closing.signal).then(() => {
        this.subscriptions.get(caller)?.close()
        this.subscriptions.delete(caller)
      })
    }
    this.subscriptions.set(caller, subscriptions)
    return subscriptions
  }

  private post(message: ChannelMessage): void {
    this.channel?.postMessage(message)
  }

  async close(): Promise<void> {
    this.closing.abort()
    this.recovery?.close()
    this.http?.close()
    this.forwarded?.close()
    this.channel?.close()
    for (const subscriptions of this.subscriptions.values()) subscriptions.close()
    this.subscriptions.clear()
    const node = await this.ready.catch(() => undefined)
    await node?.close()
  }
}

async function openNode(options: WorkerOptions): Promise<Node> {
  const store: Store | undefined = options.persist ? await IndexedDbStore.open(options.name, options.durability) : undefined
  try {
    return await createNode({
      chainId: options.chainId,
      fork: options.fork,
      mining: options.mining,
      codeSizeLimit: options.codeSizeLimit,
      throwOnTransactionFailures: options.throwOnTransactionFailures,
      limits: options.limits,
      store,
    })
  } catch (error) {
    await store?.close()
    throw error
  }
}
