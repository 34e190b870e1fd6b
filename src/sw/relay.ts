/**
 * The service worker's half of the relay: requests to the chain's leader node worker over a
 * BroadcastChannel (bridge/reliableChannel.ts: an id each, re-sent until a relay acknowledges or
 * answers it, first answer wins). One channel per chain name, opened by the first request and kept
 * by this global scope, carries every request, with a table of those in flight by id (a channel
 * per request cost a new connection each time, and each of N concurrent ones heard all N
 * responses). Chromium stops a service worker that has been idle a while and its memory goes with
 * it, the channel included: the next request, in a fresh global scope, opens it again.
 */
import {
  errorResponseFor,
  httpChannelName,
  httpRequesterWire,
  lockPrefix,
  RESEND_MS,
  type HttpCall,
  type HttpMessage,
} from '../bridge/http.ts'
import { HttpErrorCode } from '../bridge/httpRules.ts'
import { Requester, type Delivery } from '../bridge/reliableChannel.ts'

/** With no lock of the chain held or asked for after this long, no node is coming: say so. */
const NO_NODE_GRACE_MS = 1_000
/** A node that exists (its lock is held) but is still loading gets this long to take a request. */
const ACK_DEADLINE_MS = 30_000
/** A taken request may run this long. Chromium kills a fetch event after 5 minutes anyway. */
const RESPONSE_DEADLINE_MS = 120_000
/** How often a taken request checks that its node (its tab) still exists. */
const PRESENCE_CHECK_MS = 1_000

const links = new Map<string, Requester<HttpCall, string | null, HttpMessage>>()

/**
 * Ids differ across this worker's restarts (a random prefix per global scope), not only within
 * one: a relay remembers the ids it took and would not run a repeated one.
 */
const idPrefix = `${crypto.randomUUID()}:`

function linkTo(name: string): Requester<HttpCall, string | null, HttpMessage> {
  let link = links.get(name)
  if (!link) {
    link = new Requester(new BroadcastChannel(httpChannelName(name)), httpRequesterWire, {
      idPrefix,
      resendMs: RESEND_MS,
      takeWithinMs: ACK_DEADLINE_MS,
      answerWithinMs: RESPONSE_DEADLINE_MS,
      // This end cannot tell what a request does: one a relay took (writes at once, slow reads
      // later: worker/httpRelay.ts) is never sent to another relay, its outcome is unknown.
      mayRunAgain: () => false,
      presence: { graceMs: NO_NODE_GRACE_MS, everyMs: PRESENCE_CHECK_MS, exists: () => nodeExists(name) },
    })
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
 * Sends the request text to whichever relay holds the chain and resolves with the first response
 * (text, or null for "nothing to send"). Resolves with a JSON-RPC error, never rejects and never
 * goes to the network, when no node answers.
 */
export async function relayToNode(target: RelayTarget, body: string, pathMethod: string | undefined): Promise<string | null> {
  const delivery = await linkTo(target.name).request(pathMethod === undefined ? { body } : { body, pathMethod })
  if (delivery.kind === 'answered') return delivery.answer
  return errorResponseFor(body, HttpErrorCode.internal, failureMessage(target, delivery))
}

function failureMessage({ name, baseUrl }: RelayTarget, delivery: Exclude<Delivery<unknown>, { kind: 'answered' }>): string {
  switch (delivery.kind) {
    case 'notTaken':
      if (delivery.reason === 'noResponder') {
        return (
          `no pagenode node is running for "${name}" on ${self.location.origin}: ` +
          `this service worker answers ${baseUrl} by relaying to a page of the site that runs startNode({ name: '${name}' }), and none is open`
        )
      }
      return `the pagenode node for "${name}" did not take the request within ${ACK_DEADLINE_MS / 1000} s`
    case 'outcomeUnknown':
      if (delivery.reason === 'timeout') return `the pagenode node for "${name}" did not answer within ${RESPONSE_DEADLINE_MS / 1000} s`
      if (delivery.reason === 'responderGone') {
        return `the pagenode node for "${name}" went away (its tab closed) before answering; the request's outcome is unknown`
      }
      // One relay per chain (it holds a lock): a new one means the one running this is gone.
      return `the pagenode node for "${name}" restarted while handling this request; its outcome is unknown`
    case 'closed':
      return `the pagenode service worker stopped relaying for "${name}"`
  }
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
