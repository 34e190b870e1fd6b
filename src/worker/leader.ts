import { createNode, type Node } from '../core/node.ts'
import { toRpcError } from '../core/rpc/errors.ts'
import { Subscriptions, type SubscriptionMessage } from '../core/rpc/subscriptions.ts'
import { IndexedDbStore } from '../core/store/indexedDbStore.ts'
import type { Store } from '../core/store/store.ts'
import { channelNames, type ChannelMessage, type Outcome, type WorkerOptions } from '../bridge/protocol.ts'
import { HttpRelay } from './httpRelay.ts'

/** Who asked: this tab's own page, or another tab (by its id) through the channel. */
export type Caller = 'page' | string

/** Ids of forwarded calls already taken, so a re-sent call runs once (the channel does not buffer). */
const REMEMBERED_CALLS = 10_000

/**
 * The tab that owns the chain: it runs the core node on the IndexedDB store and serves its own
 * page plus the followers' forwarded calls on the chain's BroadcastChannel.
 */
export class Leader {
  private readonly subscriptions = new Map<Caller, Subscriptions>()
  private readonly seen = new Set<string>()
  /** Only a persisted chain is shared between tabs; a memory chain belongs to its tab alone. */
  private readonly channel: BroadcastChannel | undefined

  private constructor(
    readonly node: Node,
    options: WorkerOptions,
    private readonly pushToPage: (message: SubscriptionMessage) => void,
    private readonly http: HttpRelay | undefined,
  ) {
    if (options.persist) {
      this.channel = new BroadcastChannel(channelNames(options.name).rpc)
      this.channel.onmessage = (event: MessageEvent<ChannelMessage>) => void this.onChannel(event.data)
    }
  }

  static async open(options: WorkerOptions, pushToPage: (message: SubscriptionMessage) => void): Promise<Leader> {
    // The HTTP relay starts before the chain loads: a request sent meanwhile waits, not fails.
    let loaded!: { resolve(node: Node): void; reject(error: unknown): void }
    const node = new Promise<Node>((resolve, reject) => (loaded = { resolve, reject }))
    const http = options.http ? new HttpRelay(options.name, node) : undefined
    let store: Store | undefined
    try {
      store = options.persist ? await IndexedDbStore.open(options.name, options.durability) : undefined
      loaded.resolve(await createNode({ chainId: options.chainId, mining: options.mining, store }))
      const leader = new Leader(await node, options, pushToPage, http)
      leader.announce()
      return leader
    } catch (error) {
      loaded.reject(error)
      http?.close()
      await store?.close()
      throw error
    }
  }

  /** Tells followers a (new) leader is up, so calls they could not deliver are sent again. */
  announce(): void {
    this.post({ type: 'leader', epoch: crypto.randomUUID() })
  }

  async call(method: string, params: unknown, caller: Caller): Promise<Outcome> {
    try {
      return { ok: true, result: await this.dispatch(method, params, caller) }
    } catch (error) {
      return { ok: false, error: toRpcError(error).toJSON() }
    }
  }

  private dispatch(method: string, params: unknown, caller: Caller): unknown {
    // Subscriptions need a way to push, which only this layer has (HTTP has none).
    if (method === 'eth_subscribe') return this.subscriptionsOf(caller).subscribe(params)
    if (method === 'eth_unsubscribe') return this.subscriptionsOf(caller).unsubscribe(Array.isArray(params) ? params[0] : undefined)
    return this.node.request({ method, params })
  }

  private subscriptionsOf(caller: Caller): Subscriptions {
    let subscriptions = this.subscriptions.get(caller)
    if (!subscriptions) {
      const push =
        caller === 'page'
          ? this.pushToPage
          : (message: SubscriptionMessage) => this.post({ type: 'subscription', tab: caller, ...message })
      subscriptions = new Subscriptions(this.node, push)
      this.subscriptions.set(caller, subscriptions)
    }
    return subscriptions
  }

  private async onChannel(message: ChannelMessage): Promise<void> {
    if (message.type !== 'call') return
    this.post({ type: 'ack', id: message.id })
    if (this.seen.has(message.id)) return
    this.remember(message.id)
    const [tab] = message.id.split('/')
    this.post({ type: 'outcome', id: message.id, outcome: await this.call(message.method, message.params, tab) })
  }

  private remember(id: string): void {
    this.seen.add(id)
    if (this.seen.size > REMEMBERED_CALLS) this.seen.delete(this.seen.values().next().value!)
  }

  private post(message: ChannelMessage): void {
    this.channel?.postMessage(message)
  }

  async close(): Promise<void> {
    this.http?.close()
    this.channel?.close()
    for (const subscriptions of this.subscriptions.values()) subscriptions.close()
    await this.node.close()
  }
}
