/**
 * The service-worker floor: a page under a service worker that answers a constant JSON-RPC reply
 * to every POST in its scope, timed the way the pagenode endpoint is (bench/browser/main.ts).
 */
declare global {
  interface Window {
    floorReady: Promise<void>
    floorFetch(samples: number): Promise<number[]>
  }
}

window.floorReady = (async () => {
  const registration = await navigator.serviceWorker.register('/floor-sw/sw.js', { scope: '/floor-sw/' })
  while (!navigator.serviceWorker.controller) {
    registration.active?.postMessage('claim')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
})()

window.floorFetch = async (samples) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })
  const times: number[] = []
  for (let i = 0; i < samples; i++) {
    const start = performance.now()
    const response = await fetch('/floor-sw/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    await response.json()
    times.push(performance.now() - start)
  }
  return times
}
export {}
