/**
 * The HTTP side of the endpoint, as the CLI's server answers it (docs/http-endpoint.md, "Over
 * HTTP"): every JSON-RPC answer is HTTP 200 application/json, errors included; CORS headers on
 * everything, because the base may be cross-origin (`http://127.0.0.1:8011` called from the site's
 * own origin).
 */
import { HttpErrorCode } from '../bridge/http.ts'

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
}

/** A JSON-RPC answer; null (notifications only) is an empty 200, as geth and the CLI send. */
export function rpcResponse(body: string | null, status = 200, extraHeaders: Record<string, string> = {}): Response {
  return new Response(body ?? '', {
    status,
    headers: { 'content-type': 'application/json', ...CORS, ...extraHeaders },
  })
}

export function rpcError(code: number, message: string, status = 200, extraHeaders: Record<string, string> = {}): Response {
  return rpcResponse(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), status, extraHeaders)
}

/** An explicit preflight: whatever headers the client wants to send are fine. */
export function preflight(request: Request): Response {
  const asked = request.headers.get('access-control-request-headers')
  const headers: Record<string, string> = {
    ...CORS,
    'access-control-allow-headers': asked ?? 'content-type',
    'access-control-max-age': '86400',
  }
  if (asked) headers.vary = 'Access-Control-Request-Headers'
  // Chrome asks before a public page may call a server on this machine (Private Network Access).
  if (request.headers.get('access-control-request-private-network') === 'true') {
    headers['access-control-allow-private-network'] = 'true'
  }
  return new Response(null, { status: 204, headers })
}

export function methodNotAllowed(verb: string): Response {
  return rpcError(HttpErrorCode.invalidRequest, `HTTP ${verb} is not supported: send JSON-RPC requests with POST`, 405, {
    allow: 'POST, OPTIONS',
  })
}
