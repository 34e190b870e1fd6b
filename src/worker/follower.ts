import { ErrorCode } from '../core/rpc/errors.ts'
import { channelNames, type ChannelMessage, type Outcome } from '../bridge/protocol.ts'

/** How often an unacknowledged call is sent again (BroadcastChannel drops what nobody hears). */
const RESEND_MS = 100
/** How long to wait for any leader to take a call. */
const ACK_TIMEOUT_MS = 5_000
/** How long a taken call may run. */
const OUTCOME_TIMEOUT_MS = 120_000

interface PendingCall {
  method: string
  params: unknown
  acked: boolean
  settle(outcome: Outcome): void
  timer: ReturnType<typeof setInterval>
}

const failure = (code: number, message: string): Outcome => ({ ok: false, error: { code, message } })

/**
 * A tab whose worker is not the leader: its page's calls go to the leader over the chain's
 * BroadcastChannel, each with an id, re-sent until acknowledged, then awaited with a deadline.
 */
export class Follower {
  private readonly channel: BroadcastChannel
  private readonly pending = new Map<string, PendingCall>()
  private sequence = 0

  constructor(
    name: string,
    private readonly tab: string,
    private readonly onSubscription: (subscription: string, result: unknown) => void,
  ) {
    this.channel = new BroadcastChannel(channelNames(name).rpc)
    this.channel.onmessage = (event: MessageEvent<ChannelMessage>) => this.onChannel(event.data)
  }

  call(method: string, params: unknown): Promise<Outcome> {
    const id = `${this.tab}/${this.sequence++}`
    return new Promise((resolve) => {
      const started = Date.now()
      const send = () => this.channel.postMessage({ type: 'call', id, method, params } satisfies ChannelMessage)
      const call: PendingCall = {
        method,
        params,
        acked: false,
        settle: (outcome) => {
          clearInterval(call.timer)
          this.pending.delete(id)
          resolve(outcome)
        },
        timer: setInterval(() => {
          const waited = Date.now() - started
          if (!call.acked && waited > ACK_TIMEOUT_MS) {
            call.settle(failure(ErrorCode.internal, `no pagenode leader answered for this chain within ${ACK_TIMEOUT_MS / 1000} s`))
          } else if (call.acked && waited > OUTCOME_TIMEOUT_MS) {
            call.settle(failure(ErrorCode.internal, `the leader did not answer ${method} within ${OUTCOME_TIMEOUT_MS / 1000} s`))
          } else if (!call.acked) {
            send()
          }
        }, RESEND_MS),
      }
      this.pending.set(id, call)
      send()
    })
  }

  /**
   * The leader changed (this tab took over, or another did). Calls the old leader had taken
   * have an unknown fate: reads and eth_sendRawTransaction (idempotent by hash) are handed to
   * `retry`; any other write is failed rather than risk running it twice.
   */
  leaderChanged(retry: ((method: string, params: unknown) => Promise<Outcome>) | undefined): void {
    for (const call of [...this.pending.values()]) {
      if (!call.acked) continue
      if (retry && isRetrySafe(call.method)) {
        void retry(call.method, call.params).then(call.settle)
      } else if (retry || !isRetrySafe(call.method)) {
        call.settle(failure(ErrorCode.internal, `the pagenode leader changed while ${call.method} was running; its outcome is unknown`))
      } else {
        call.acked = false // re-sent until the new leader takes it
      }
    }
  }

  private onChannel(message: ChannelMessage): void {
    switch (message.type) {
      case 'ack': {
        const call = this.pending.get(message.id)
        if (call) call.acked = true
        return
      }
      case 'outcome':
        this.pending.get(message.id)?.settle(message.outcome)
        return
      case 'subscription':
        if (message.tab === this.tab) this.onSubscription(message.subscription, message.result)
        return
      case 'leader':
        this.leaderChanged(undefined)
        return
    }
  }

  close(): void {
    for (const call of [...this.pending.values()]) call.settle(failure(4900, 'the node was stopped'))
    this.channel.close()
  }
}

/** Methods whose repetition cannot change anything a second time. */
export function isRetrySafe(method: string): boolean {
  if (method === 'eth_sendRawTransaction') return true
  return !/^(eth_send|eth_sign|personal_|evm_|anvil_|hardhat_|wallet_|zks_send|unstable_send|eth_subscribe|eth_unsubscribe|eth_newFilter|eth_newBlockFilter|eth_newPendingTransactionFilter|eth_uninstallFilter|eth_getFilterChanges)/.test(
    method,
  )
}
