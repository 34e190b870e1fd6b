/// <reference lib="webworker" />
/**
 * The playground's service worker (built to the classic script `/playground-sw.js` by
 * demo/vite/offlinePlugin.ts): pagenode's relay, imported as is, plus an offline cache of the
 * site, so that the playground and the example dApp load with the network off after a first visit.
 *
 * A page has one service worker per scope, so the two live in one script. The relay comes first:
 * its listeners are attached first and answer the HTTP JSON-RPC base URLs; this file leaves
 * those requests to it (it could not answer them anyway: a second respondWith throws). The
 * relay reads its configuration from self.location, which is this script's URL with the query
 * the page registered it with. Its install (skipWaiting) and activate (claim) are the relay's too.
 *
 * The browser stores an imported script with the worker and reuses it when the worker restarts,
 * offline included; an update check fetches it again and a changed relay updates the worker.
 */
import { matchEndpoint, readServiceWorkerConfig, SCRIPT_FILE_NAME } from '../../src/bridge/http.ts'
import { OFFLINE_STATUS, type OfflineStatus, type PrecacheManifest } from './precacheManifest.ts'

declare const self: ServiceWorkerGlobalScope
/** Set by the build: the files to keep (an empty list in the dev server). */
declare const __PRECACHE__: PrecacheManifest

// With the same query: the relay reads self.location anyway, and its URL then names its configuration.
importScripts(new URL(SCRIPT_FILE_NAME + self.location.search, self.location.href).href)

const manifest = __PRECACHE__
const CACHE_PREFIX = 'playground-'
const cacheName = `${CACHE_PREFIX}${manifest.version}`
const config = readServiceWorkerConfig(self.location.href)
const scope = self.registration.scope
const scoped = (path: string) => new URL(path, scope).href
const immutablePrefix = scoped(`${manifest.immutableDir}/`)

// The big files, and those kept on first use, too when an earlier build's cache has them:
// activate is about to drop that cache.
self.addEventListener('install', (event) =>
  event.waitUntil(Promise.all([cacheFiles(manifest.shell), cacheFiles(manifest.deferred, { download: false }), cacheFiles(manifest.onUse, { download: false })])),
)

self.addEventListener('activate', (event) => {
  // The relay claims the pages; this drops the caches of earlier builds (the new shell is in place).
  event.waitUntil(
    caches.keys().then((names) => Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== cacheName).map((name) => caches.delete(name)))),
  )
})

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | undefined)?.type !== OFFLINE_STATUS) return
  const port = event.ports[0]
  // A status request retries at once: the page asks when it wants the answer now.
  retryAt = 0
  event.waitUntil(cacheDeferred().then(() => status().then((reply) => port?.postMessage(reply))))
})

self.addEventListener('fetch', (event) => {
  // Any request of a page (the relay's included) is a moment the worker is running anyway.
  event.waitUntil(cacheDeferred())

  const { request } = event
  if (request.method !== 'GET' || request.headers.has('range')) return
  if (!request.url.startsWith(scope) || matchEndpoint(request.url, config.baseUrls)) return
  if (request.mode === 'navigate') event.respondWith(networkFirst(request, pageKey(request.url), event))
  else if (request.url.startsWith(immutablePrefix)) event.respondWith(cacheFirst(request, event))
  else event.respondWith(networkFirst(request, request.url, event))
})

/** A page is kept under its path: its query and fragment do not make another page here. */
function pageKey(url: string): string {
  const { origin, pathname } = new URL(url)
  return origin + pathname
}

/**
 * Pages (and everything in the dev server) come from the network when it answers, so a new
 * deploy or an edited file shows at once; the cached copy is what the page gets offline.
 */
async function networkFirst(request: Request, key: string, event: FetchEvent): Promise<Response> {
  try {
    const response = await fetch(request)
    if (cacheable(response)) event.waitUntil(keep(key, response.clone()))
    return response
  } catch (error) {
    const cache = await caches.open(cacheName)
    const cached = (await cache.match(key, MATCH)) ?? (key.endsWith('/') ? await cache.match(`${key}index.html`, MATCH) : undefined)
    if (cached) return cached
    throw error
  }
}

