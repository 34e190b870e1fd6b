/**
 * What the service worker, the page library and the leader's HTTP relay agree on. The service
 * worker script is built from this file too, so it must stay free of node code and imports.
 *
 * HTTP_PROTOCOL changes whenever any message below changes shape. The page checks the script's
 * protocol in a handshake, the script checks the page's (from its registration URL) and the relay
 * checks each request's: a stale `/pagenode-sw.js` copy is reported, never misread.
 */
export const HTTP_PROTOCOL = 1

/** Where startNode looks for the script by default: the site root, so its scope covers every page. */
export const DEFAULT_SCRIPT_URL = '/pagenode-sw.js'
export const SCRIPT_FILE_NAME = 'pagenode-sw.js'

/** The default request-size limit (the core's DEFAULT_LIMITS.maxRequestBytes; a test keeps them equal). */
export const MAX_REQUEST_BYTES = 5 * 1024 * 1024

/** How often the service worker re-sends a request nobody took: the channel drops what nobody hears. */
export const RESEND_MS = 100

/**
 * A relay says it took a request only when the answer is not ready this soon: a quick answer
 * (most calls) is then two messages on the channel, not three. Well under RESEND_MS, so a slow
 * answer is acknowledged before the service worker sends the request again.
 */
export const ACK_DELAY_MS = 20

/** The BroadcastChannel the service worker and the relay talk on; one per chain name. */
export const httpChannelName = (name: string): string => `pagenode:${name}:http`

/**
 * Every Web Lock of one chain starts with this. The service worker looks for one (held or asked
 * for) to tell "a node is running or starting" from "no node at all" without keeping any state.
 */
export const lockPrefix = (name: string): string => `pagenode:${name}:`

/** The lock a chain's relay holds, so that exactly one tab answers HTTP for a name. */
export const httpLockName = (name: string): string => `pagenode:${name}:http`

/**
 * Held by a page from the moment it calls startNode until its node is up: a request sent in
 * between (before the worker has even loaded) is then waited for, not failed as "no node".
 */
export const startingLockName = (name: string): string => `pagenode:${name}:starting`

/** Messages on the http channel. `request` and `response` keep their shape across protocols. */
export type HttpMessage =
  /** Service worker → relays. Re-sent until acknowledged or answered: the channel does not buffer. */
  | { type: 'request'; protocol: number; id: string; body: string; pathMethod?: string }
  /** Relay → service worker: taken (after ACK_DELAY_MS without an answer, and at once for a re-sent copy; the request runs once). */
  | { type: 'ack'; id: string; relay: string }
  /** The response text, or null when there is nothing to send (notifications). */
  | { type: 'response'; id: string; relay: string; body: string | null }
  /** A relay started listening: requests waiting for one are sent again at once. */
  | { type: 'up'; relay: string; protocol: number }

/** Page → service worker, by postMessage with a MessagePort for the reply. */
export type ControlMessage = { type: 'pagenode:claim' } | { type: 'pagenode:hello'; protocol: number }

/** The service worker's answer to `pagenode:hello`. */
export interface HelloReply {
  type: 'pagenode:hello'
  protocol: number
  /** The pagenode version the script was built from. */
  version: string
  name: string
  baseUrls: string[]
}

/** What a service worker's registration URL carries (it keeps nothing else between events). */
export interface ServiceWorkerConfig {
  /** The protocol the registering page speaks. */
  protocol: number
  name: string
  /** Absolute base URLs without a trailing slash. */
  baseUrls: string[]
}

/** The script URL to register: the config rides in the query, so a changed config is an update. */
export function serviceWorkerUrl(script: string, config: ServiceWorkerConfig, pageUrl: string): URL {
  const url = new URL(script, pageUrl)
  url.searchParams.set('protocol', String(config.protocol))
  url.searchParams.set('name', config.name)
  for (const base of config.baseUrls) url.searchParams.append('base', base)
  return url
}

