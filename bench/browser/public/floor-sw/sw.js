/* global self */
// The service-worker floor (bench): answers every POST in its scope with a constant JSON-RPC reply,
// after reading the body as the pagenode service worker does.
self.addEventListener('install', (event) => event.waitUntil(self.skipWaiting()))
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))
self.addEventListener('message', (event) => event.waitUntil(self.clients.claim()))
self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'POST') return
  event.respondWith(
    event.request.text().then(
      () => new Response('{"jsonrpc":"2.0","id":1,"result":"0x0"}', { headers: { 'content-type': 'application/json' } }),
    ),
  )
})
