/**
 * The HTTP rules of the JSON-RPC endpoint, written once for its two servers: the CLI's (Node's
 * http, cli/rpcServer.ts) and the service worker's (fetch events, sw/serviceWorker.ts), which
 * answer alike (docs/cli.md and docs/http-endpoint.md, "Over HTTP"):
 *
 * - `POST {base}/` (the method in the body) and `POST {base}/<method>` (the method from the path,
 *   used when the body names none) are served; deeper paths get 404, other verbs 405 with
 *   `Allow`, `OPTIONS` a 204 preflight; every answer a JSON-RPC body where it has one;
 * - every JSON-RPC answer, errors included, is HTTP 200 `application/json`; CORS headers on every
 *   answer, because the caller may be on any origin;
 * - a body over the size limit is refused (a declared Content-Length before reading, a streamed
 *   body as soon as it passes the limit); the Content-Type is not checked; the body is UTF-8 and
 *   a byte-order mark is kept, so that it is not JSON (-32700, from the core's `handleText`).
 *
 * Pure functions on plain values, no Node http and no fetch types: each server has a thin adapter
 * (cli/rpcServer.ts and cli/requestBody.ts; sw/responses.ts and sw/requestBody.ts). The service
 * worker script is built from this file too: it must stay free of node code.
 */

/** The error codes the HTTP layer answers with on its own (the node's are the core's). */
export const HttpErrorCode = {
  invalidRequest: -32600,
  internal: -32603,
} as const

/** What a path below a base is. */
export type EndpointPath =
  /** `{base}` or `{base}/`: the method is in the body. */
  | { kind: 'root' }
  /** `{base}/<method>`, decoded. */
  | { kind: 'method'; method: string }
  /** Under the base but not an endpoint (`{base}/a/b`, a bad escape): answered 404. */
  | { kind: 'other' }

/** What the path below the base (`''`, `/`, `/eth_chainId`, …; no query) is. */
export function endpointPath(rest: string): EndpointPath {
  const segments = rest.split('/').filter((segment) => segment !== '')
  if (segments.length === 0) return { kind: 'root' }
  if (segments.length > 1) return { kind: 'other' }
  try {
    return { kind: 'method', method: decodeURIComponent(segments[0]) }
  } catch {
    return { kind: 'other' }
  }
}

/** A request header's value, by lower-case name. */
export type HeaderOf = (name: string) => string | null | undefined

/** A request as far as the rules need it, before its body. */
export interface RequestHead {
  verb: string
  /** The URL's path (no query), for messages. */
  path: string
  /** What that path is below the base the request came in on. */
  endpoint: EndpointPath
  header: HeaderOf
}

/** An HTTP answer: status, headers (no Content-Length: the adapter's), body text ('' for none). */
export interface HttpAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** What to do with a request once its head is known. */
export type Route =
  /** Send this answer, and read nothing more of the request. */
  | { kind: 'answer'; answer: HttpAnswer }
  /** Read the body (BodyReader) and hand it to the node, with the method its path names. */
  | { kind: 'call'; pathMethod: string | undefined }

/**
 * Routes a request by its verb and path. `base` is how messages name the base: `''` for a server
 * at the root (`POST to / or to /<method>`), `'{base}'` where there are several.
 */
export function route({ verb, path, endpoint, header }: RequestHead, base: string): Route {
  if (verb === 'OPTIONS') return { kind: 'answer', answer: preflight(header) }
  if (verb !== 'POST') {
    const message = `HTTP ${verb} is not supported: send JSON-RPC requests with POST`
    return { kind: 'answer', answer: rpcError(HttpErrorCode.invalidRequest, message, header, 405, { Allow: 'POST, OPTIONS' }) }
  }
  if (endpoint.kind === 'other') {
    const message = `nothing is served at ${path}: POST to ${base}/ or to ${base}/<method>`
    return { kind: 'answer', answer: rpcError(HttpErrorCode.invalidRequest, message, header, 404) }
  }
  return { kind: 'call', pathMethod: endpoint.kind === 'method' ? endpoint.method : undefined }
}

/** The CORS headers of every answer: any origin, POST, and whatever headers the client sends. */
export function corsHeaders(header: HeaderOf): Record<string, string> {
  const asked = header('access-control-request-headers')
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    // Header names are case-insensitive; the service worker's tests pin this spelling.
    'Access-Control-Allow-Headers': asked ?? 'content-type',
  }
  if (asked) headers.Vary = 'Access-Control-Request-Headers'
  // Chrome asks before a public page may call a server on this machine (Private Network Access).
  if (header('access-control-request-private-network') === 'true') headers['Access-Control-Allow-Private-Network'] = 'true'
  return headers
}

/** The answer to `OPTIONS`: 204, CORS, cached for a day. */
export function preflight(header: HeaderOf): HttpAnswer {
  return { status: 204, headers: { ...corsHeaders(header), 'Access-Control-Max-Age': '86400' }, body: '' }
}

/** A JSON-RPC answer; null (notifications only) is an empty 200, as geth answers them. */
export function rpcAnswer(body: string | null, header: HeaderOf, status = 200, extraHeaders: Record<string, string> = {}): HttpAnswer {
  return { status, headers: { 'Content-Type': 'application/json', ...corsHeaders(header), ...extraHeaders }, body: body ?? '' }
}

/** A JSON-RPC error answer for a request the node never saw (id null). */
export function rpcError(code: number, message: string, header: HeaderOf, status = 200, extraHeaders: Record<string, string> = {}): HttpAnswer {
  return rpcAnswer(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), header, status, extraHeaders)
}

/** The answer to a body over the limit (HTTP 200, like every JSON-RPC error). */
export function tooLarge(limit: number, header: HeaderOf): HttpAnswer {
  return rpcError(HttpErrorCode.invalidRequest, `request too large: the limit is ${limit} bytes`, header)
}

/**
 * A request body, read up to `limit` bytes: a declared Content-Length over the limit is refused
 * before reading, a streamed body as soon as it passes it, so a client sending gigabytes costs at
 * most `limit` bytes of memory.
 */
export class BodyReader {
  private readonly chunks: Uint8Array[] = []
  private size = 0

  constructor(private readonly limit: number) {}

  /** Whether the declared Content-Length is over the limit already. */
  refusesDeclared(contentLength: string | null | undefined): boolean {
    return Number(contentLength) > this.limit
  }

  /** Keeps a chunk; false once the body is past the limit (stop reading: it is refused). */
  add(chunk: Uint8Array): boolean {
    this.size += chunk.byteLength
    if (this.size > this.limit) return false
    this.chunks.push(chunk)
    return true
  }

  /** The body as UTF-8 text. A byte-order mark is kept: a body starting with one is not JSON. */
  text(): string {
    const bytes = new Uint8Array(this.size)
    let offset = 0
    for (const chunk of this.chunks) {
      bytes.set(chunk, offset)
      offset += chunk.byteLength
    }
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
  }
}
