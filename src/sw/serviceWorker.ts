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
  MAX_REQUEST_BYTES,
  errorResponseFor,
  matchEndpoint,
  readServiceWorkerConfig,
  type ControlMessage,
  type EndpointMatch,
  type HelloReply,
} from '../bridge/http.ts'
import { HttpErrorCode, route, rpcAnswer, rpcError, tooLarge, type HeaderOf } from '../bridge/httpRules.ts'
import { relayToNode } from './relay.ts'
import { readBodyText } from './requestBody.ts'
import { toResponse } from './responses.ts'

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
  const header: HeaderOf = (name) => event.request.headers.get(name)
  event.respondWith(
    answer(event.request, match, header).catch((error: unknown) =>
      toResponse(rpcError(HttpErrorCode.internal, `pagenode service worker: ${error instanceof Error ? error.message : String(error)}`, header)),
    ),
  )
})

/** The endpoint's HTTP rules (bridge/httpRules.ts, the CLI's too), then the relay to the node. */
async function answer(request: Request, endpoint: EndpointMatch, header: HeaderOf): Promise<Response> {
  const routed = route({ verb: request.method, path: new URL(request.url).pathname, endpoint, header }, '{base}')
  if (routed.kind === 'answer') return toResponse(routed.answer)
  const body = await readBodyText(request, MAX_REQUEST_BYTES)
  if (body === undefined) return toResponse(tooLarge(MAX_REQUEST_BYTES, header))
  if (config.protocol !== HTTP_PROTOCOL) {
    // The page registered this script expecting another protocol: the file on the site is stale.
    return toResponse(rpcAnswer(errorResponseFor(body, HttpErrorCode.internal, staleScriptMessage(config.protocol)), header))
  }
  const baseUrl = config.baseUrls.find((base) => request.url.startsWith(base)) ?? config.baseUrls[0]
  const reply = await relayToNode({ name: config.name, baseUrl }, body, routed.pathMethod)
  return toResponse(rpcAnswer(reply, header))
}

function staleScriptMessage(pageProtocol: number): string {
  return (
    `the pagenode service worker script speaks protocol ${HTTP_PROTOCOL} (pagenode ${__PAGENODE_VERSION__}) but the page's ` +
    `pagenode speaks protocol ${pageProtocol}: update the script (pagenode/vite emits it; otherwise run npx pagenode init <public dir>)`
  )
}
