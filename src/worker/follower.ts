import { ErrorCode } from '../core/errors.ts'
import { channelNames, type ChannelMessage, type Outcome } from '../bridge/protocol.ts'
import { isRetrySafe } from './methodKinds.ts'

/** How often an unacknowledged call is sent again (BroadcastChannel drops what nobody hears). */
const RESEND_MS = 100
/**
 * A leader that takes no call for this long, while it holds the lock, has stopped answering
 * (frozen, hung): this tab takes the chain from it. No heartbeat: a busy leader could not send
 * one either, and a starting one takes calls at once (leader.ts), so calls say it as well.
 */
const STALL_MS = 5_000
/** How long to wait for any leader (a new one included) to take a call before failing it. */
const ACK_TIMEOUT_MS = 20_000
/** How long a taken call may run. */
const OUTCOME_TIMEOUT_MS = 120_000

/** Runs a call somewhere else; `retried` says an earlier leader may have run it already. */
export type Runner = (method: string, params: unknown, retried: boolean) => Promise<Outcome>

interface PendingCall {
  method: string
  params: unknown
  /** A leader took it (and may have run it, even if it never answered). */
  acked: boolean
  retried: boolean
  since: number
  settle(outcome: Outcome): void
}

const failure = (code: number, message: string): Outcome => ({ ok: false, error: { code, message } })

const unknownFate = (method: string) =>
  failure(ErrorCode.internal, `the pagenode leader changed while ${method} was running; its outcome is unknown`)

/**
 * A tab whose worker is not the leader: its page's calls go to the leader over the chain's
 * BroadcastChannel, each with an id, re-sent until acknowledged, then awaited with a deadline.
 */
export class Follower {
  private readonly channel: BroadcastChannel
  private readonly pending = new Map<string, PendingCall>()
  private readonly timer: ReturnType<typeof setInterval>
  private sequence = 0
  private closed = false

  constructor(
    name: string,
    private readonly tab: string,
    private readonly onSubscription: (subscription: string, result: unknown) => void,
    /** Another tab became the leader: subscriptions held by the old one are gone. */
    private readonly onLeaderChanged: () => void,
    /** No leader has taken a call for STALL_MS. */
    private readonly onStalled: () => void,
    /** The leader's eth_accounts changed. */
    private readonly onAccountsChanged: (accounts: string[]) => void = () => {},
  ) {
    this.channel = new BroadcastChannel(channelNames(name).rpc)
    this.channel.onmessage = (event: MessageEvent<ChannelMessage>) => this.onChannel(event.data)
    this.timer = setInterval(() => this.tick(), RESEND_MS)
  }

  call(method: string, params: unknown): Promise<Outcome> {
    // Closed (handed over or stopped): its channel is gone, and posting on it would throw.
    if (this.closed) return Promise.resolve(failure(4900, 'this tab no longer follows: call the node again'))
    const id = `${this.tab}/${this.sequence++}`
    return new Promise((resolve) => {
      this.pending.set(id, {
        method,
        params,
        acked: false,
        retried: false,
        since: Date.now(),
        settle: (outcome) => {
          this.pending.delete(id)
          resolve(outcome)
        },
      })
      this.send(id)
    })
  }

  /**
   * This tab took over: every pending call goes to `run` instead, except one a leader had
   * taken that is not safe to repeat (its fate is unknown, so it fails). Closes the follower.
   */
  handOver(run: Runner): void {
    for (const call of this.pending.values()) {
      if (call.acked && !isRetrySafe(call.method)) call.settle(unknownFate(call.method))
      else void run(call.method, call.params, call.acked || call.retried).then(call.settle)
    }
    this.pending.clear()
    this.close()
  }

  private send(id: string): void {
    const call = this.pending.get(id)
    if (call) this.channel.postMessage({ type: 'call', id, method: call.method, params: call.params, retried: call.retried } satisfies ChannelMessage)
  }

  private tick(): void {
    const now = Date.now()
    let stalled = false
    for (const [id, call] of this.pending) {
      if (call.acked) {
        if (now - call.since > OUTCOME_TIMEOUT_MS) {
          call.settle(failure(ErrorCode.internal, `the leader did not answer ${call.method} within ${OUTCOME_TIMEOUT_MS / 1000} s`))
        }
      } else if (now - call.since > ACK_TIMEOUT_MS) {
        call.settle(failure(ErrorCode.internal, `no pagenode leader answered for this chain within ${ACK_TIMEOUT_MS / 1000} s`))
      } else {
        stalled ||= now - call.since > STALL_MS
        this.send(id)
      }
    }
    if (stalled) this.onStalled()
  }

  /**
   * Another tab became the leader. Calls the old one had taken have an unknown fate: reads and
   * eth_sendRawTransaction (idempotent by hash) are sent again, any other write fails rather
   * than risk running twice.
   */
  private leaderChanged(): void {
    for (const [id, call] of this.pending) {
      if (!call.acked) continue
      if (!isRetrySafe(call.method)) {
        call.settle(unknownFate(call.method))
        continue
      }
      call.acked = false
      call.retried = true
      call.since = Date.now()
      this.send(id)
    }
    this.onLeaderChanged()
  }

  private onChannel(message: ChannelMessage): void {
    switch (message.type) {
      case 'ack': {
        const call = this.pending.get(message.id)
        if (call && !call.acked) {
          call.acked = true
          call.since = Date.now()
        }
        return
      }
      case 'outcome':
        this.pending.get(message.id)?.settle(message.outcome)
        return
      case 'subscription':
        if (message.tab === this.tab) this.onSubscription(message.subscription, message.result)
        return
      case 'leader':
        this.leaderChanged()
        return
      case 'accounts':
        this.onAccountsChanged(message.accounts)
        return
    }
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    clearInterval(this.timer)
    for (const call of [...this.pending.values()]) call.settle(failure(4900, 'the node was stopped'))
    this.channel.close()
  }
}

