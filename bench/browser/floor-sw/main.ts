/**
 * The service-worker floor: a page under a service worker that answers a constant JSON-RPC reply
 * to every POST in its scope. The harness (bench/browser/main.ts) loads it in a frame and times
 * its fetch() against pagenode's endpoint, interleaved.
 */
declare global {
  interface Window {
    floorReady: Promise<void>
  }
}

window.floorReady = (async () => {
  const script = new URL('/floor-sw/sw.js', location.href).href
  const registration = await navigator.serviceWorker.register(script, { scope: '/floor-sw/' })
  // Until the floor worker claims it, the page may be under pagenode's (scope `/`), which would let
  // the floor's POSTs through to the server.
  while (navigator.serviceWorker.controller?.scriptURL !== script) {
    registration.active?.postMessage('claim')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
})()
export {}
