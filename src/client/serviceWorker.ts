/**
 * The page's side of the HTTP endpoint: registers the pagenode service worker with the chain's
 * name and base URLs in its URL, puts this page under its control without a reload, and checks
 * that the script speaks this library's protocol.
 */
import {
  HTTP_PROTOCOL,
  normalizeBaseUrl,
  serviceWorkerUrl,
  type ControlMessage,
  type HelloReply,
} from '../bridge/http.ts'

export interface ServiceWorkerSetup {
  script: string
  name: string
  baseUrls: readonly string[]
  /** How long installing, activating and claiming this page may take in all. */
  timeoutMs?: number
}

/** The HTTP endpoint could not be set up; the message says why and what to do. */
export class ServiceWorkerError extends Error {
  override name = 'ServiceWorkerError'
}

const DEFAULT_TIMEOUT_MS = 10_000
/** How often the page re-asks for control while waiting (messages to a worker still installing are lost). */
const POLL_MS = 100
/** One handshake attempt; a busy or just-restarted worker gets a few (messages are not re-sent by the platform). */
const HELLO_TIMEOUT_MS = 1_500
const HELLO_ATTEMPTS = 3

/** Absolute base URLs, checked: what the service worker will match. */
export function resolveBaseUrls(baseUrls: readonly string[], pageUrl = location.href): string[] {
  if (baseUrls.length === 0) throw new TypeError('pagenode: baseUrls is empty; pass serviceWorker: false for a provider-only node')
  return [...new Set(baseUrls.map((base) => normalizeBaseUrl(base, pageUrl)))]
}

/**
 * Registers (or updates) the script and resolves once it controls this page and answered the
 * handshake with this library's protocol. Rejects with a ServiceWorkerError otherwise.
 */
export async function setUpServiceWorker(setup: ServiceWorkerSetup): Promise<ServiceWorkerRegistration> {
  if (!('serviceWorker' in navigator)) {
    throw new ServiceWorkerError(
      'pagenode: this page cannot use service workers (an insecure origin, a private window, or a browser without them); ' +
        'pass serviceWorker: false for a provider-only node',
    )
  }
  const deadline = Date.now() + (setup.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const baseUrls = resolveBaseUrls(setup.baseUrls)
  const url = serviceWorkerUrl(setup.script, { protocol: HTTP_PROTOCOL, name: setup.name, baseUrls }, location.href).href

  let registration: ServiceWorkerRegistration
  try {
    // updateViaCache 'none': an update check always sees the script as the server has it now.
    registration = await navigator.serviceWorker.register(url, { updateViaCache: 'none' })
  } catch (error) {
    throw new ServiceWorkerError(
      `pagenode: could not register the service worker ${setup.script} (${(error as Error).message}). ` +
        'It must be served from the site (pagenode/vite does that; otherwise run npx pagenode init <public dir>).',
    )
  }
  // Some environments stub registration out (Playwright's serviceWorkers: 'block' resolves undefined).
  if (!registration) {
    throw new ServiceWorkerError('pagenode: service workers are blocked in this browser context; pass serviceWorker: false for a provider-only node')
  }
  if (!location.href.startsWith(registration.scope)) {
    throw new ServiceWorkerError(
      `pagenode: the service worker's scope ${registration.scope} does not cover this page; serve ${setup.script} from the site root`,
    )
  }

  await untilControlledBy(registration, url, deadline)
  let hello = await sayHello()
  if (hello?.protocol !== HTTP_PROTOCOL) {
    // Maybe the file on the server is newer than the worker the browser still runs: fetch it now.
    await registration.update().catch(() => {})
    await untilControlledBy(registration, url, deadline).catch(() => {})
    hello = await sayHello()
  }
  if (hello === undefined) {
    throw new ServiceWorkerError(
      `pagenode: the service worker ${setup.script} did not answer the pagenode handshake: it is not pagenode's script, or one ` +
        'too old to say its version. Update it (pagenode/vite emits it; otherwise run npx pagenode init <public dir>).',
    )
  }
  if (hello.protocol !== HTTP_PROTOCOL) {
    throw new ServiceWorkerError(
      `pagenode: the service worker ${setup.script} (pagenode ${hello.version}) speaks protocol ${hello.protocol}, ` +
        `this page's pagenode speaks protocol ${HTTP_PROTOCOL}. The script is out of date: rebuild with pagenode/vite, or run npx pagenode init <public dir>.`,
    )
  }
  return registration
}

/**
 * Waits until the page's controller is the worker registered from `url`. A first load is not
 * controlled until the worker activates and claims; a hard reload (Shift+Reload) is never
 * controlled by itself, and the worker's activate does not run again. So while waiting, the
 * page asks the active worker, when it is ours, to claim it (MSW reloads the page instead).
 */
async function untilControlledBy(registration: ServiceWorkerRegistration, url: string, deadline: number): Promise<void> {
  const container = navigator.serviceWorker
  while (container.controller?.scriptURL !== url) {
    if (Date.now() > deadline) {
      const controller = container.controller ? `it is controlled by ${container.controller.scriptURL}` : 'it is not controlled'
      throw new ServiceWorkerError(
        `pagenode: the service worker did not take control of this page in time (${controller}; ${describe(registration)})`,
      )
    }
    const active = registration.active
    if (active?.scriptURL === url) active.postMessage({ type: 'pagenode:claim' } satisfies ControlMessage)
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        container.removeEventListener('controllerchange', done)
        resolve()
      }
      const timer = setTimeout(done, POLL_MS)
      container.addEventListener('controllerchange', done)
    })
  }
}

/** The registration's workers, for an error message: what was stuck where. */
function describe(registration: ServiceWorkerRegistration): string {
  const workers = (['installing', 'waiting', 'active'] as const).flatMap((slot) => {
    const worker = registration[slot]
    return worker ? [`${slot}: ${worker.scriptURL} (${worker.state})`] : []
  })
  return workers.length > 0 ? `registration ${workers.join(', ')}` : 'the registration has no worker: the script failed to install'
}

/** Asks the controlling worker for its protocol; undefined when it never answers. */
async function sayHello(): Promise<HelloReply | undefined> {
  for (let attempt = 0; attempt < HELLO_ATTEMPTS; attempt++) {
    const reply = await helloOnce()
    if (reply) return reply
  }
  return undefined
}

function helloOnce(): Promise<HelloReply | undefined> {
  const controller = navigator.serviceWorker.controller
  if (!controller) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel()
    const timer = setTimeout(() => finish(undefined), HELLO_TIMEOUT_MS)
    const finish = (reply: HelloReply | undefined) => {
      clearTimeout(timer)
      port1.close()
      resolve(reply)
    }
    port1.onmessage = (event: MessageEvent<HelloReply>) => finish(event.data?.type === 'pagenode:hello' ? event.data : undefined)
    controller.postMessage({ type: 'pagenode:hello', protocol: HTTP_PROTOCOL } satisfies ControlMessage, [port2])
  })
}

/**
 * One real call through the endpoint (service worker, channel, relay, node), so that startNode
 * resolves only when an HTTP client would be answered.
 */
export async function checkHttpEndpoint(baseUrl: string): Promise<void> {
  let reason: string
  try {
    const response = await fetch(`${baseUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
    const reply = (await response.json()) as { result?: unknown; error?: { message?: string } }
    if (response.ok && typeof reply.result === 'string') return
    reason = reply.error?.message ?? `HTTP ${response.status}`
  } catch (error) {
    reason = (error as Error).message
  }
  throw new ServiceWorkerError(`pagenode: the HTTP endpoint ${baseUrl} does not answer: ${reason}`)
}