export function readServiceWorkerConfig(scriptUrl: string): ServiceWorkerConfig {
  const { searchParams } = new URL(scriptUrl)
  return {
    protocol: Number(searchParams.get('protocol') ?? NaN),
    name: searchParams.get('name') ?? 'pagenode',
    baseUrls: searchParams.getAll('base'),
  }
}

/**
 * A base URL made absolute (against the page) and without a trailing slash, so that matching is
 * a string comparison. Refuses what could never be an endpoint, and the site root itself: the
 * service worker would then answer every request of the site, the app's own files included.
 */
export function normalizeBaseUrl(base: string, pageUrl: string): string {
  let url: URL
  try {
    url = new URL(base, pageUrl)
  } catch {
    throw new TypeError(`pagenode: base URL ${JSON.stringify(base)} is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`pagenode: base URL ${base} must be http(s)`)
  }
  if (url.search !== '' || url.hash !== '') throw new TypeError(`pagenode: base URL ${base} must not have a query or fragment`)
  const path = url.pathname.replace(/\/+$/, '')
  if (path === '' && url.origin === new URL(pageUrl).origin) {
    throw new TypeError(`pagenode: base URL ${base} is the site root; the service worker would answer the site's own files (use e.g. '/rpc')`)
  }
  return url.origin + path
}

/** Which endpoint a request URL hits, if any. */
export type EndpointMatch =
  /** `{base}` or `{base}/`: the method is in the body. */
  | { kind: 'root' }
  /** `{base}/<method>`. */
  | { kind: 'method'; method: string }
  /** Under a base but not an endpoint (`{base}/a/b`, a bad escape): answered 404, never sent out. */
  | { kind: 'other' }

/** Matches by origin and path (the query is ignored); undefined when no base covers the URL. */
export function matchEndpoint(requestUrl: string, baseUrls: readonly string[]): EndpointMatch | undefined {
  const url = new URL(requestUrl)
  const target = url.origin + url.pathname
  for (const base of baseUrls) {
    if (target !== base && !target.startsWith(`${base}/`)) continue
    const rest = target.slice(base.length).split('/').filter((segment) => segment !== '')
    if (rest.length === 0) return { kind: 'root' }
    if (rest.length > 1) return { kind: 'other' }
    try {
      return { kind: 'method', method: decodeURIComponent(rest[0]) }
    } catch {
      return { kind: 'other' }
    }
  }
  return undefined
}

/**
 * A JSON-RPC error answer for a request that never reached the node (no node, a stale script, a
 * deadline). It echoes the request's ids where it can read them, so a client waiting for `id: 7`
 * (or a batch) gets its own ids back; notifications get nothing, as the node would answer.
 */
export function errorResponseFor(requestText: string, code: number, message: string): string | null {
  const error = { code, message }
  let body: unknown
  try {
    body = JSON.parse(requestText)
  } catch {
    return JSON.stringify({ jsonrpc: '2.0', id: null, error })
  }
  const idOf = (call: unknown): { id: unknown } | undefined => {
    if (typeof call !== 'object' || call === null || Array.isArray(call)) return { id: null }
    return 'id' in call ? { id: (call as { id: unknown }).id } : undefined
  }
  if (Array.isArray(body)) {
    if (body.length === 0) return JSON.stringify({ jsonrpc: '2.0', id: null, error })
    const answers = body.flatMap((call) => {
      const id = idOf(call)
      return id ? [{ jsonrpc: '2.0', ...id, error }] : []
    })
    return answers.length > 0 ? JSON.stringify(answers) : null
  }
  const id = idOf(body)
  return id ? JSON.stringify({ jsonrpc: '2.0', ...id, error }) : null
}

/** The error codes the HTTP path answers with on its own (the node's are in core/errors.ts). */
export const HttpErrorCode = {
  invalidRequest: -32600,
  internal: -32603,
} as const
