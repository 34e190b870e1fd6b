/**
 * The service worker's half of the relay: requests to the chain's leader node worker over a
 * BroadcastChannel. One channel per chain name, opened by the first request and kept by this
 * global scope, carries every request, with a table of those in flight by id (a channel per
 * request cost a new connection each time, and each of N concurrent ones heard all N responses).
 * Chromium stops a service worker that has been idle a while and its memory goes with it, the
 * channel included: the next request, in a fresh global scope, opens it again.
 */
import { errorResponseFor, HTTP_PROTOCOL, HttpErrorCode, httpChannelName, lockPrefix, RESEND_MS, type HttpMessage } from '../bridge/http.ts'

/** With no lock of the chain held or asked for after this long, no node is coming: say so. */
const NO_NODE_GRACE_MS = 1_000
/** A node that exists (its lock is held) but is still loading gets this long to take a request. */
const ACK_DEADLINE_MS = 30_000
/** A taken request may run this long. Chromium kills a fetch event after 5 minutes anyway. */
const RESPONSE_DEADLINE_MS = 120_000
/** How often a taken request checks that its node (its tab) still exists. */
const PRESENCE_CHECK_MS = 1_000

/** A channel of one chain and the requests waiting on it, each told its own messages and every `up`. */
interface Link {
  channel: BroadcastChannel
  waiting: Map<string, (message: HttpMessage) => void>
}
const links = new Map<string, Link>()

/**
 * Ids differ across this worker's restarts (a random prefix per global scope), not only within
 * one: a relay remembers the ids it took and would not run a repeated one.
 */
const idPrefix = crypto.randomUUID()
let requests = 0

function linkTo(name: string): Link {
  let link = links.get(name)
  if (!link) {
    const channel = new BroadcastChannel(httpChannelName(name))
    const waiting: Link['waiting'] = new Map()
    channel.onmessage = (event: MessageEvent<HttpMessage>) => {
      const message = event.data
      if (message.type === 'up') for (const listener of waiting.values()) listener(message)
      else waiting.get(message.id)?.(message)
    }
    link = { channel, waiting }
    links.set(name, link)
  }
  return link
}

export interface RelayTarget {
  name: string
  /** For the messages only: the base URL the request came in on. */
  baseUrl: string
}

/**
 * Sends the request text to whichever relay holds the chain, re-sending until one acknowledges or
 * answers, and resolves with the first response (text, or null for "nothing to send"). Resolves with a
 * JSON-RPC error, never rejects and never goes to the network, when no node answers.
 */
export function relayToNode(target: RelayTarget, body: string, pathMethod: string | undefined): Promise<string | null> {
  const { channel, waiting } = linkTo(target.name)
  const id = `${idPrefix}:${++requests}`
  const request: HttpMessage = { type: 'request', protocol: HTTP_PROTOCOL, id, body, ...(pathMethod === undefined ? {} : { pathMethod }) }
  const send = () => channel.postMessage(request)
  const started = Date.now()

  return new Promise((resolve) => {
    let takenBy: string | undefined
    let takenAt = 0
    let lastPresenceCheck = 0
    let checking = false
    let done = false

    const finish = (text: string | null) => {
      if (done) return
      done = true
      clearInterval(timer)
      waiting.delete(id)
      resolve(text)
    }
    const fail = (message: string) => finish(errorResponseFor(body, HttpErrorCode.internal, message))

    waiting.set(id, (message) => {
      if (message.type === 'up') {
        if (takenBy === undefined) send()
        // One relay per chain (it holds a lock): a new one means the one running this is gone.
        else if (message.relay !== takenBy) fail(`the pagenode node for "${target.name}" restarted while handling this request; its outcome is unknown`)
        return
      }
      if (message.type === 'ack' && takenBy === undefined) {
        takenBy = message.relay
        takenAt = Date.now()
      } else if (message.type === 'response') {
        finish(message.body)
      }
    })

    const tick = async () => {
      const now = Date.now()
      if (takenBy === undefined) {
        send()
        if (now - started > ACK_DEADLINE_MS) {
          return fail(`the pagenode node for "${target.name}" did not take the request within ${ACK_DEADLINE_MS / 1000} s`)
        }
        if (now - started > NO_NODE_GRACE_MS && !(await nodeExists(target.name))) return fail(noNodeMessage(target))
        return
      }
      if (now - takenAt > RESPONSE_DEADLINE_MS) {
        return fail(`the pagenode node for "${target.name}" did not answer within ${RESPONSE_DEADLINE_MS / 1000} s`)
      }
      if (now - lastPresenceCheck > PRESENCE_CHECK_MS) {
        lastPresenceCheck = now
        if (!(await nodeExists(target.name))) {
          fail(`the pagenode node for "${target.name}" went away (its tab closed) before answering; the request's outcome is unknown`)
        }
      }
    }
    // Lock queries are async; one at a time, so a slow one cannot pile up behind the interval.
    const timer = setInterval(() => {
      if (checking || done) return
      checking = true
      void tick().finally(() => (checking = false))
    }, RESEND_MS)
    send()
  })
}

function noNodeMessage(target: RelayTarget): string {
  return (
    `no pagenode node is running for "${target.name}" on ${self.location.origin}: ` +
    `this service worker answers ${target.baseUrl} by relaying to a page of the site that runs startNode({ name: '${target.name}' }), and none is open`
  )
}

/**
 * Whether a node of the chain is running or starting: its relay holds the chain's http lock from
 * before it loads, and a persisted chain's tabs hold or wait for its leader lock. Web Locks are
 * shared by every context of the origin, the service worker included, and vanish with their tab.
 */
async function nodeExists(name: string): Promise<boolean> {
  const prefix = lockPrefix(name)
  const { held = [], pending = [] } = await navigator.locks.query()
  return [...held, ...pending].some((lock) => lock.name?.startsWith(prefix))
}
