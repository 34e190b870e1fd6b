import type { ConsoleOutput } from '../core/node.ts'
import { ErrorCode } from '../core/errors.ts'
import { callRequesterWire, channelNames, type ChannelMessage, type ForwardedCall, type Outcome } from '../bridge/protocol.ts'
import { Requester, type Delivery } from '../bridge/reliableChannel.ts'
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

const failure = (code: number, message: string): Outcome => ({ ok: false, error: { code, message } })

/** What the page hears of a forwarded call of `method` that ended as `delivery`. */
function outcomeOf(method: string, delivery: Delivery<Outcome>): Outcome {
  switch (delivery.kind) {
    case 'answered':
      return delivery.answer
    case 'notTaken':
      return failure(ErrorCode.internal, `no pagenode leader answered for this chain within ${ACK_TIMEOUT_MS / 1000} s`)
    case 'outcomeUnknown':
      if (delivery.reason === 'timeout') return failure(ErrorCode.internal, `the leader did not answer ${method} within ${OUTCOME_TIMEOUT_MS / 1000} s`)
      return failure(ErrorCode.internal, `the pagenode leader changed while ${method} was running; its outcome is unknown`)
    case 'closed':
      return failure(4900, 'the node was stopped')
  }
}

/**
 * A tab whose worker is not the leader: its page's calls go to the leader over the chain's
 * BroadcastChannel (bridge/reliableChannel.ts: an id each, re-sent until acknowledged, then
 * awaited with a deadline). When another tab becomes the leader, calls the old one had taken have
 * an unknown fate: reads and eth_sendRawTransaction (idempotent by hash) are sent again as
 * `retried`, any other write fails rather than risk running twice (methodKinds.ts).
 */
export class Follower {
  private readonly channel: BroadcastChannel
  private readonly calls: Requester<ForwardedCall, Outcome, ChannelMessage>
  private closed = false

  constructor(
    name: string,
    private readonly tab: string,
    private readonly onSubscription: (subscription: string, result: unknown) => void,
    /** Another tab became the leader: subscriptions held by the old one are gone. */
    private readonly onLeaderChanged: () => void,
    /** No leader has taken a call for STALL_MS. */
    onStalled: () => void,
    /** The leader's eth_accounts changed. */
    private readonly onAccountsChanged: (accounts: string[]) => void = () => {},
    /** console.log printed in the leader's node. */
    private readonly onConsoleLog: (output: ConsoleOutput) => void = () => {},
  ) {
    this.channel = new BroadcastChannel(channelNames(name).rpc)
    // First: on a `leader` message, calls are sent again (or failed) before onLeaderChanged renews subscriptions.
    this.calls = new Requester(this.channel, callRequesterWire, {
      idPrefix: `${tab}/`,
      resendMs: RESEND_MS,
      takeWithinMs: ACK_TIMEOUT_MS,
      answerWithinMs: OUTCOME_TIMEOUT_MS,
      mayRunAgain: (call) => isRetrySafe(call.method),
      stall: { afterMs: STALL_MS, then: onStalled },
    })
    this.channel.addEventListener('message', (event: MessageEvent<ChannelMessage>) => this.onChannel(event.data))
  }

  async call(method: string, params: unknown): Promise<Outcome> {
    // Closed (handed over or stopped): its channel is gone, and posting on it would throw.
    if (this.closed) return failure(4900, 'this tab no longer follows: call the node again')
    return outcomeOf(method, await this.calls.request({ method, params }))
  }

  /**
   * This tab took over: every pending call goes to `run` instead, except one a leader had
   * taken that is not safe to repeat (its fate is unknown, so it fails). Closes the follower.
   */
  handOver(run: Runner): void {
    this.calls.handOver((call, retried) => run(call.method, call.params, retried))
    this.close()
  }

  private onChannel(message: ChannelMessage): void {
    if (message.type === 'subscription' && message.tab === this.tab) this.onSubscription(message.subscription, message.result)
    else if (message.type === 'leader') this.onLeaderChanged()
    else if (message.type === 'accounts') this.onAccountsChanged(message.accounts)
    else if (message.type === 'consoleLog') this.onConsoleLog(message.output)
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.calls.close()
    this.channel.close()
  }
}
