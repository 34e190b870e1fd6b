/// <reference lib="webworker" />
/**
 * The pagenode service worker (built to the classic script `/pagenode-sw.js`). It has no node in
 * it: it answers the configured base URLs by relaying each request to the leader node worker of
 * the chain over a BroadcastChannel, and leaves every other request alone (no respondWith), so the
 * site's own files, Vite and Playwright routing are untouched.
 *
 * Its configuration is its registration URL's query, read at every start: Chromium stops idle
 * service workers and restarts them with a fresh global scope, so nothing may live in memory.
 * Listeners are attached synchronously, as the platform requires.
 */
import {
  HTTP_PROTOCOL,
  HttpErrorCode,
  MAX_REQUEST_BYTES,
  errorResponseFor,
  matchEndpoint,
  readServiceWorkerConfig,
  type ControlMessage,
  type EndpointMatch,
  type HelloReply,
} from '../bridge/http.ts'
import { relayToNode } from './relay.ts'
import { readBodyText } from './requestBody.ts'
import { methodNotAllowed, preflight, rpcError, rpcResponse } from './responses.ts'

declare const self: ServiceWorkerGlobalScope
/** Set by the build (src/vite/serviceWorkerScript.ts). */
declare const __PAGENODE_VERSION__: string

const config = readServiceWorkerConfig(self.location.href)

// A new script (other bases, a new pagenode) takes over at once instead of waiting for every tab
// to close, and takes the open pages with it: their HTTP calls need it now.
self.addEventListener('install', (event) => event.waitUntil(self.skipWaiting()))
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

self.addEventListener('message', (event) => {
  const message = event.data as ControlMessage | undefined
  const port = event.ports[0]
  if (message?.type === 'pagenode:claim') {
    // A hard reload leaves the page uncontrolled, and activate does not run again: claim on request.
    event.waitUntil(self.clients.claim().then(() => port?.postMessage({ type: 'pagenode:claimed' })))
  } else if (message?.type === 'pagenode:hello') {
    const reply: HelloReply = {
      type: 'pagenode:hello',
      protocol: HTTP_PROTOCOL,
      version: __PAGENODE_VERSION__,
      name: config.name,
      baseUrls: config.baseUrls,
    }
    port?.postMessage(reply)
  }
})

self.addEventListener('fetch', (event) => {
  const match = matchEndpoint(event.request.url, config.baseUrls)
  if (!match) return
  event.respondWith(
    answer(event.request, match).catch((error: unknown) =>
      rpcError(HttpErrorCode.internal, `pagenode service worker: ${error instanceof Error ? error.message : String(error)}`),
    ),
  )
})

async function answer(request: Request, match: EndpointMatch): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight(request)
  if (request.method !== 'POST') return methodNotAllowed(request.method)
  if (match.kind === 'other') {
    const path = new URL(request.url).pathname
    return rpcError(HttpErrorCode.invalidRequest, `nothing is served at ${path}: POST to {base}/ or to {base}/<method>`, 404)
  }
  const body = await readBodyText(request, MAX_REQUEST_BYTES)
  if (body === undefined) {
    return rpcError(HttpErrorCode.invalidRequest, `request too large: the limit is ${MAX_REQUEST_BYTES} bytes`)
  }
  if (config.protocol !== HTTP_PROTOCOL) {
    // The page registered this script expecting another protocol: the file on the site is stale.
    return rpcResponse(errorResponseFor(body, HttpErrorCode.internal, staleScriptMessage(config.protocol)))
  }
  const baseUrl = config.baseUrls.find((base) => request.url.startsWith(base)) ?? config.baseUrls[0]
  const reply = await relayToNode({ name: config.name, baseUrl }, body, match.kind === 'method' ? match.method : undefined)
  return rpcResponse(reply)
}

function staleScriptMessage(pageProtocol: number): string {
  return (
    `the pagenode service worker script speaks protocol ${HTTP_PROTOCOL} (pagenode ${__PAGENODE_VERSION__}) but the page's ` +
    `pagenode speaks protocol ${pageProtocol}: update the script (pagenode/vite emits it; otherwise run npx pagenode init <public dir>)`
  )
}