/** A content-hashed file never changes: the cached copy is as good as the network's. */
async function cacheFirst(request: Request, event: FetchEvent): Promise<Response> {
  const cache = await caches.open(cacheName)
  const cached = await cache.match(request.url, MATCH)
  if (cached) return cached
  const response = await fetch(request)
  if (cacheable(response)) event.waitUntil(keep(request.url, response.clone()))
  return response
}

const cacheable = (response: Response) => response.ok && response.type === 'basic'

/**
 * Entries are keyed by URL alone. Servers send `Vary: Origin` (vite preview does), and a module
 * script's request carries an Origin header a plain lookup lacks: a file is the same file for both.
 */
const MATCH: CacheQueryOptions = { ignoreVary: true }

/**
 * The chain comes first: it lives in the same origin's storage, and a block that cannot be
 * stored is an error for the user. So the offline copy is only made while the origin has room
 * for it several times over (a browser's quota is normally gigabytes; a tight one goes to the chain).
 */
const ROOM_FACTOR = 4
async function roomForCopy(): Promise<boolean> {
  const estimate = await navigator.storage?.estimate?.().catch(() => undefined)
  if (estimate?.quota === undefined) return true
  return estimate.quota - (estimate.usage ?? 0) >= ROOM_FACTOR * Math.max(manifest.bytes, 1024 * 1024)
}

/** Stores a response the page got from the network, when there is room to. */
async function keep(key: string, response: Response): Promise<void> {
  if (await roomForCopy()) await (await caches.open(cacheName)).put(key, response)
}

/**
 * Caches the listed files not cached yet. A content-hashed file an earlier build's cache holds
 * is copied from there (the compiler is not downloaded again for each deploy); the rest is
 * fetched past the HTTP cache, unless `download` is false. A file that fails is logged and left
 * for later: the offline cache must never stop the worker from installing, or the page would
 * lose its HTTP endpoint. Resolves whether it cached everything.
 */
async function cacheFiles(paths: readonly string[], { download = true } = {}): Promise<boolean> {
  if (!(await roomForCopy())) {
    console.warn('playground service worker: too little storage left to keep an offline copy of the site; the chain gets it')
    return false
  }
  const cache = await caches.open(cacheName)
  const done = await Promise.all(
    paths.map(async (path) => {
      const url = scoped(path)
      if (await cache.match(url, MATCH)) return true
      try {
        const earlier = url.startsWith(immutablePrefix) ? await caches.match(url, MATCH) : undefined
        if (!earlier && !download) return false
        const response = earlier ?? (await fetch(url, { cache: 'reload' }))
        if (!response.ok) throw new Error(`HTTP ${response.status}`)
        await cache.put(url, response.clone())
        // A folder's page is also asked for by the folder's URL (a navigation to /dapp/).
        if (path === 'index.html' || path.endsWith('/index.html')) await cache.put(url.slice(0, -'index.html'.length), response)
        return true
      } catch (error) {
        console.warn(`playground service worker: could not cache ${url} for offline use:`, error)
        return false
      }
    }),
  )
  return done.every(Boolean)
}

/**
 * The big files, then any shell file the install missed: once per worker start, and again no
 * sooner than RETRY_MS after a failure (offline, every request of the page would retry it).
 */
const RETRY_MS = 30_000
let deferredDone: Promise<void> | undefined
let retryAt = 0
function cacheDeferred(): Promise<void> {
  if (deferredDone === undefined && Date.now() < retryAt) return Promise.resolve()
  deferredDone ??= (async () => {
    const complete = (await cacheFiles(manifest.deferred)) && (await cacheFiles(manifest.shell))
    if (!complete) {
      deferredDone = undefined
      retryAt = Date.now() + RETRY_MS
    }
  })()
  return deferredDone
}

async function status(): Promise<OfflineStatus> {
  const cache = await caches.open(cacheName)
  const all = [...manifest.shell, ...manifest.deferred]
  const hits = await Promise.all(all.map((path) => cache.match(scoped(path), MATCH)))
  const missing = all.filter((_, index) => !hits[index])
  const kept = await Promise.all(manifest.onUse.map((path) => cache.match(scoped(path), MATCH)))
  const keptOnUse = manifest.onUse.filter((_, index) => kept[index])
  return { type: OFFLINE_STATUS, version: manifest.version, cached: all.length - missing.length, total: all.length, ready: missing.length === 0, missing, onUse: manifest.onUse, keptOnUse }
}
