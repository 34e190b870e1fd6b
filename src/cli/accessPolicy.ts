/**
 * Who may drive the CLI's node over HTTP. The node holds the dev accounts' keys and answers
 * eth_sendTransaction, anvil_setBalance and anvil_reset, so a web page the developer happens to
 * have open must not reach it (docs/cli.md, "Who may call it"):
 *
 * - **Host**: a request must name this machine: a loopback name (`localhost`, `*.localhost`), an
 *   IP address, or a host allowed with --allow-host. A page on an attacker's domain that rebinds
 *   its name to 127.0.0.1 (DNS rebinding) still sends its own name, and is refused.
 * - **Origin**: a request from a page (browsers send `Origin` on cross-origin requests and on
 *   same-origin POSTs) is served only for loopback origins (any port: the developer's own dev
 *   servers) and origins allowed with --allow-origin; `--allow-origin '*'` opens it to every page,
 *   as anvil and Hardhat do. The check is on every request, not only in the CORS answer: a
 *   cross-origin POST that needs no preflight still reaches a server, and must be refused there.
 * - **Content-Type**: a JSON-RPC body must say it is JSON. A cross-origin page can send
 *   `text/plain` without a preflight; `application/json` always asks first.
 * - **Private Network Access**: Chrome asks before a public page may call a server on this
 *   machine; pagenode answers yes only for origins allowed explicitly.
 *
 * geth answers alike (its --http.vhosts and --http.corsdomain default to localhost and none, and
 * it requires a JSON content type); anvil and Hardhat serve every host and origin.
 */
import { HttpErrorCode, rpcError, type HeaderOf, type HttpAnswer } from '../bridge/httpRules.ts'

export interface AccessPolicy {
  /** Host names allowed besides loopback names and IP addresses (lower case); 'any': all. */
  hosts: ReadonlySet<string> | 'any'
  /** Origins allowed besides loopback ones (`scheme://host[:port]`, lower case); 'any': all. */
  origins: ReadonlySet<string> | 'any'
}

/** The policy for the --allow-host and --allow-origin values given ('*' opens either). */
export function accessPolicy(allowHosts: readonly string[], allowOrigins: readonly string[]): AccessPolicy {
  const set = (values: readonly string[]) => (values.includes('*') ? 'any' : new Set(values.map((value) => value.toLowerCase())))
  return { hosts: set(allowHosts), origins: set(allowOrigins.map((origin) => origin.replace(/\/+$/, ''))) }
}

/** The media types of a JSON-RPC body (geth's list). */
const JSON_TYPES = ['application/json', 'application/json-rpc', 'application/jsonrequest']

/**
 * The refusal of a request the policy does not let through, or undefined. `verb` and the
 * headers are all it needs: nothing of the body is read for a refused request.
 */
export function refusal(verb: string, header: HeaderOf, policy: AccessPolicy): HttpAnswer | undefined {
  const host = header('host')
  if (host && !hostAllowed(hostName(host), policy)) {
    const name = hostName(host)
    return refuse(403, `host '${name}' is not allowed: pagenode answers requests to this machine's loopback names and addresses only (DNS rebinding); start it with --allow-host ${name} to allow it`)
  }
  const origin = header('origin')
  if (origin && !originAllowed(origin, policy)) {
    return refuse(403, `origin ${origin} is not allowed: pages on loopback origins may call pagenode; start it with --allow-origin ${origin} (or --allow-origin '*' for every page, as anvil does)`)
  }
  const type = (header('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (verb === 'POST' && !JSON_TYPES.includes(type)) {
    return refuse(415, `Content-Type ${type === '' ? 'missing' : `'${type}'`}: JSON-RPC requests must be sent as application/json (curl: -H 'Content-Type: application/json')`)
  }
  return undefined
}

/**
 * An answer's CORS headers under the policy: the caller's origin when it is allowed (never `*`
 * unless the policy is open), none for a request without one, and the Private Network Access
 * opt-in only for an origin allowed explicitly.
 */
export function withCors(answer: HttpAnswer, header: HeaderOf, policy: AccessPolicy): HttpAnswer {
  if (policy.origins === 'any') return answer
  const origin = header('origin')
  if (!origin || !originAllowed(origin, policy)) return { ...answer, headers: withoutCors(answer.headers) }
  const headers = { ...answer.headers }
  delete headers['Access-Control-Allow-Private-Network']
  headers['Access-Control-Allow-Origin'] = origin
  headers.Vary = headers.Vary ? `Origin, ${headers.Vary}` : 'Origin'
  if (policy.origins.has(origin.toLowerCase()) && header('access-control-request-private-network') === 'true') {
    headers['Access-Control-Allow-Private-Network'] = 'true'
  }
  return { ...answer, headers }
}

function refuse(status: number, message: string): HttpAnswer {
  const answer = rpcError(HttpErrorCode.invalidRequest, message, () => undefined, status)
  // No CORS headers: a refused page does not get to read why.
  return { ...answer, headers: withoutCors(answer.headers) }
}

function withoutCors(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith('Access-Control-')))
}

/** The Host header's name: `[::1]:8011` → `::1`, `Localhost:8011` → `localhost`. */
function hostName(host: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host)
  if (bracketed) return bracketed[1].toLowerCase()
  return host.replace(/:\d+$/, '').toLowerCase()
}

function hostAllowed(name: string, policy: AccessPolicy): boolean {
  return policy.hosts === 'any' || isLoopbackName(name) || isIpAddress(name) || policy.hosts.has(name)
}

function originAllowed(origin: string, policy: AccessPolicy): boolean {
  if (policy.origins === 'any') return true
  if (policy.origins.has(origin.toLowerCase())) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false // 'null' (a sandboxed frame, a file:// page) among others
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopback(url.hostname.replace(/^\[|\]$/g, ''))
}

const isLoopbackName = (name: string) => name === 'localhost' || name.endsWith('.localhost')
const isLoopback = (name: string) => isLoopbackName(name) || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
// An address cannot be rebound: only names resolve through DNS.
const isIpAddress = (name: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.includes(':')
