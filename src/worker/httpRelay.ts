/**
 * The node worker's half of the HTTP endpoint: answers the service worker's requests for one
 * chain on the chain's http BroadcastChannel with the core's JSON-RPC envelope (`handleText`:
 * batches, notifications, -32700, the size limit).
 *
 * Exactly one relay per chain name answers, whichever tab it is in: it listens only while it
 * holds the chain's http Web Lock. For a persisted chain that is the leader anyway; for memory
 * chains (one per tab) it keeps a second tab's chain from answering requests meant for the first.
 * The lock is asked for before the node loads, so the service worker can tell "starting" from
 * "no node" (it looks for the lock) and waits instead of failing a request sent during a boot.
 */
import {
  ACK_DELAY_MS,
  errorResponseFor,
  HTTP_PROTOCOL,
  httpChannelName,
  httpLockName,
  httpResponderWire,
  type HttpMessage,
  type HttpRequestMessage,
} from '../bridge/http.ts'
import { HttpErrorCode } from '../bridge/httpRules.ts'
import { Responder } from '../bridge/reliableChannel.ts'
import { isRead } from './methodKinds.ts'

/** Whether every call of a request is a read (methodKinds.ts); a body that does not parse counts as not. */
function readsOnly({ body, pathMethod }: HttpRequestMessage): boolean {
  if (pathMethod !== undefined) return isRead(pathMethod)
  try {
    const parsed: unknown = JSON.parse(body)
    const calls = Array.isArray(parsed) ? parsed : [parsed]
    return calls.every((call) => typeof (call as { method?: unknown })?.method === 'string' && isRead((call as { method: string }).method))
  } catch {
    return false
  }
}

/** What the relay needs of the node. */
export interface TextHandler {
  handleText(text: string, pathMethod?: string): Promise<string | undefined>
}

export class HttpRelay {
  readonly id = crypto.randomUUID()
  private channel: BroadcastChannel | undefined
  /** Takes the requests on the channel (bridge/reliableChannel.ts): each id runs once. */
  private requests: Responder<HttpRequestMessage, string | null, HttpMessage> | undefined
  private release: (() => void) | undefined
  private closed = false
  /** Withdraws a lock request still waiting, so a closed relay stops counting as a node. */
  private readonly abandon = new AbortController()
  /** Resolves once this relay holds the lock and listens (never, while another tab's relay does). */
  readonly listening: Promise<void>

  /**
   * `node` may still be loading: requests are taken at once and answered when it is ready.
   * `steal`: take the endpoint from the relay holding it (a leader that stopped answering, whose
   * chain this tab took over); that relay stops answering once it runs again.
   */
  constructor(
    private readonly name: string,
    private readonly node: Promise<TextHandler>,
    { steal = false }: { steal?: boolean } = {},
  ) {
    // A node that failed to load is reported by whoever awaits it; here it only fails requests.
    node.catch(() => {})
    this.listening = new Promise((resolve) => {
      let held = false
      navigator.locks
        .request(httpLockName(name), steal ? { steal: true } : { signal: this.abandon.signal }, () => {
          if (this.closed) return undefined
          held = true
          this.listen()
          resolve()
          return new Promise<void>((release) => (this.release = release))
        })
        // Once held, a rejection means another relay stole the lock: it answers now.
        .catch(() => held && this.close())
    })
  }

  private listen(): void {
    this.channel = new BroadcastChannel(httpChannelName(this.name))
    this.requests = new Responder(this.channel, httpResponderWire(this.id), {
      run: (request) => this.answer(request),
      // The response says "taken" by itself: only an answer that takes a while is acknowledged first.
      // Not a write: were this relay gone before acknowledging, the service worker would send it to
      // the next one, and it could run twice; acknowledged, the caller hears "outcome unknown".
      ackAfterMs: (request) => (readsOnly(request) ? ACK_DELAY_MS : 0),
    })
    // Requests already waiting (sent while no relay listened) are re-sent at once on this.
    this.channel.postMessage({ type: 'up', relay: this.id, protocol: HTTP_PROTOCOL } satisfies HttpMessage)
  }

  private async answer(message: HttpRequestMessage): Promise<string | null> {
    if (message.protocol !== HTTP_PROTOCOL) {
      return errorResponseFor(
        message.body,
        HttpErrorCode.internal,
        `the pagenode service worker script speaks protocol ${message.protocol} but this page's pagenode speaks ` +
          `protocol ${HTTP_PROTOCOL}: update the script (pagenode/vite emits it; otherwise run npx pagenode init <public dir>)`,
      )
    }
    try {
      const node = await this.node
      return (await node.handleText(message.body, message.pathMethod)) ?? null
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      return errorResponseFor(message.body, HttpErrorCode.internal, `the pagenode node could not answer: ${reason}`)
    }
  }

  /** Stops answering and hands the lock (and so the endpoint) to the next tab waiting for it. */
  close(): void {
    this.closed = true
    this.abandon.abort()
    this.requests?.close()
    this.channel?.close()
    this.channel = undefined
    this.release?.()
  }
}
