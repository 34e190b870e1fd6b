import type { Outcome } from '../bridge/protocol.ts'

/** Runs a call on whichever leader serves this tab now. */
export type Upstream = (method: string, params: unknown) => Promise<Outcome>

interface PageSubscription {
  params: unknown
  /** The id the current leader knows it by; undefined while it is being renewed. */
  upstream: string | undefined
}

/**
 * The page's subscriptions, kept by its own worker. A subscription lives in the leader, and dies
 * with it; this keeps what the page subscribed to, makes it again on each new leader, and maps
 * the new leader's ids back to the ids the page was given, so the page never notices.
 * Notifications of blocks mined while no leader was serving are not replayed.
 */
export class PageSubscriptions {
  private readonly byId = new Map<string, PageSubscription>()
  private readonly byUpstream = new Map<string, string>()
  /** Bumped on every renewal, so the answers of an overtaken one are ignored. */
  private generation = 0

  constructor(private readonly toPage: (subscription: string, result: unknown) => void) {}

  async subscribe(params: unknown, upstream: Upstream): Promise<Outcome> {
    const generation = this.generation
    const outcome = await upstream('eth_subscribe', params)
    if (!outcome.ok) return outcome
    const id = outcome.result as string
    const subscription: PageSubscription = { params, upstream: undefined }
    this.byId.set(id, subscription)
    if (generation === this.generation) {
      subscription.upstream = id
      this.byUpstream.set(id, id)
    } else {
      // The leader changed meanwhile: which one made it is unknown, so make it on the new one.
      await this.renewOne(id, subscription, upstream, this.generation)
    }
    return outcome
  }

  async unsubscribe(params: unknown, upstream: Upstream): Promise<Outcome> {
    const [id] = Array.isArray(params) ? params : []
    const key = typeof id === 'string' ? id.toLowerCase() : undefined
    const subscription = key === undefined ? undefined : this.byId.get(key)
    // Not one of ours: let the node give its answer (false, or a params error).
    if (!subscription) return upstream('eth_unsubscribe', params)
    this.byId.delete(key!)
    if (subscription.upstream !== undefined) {
      this.byUpstream.delete(subscription.upstream)
      await upstream('eth_unsubscribe', [subscription.upstream])
    }
    return { ok: true, result: true }
  }

  /** A notification from the leader, under its id. */
  deliver(upstreamId: string, result: unknown): void {
    const id = this.byUpstream.get(upstreamId)
    if (id !== undefined) this.toPage(id, result)
  }

  /** The leader changed: its subscriptions died with it; make every one again on the new one. */
  async renew(upstream: Upstream): Promise<void> {
    const generation = ++this.generation
    this.byUpstream.clear()
    // All at once: each is in the new leader's queue before calls that come later.
    await Promise.all([...this.byId].map(([id, subscription]) => this.renewOne(id, subscription, upstream, generation)))
  }

  private async renewOne(id: string, subscription: PageSubscription, upstream: Upstream, generation: number): Promise<void> {
    subscription.upstream = undefined
    const outcome = await upstream('eth_subscribe', subscription.params)
    if (!outcome.ok || generation !== this.generation) return
    const renewed = outcome.result as string
    if (this.byId.get(id) !== subscription) {
      // Unsubscribed while this was under way.
      await upstream('eth_unsubscribe', [renewed])
      return
    }
    subscription.upstream = renewed
    this.byUpstream.set(renewed, id)
  }
}
