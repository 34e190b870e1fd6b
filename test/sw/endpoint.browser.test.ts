/**
 * The HTTP endpoint from a page's point of view: plain fetch() to a base URL is answered by the
 * node through the service worker, with JSON-RPC-over-HTTP rules (docs/http-endpoint.md, "Over
 * HTTP").
 */
import { expect, test } from 'vitest'
import { answer, call, post, startHttpNode } from '../support/browser/http.ts'

test('startNode resolves with the page controlled and both path shapes answered', async () => {
  const node = await startHttpNode({ chainId: 0x1234 })
  expect(navigator.serviceWorker.controller?.scriptURL).toContain('/pagenode-sw.js?')
  expect(node.baseUrls).toEqual([`${location.origin}${new URL(node.base).pathname}`])

  const root = await post(`${node.base}/`, call('eth_chainId'))
  expect(root.status).toBe(200)
  expect(root.contentType).toBe('application/json')
  expect(root.json).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1234' })
  // The base itself, without the trailing slash, is the same endpoint.
  expect((await post(node.base, call('eth_chainId', [], 'x'))).json).toEqual({ jsonrpc: '2.0', id: 'x', result: '0x1234' })

  // The path names the method when the body does not…
  const byPath = await post(`${node.base}/eth_chainId`, { jsonrpc: '2.0', id: 2 })
  expect(byPath.json).toEqual({ jsonrpc: '2.0', id: 2, result: '0x1234' })
  // …and the body's method wins when both do.
  const both = await post(`${node.base}/eth_chainId`, call('eth_blockNumber', [], 3))
  expect(both.json).toEqual({ jsonrpc: '2.0', id: 3, result: '0x0' })
})

test('batches and notifications', async () => {
  const node = await startHttpNode()
  const batch = await post(`${node.base}/`, [
    call('eth_chainId', [], 1),
    { jsonrpc: '2.0', method: 'eth_blockNumber', params: [] },
    call('net_version', [], 'b'),
  ])
  expect(batch.status).toBe(200)
  expect(batch.json).toEqual([
    { jsonrpc: '2.0', id: 1, result: '0x104' },
    { jsonrpc: '2.0', id: 'b', result: '260' },
  ])

  // A notification has nothing to answer: 200 and an empty body.
  const notification = await post(`${node.base}/`, { jsonrpc: '2.0', method: 'eth_chainId', params: [] })
  expect(notification.status).toBe(200)
  expect(notification.text).toBe('')
})

test('concurrent requests each get their own answer', async () => {
  const node = await startHttpNode({ chainId: 0x1237 })
  const methods = [['eth_chainId', '0x1237'], ['net_version', String(0x1237)], ['eth_blockNumber', '0x0']] as const
  const replies = await Promise.all(
    Array.from({ length: 30 }, (_, i) => post(`${node.base}/`, call(methods[i % 3][0], [], i)).then((reply) => reply.json)),
  )
  expect(replies).toEqual(Array.from({ length: 30 }, (_, i) => ({ jsonrpc: '2.0', id: i, result: methods[i % 3][1] })))
})

test('bad JSON, unknown methods and oversized bodies are JSON-RPC errors with HTTP 200', async () => {
  const node = await startHttpNode()
  const bad = await post(`${node.base}/`, '{"jsonrpc":"2.0","id":1,')
  expect(bad.status).toBe(200)
  expect(bad.contentType).toBe('application/json')
  expect(bad.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })

  const unknown = await post(`${node.base}/pagenode_noSuchMethod`, { jsonrpc: '2.0', id: 9 })
  expect(unknown.status).toBe(200)
  expect(unknown.json).toMatchObject({ id: 9, error: { code: -32601 } })

  // Over 5 MiB: refused by the service worker before it crosses the channel.
  const huge = await post(`${node.base}/`, JSON.stringify(call('eth_chainId', ['x'.repeat(5 * 1024 * 1024)])))
  expect(huge.status).toBe(200)
  expect(huge.json).toEqual({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: `request too large: the limit is ${5 * 1024 * 1024} bytes` },
  })
})

test('a byte-order mark and deep nesting are answered as the CLI answers them', async () => {
  const node = await startHttpNode()
  const bom = await post(`${node.base}/`, `\uFEFF${JSON.stringify(call('eth_chainId', []))}`)
  expect(bom.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
  const deep = '['.repeat(6000) + ']'.repeat(6000)
  const nested = await post(`${node.base}/`, `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":${deep}}`)
  expect(nested.json).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'invalid params: nested deeper than 100 levels' } })
  // The page's provider (a structured clone to the worker) meets the same limit.
  await expect(node.provider.request({ method: 'eth_getBalance', params: JSON.parse(deep) as unknown[] })).rejects.toMatchObject({ code: -32602 })
})

test('OPTIONS gets CORS headers, other verbs 405, deeper paths 404; other URLs are left alone', async () => {
  const node = await startHttpNode()
  const options = await fetch(`${node.base}/`, { method: 'OPTIONS', headers: { 'access-control-request-headers': 'content-type' } })
  expect(options.status).toBe(204)
  expect(options.headers.get('access-control-allow-origin')).toBe('*')
  expect(options.headers.get('access-control-allow-methods')).toContain('POST')
  expect(options.headers.get('access-control-allow-headers')).toBe('content-type')

  const get = await answer(await fetch(`${node.base}/eth_chainId`))
  expect(get.status).toBe(405)
  expect(get.headers.get('allow')).toBe('POST, OPTIONS')
  expect(get.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('HTTP GET is not supported') } })

  const deeper = await post(`${node.base}/eth/chainId`, call('eth_chainId'))
  expect(deeper.status).toBe(404)
  expect(deeper.json).toMatchObject({ error: { code: -32600 } })

  // A path that only starts like the base is not the endpoint: it reaches the dev server.
  const neighbour = await fetch(`${node.base}x/eth_chainId`, { method: 'POST', body: '{}' })
  expect(neighbour.headers.get('content-type') ?? '').not.toBe('application/json')
})

test('a cross-origin base with nothing listening is answered by the node', async () => {
  const node = await startHttpNode({ chainId: 0x1235, baseUrls: ['/rpc-cross', 'http://127.0.0.1:8011', 'http://localhost:8011'] })
  expect(node.baseUrls).toEqual([`${location.origin}/rpc-cross`, 'http://127.0.0.1:8011', 'http://localhost:8011'])
  for (const url of ['http://127.0.0.1:8011', 'http://127.0.0.1:8011/', 'http://localhost:8011/eth_chainId']) {
    const reply = await post(url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' })
    expect(reply.status, url).toBe(200)
    // 0x1235: this node, not some other server that might be on the port.
    expect(reply.json, url).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1235' })
  }
})

test("requests from the page's dedicated worker are answered", async () => {
  const node = await startHttpNode({ chainId: 0x1236 })
  const worker = new Worker(new URL('../support/browser/fetchWorker.ts', import.meta.url), { type: 'module' })
  try {
    const reply = await new Promise<{ status: number; text: string }>((resolve) => {
      worker.onmessage = (event) => resolve(event.data)
      worker.postMessage({ url: `${node.base}/`, body: JSON.stringify(call('eth_chainId')) })
    })
    expect(reply.status).toBe(200)
    expect(JSON.parse(reply.text)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1236' })
  } finally {
    worker.terminate()
  }
})

test('a provider-only node registers nothing', async () => {
  const before = await navigator.serviceWorker.getRegistrations()
  const node = await startHttpNode({ serviceWorker: false })
  expect(node.baseUrls).toEqual([])
  expect(await navigator.serviceWorker.getRegistrations()).toHaveLength(before.length)
  expect(await node.provider.request({ method: 'eth_chainId' })).toBe('0x104')
})

test('base URLs that cannot be an endpoint are refused before anything starts', async () => {
  await expect(startHttpNode({ baseUrls: ['/'] })).rejects.toThrow(/site root/)
  await expect(startHttpNode({ baseUrls: ['ftp://x'] })).rejects.toThrow(/must be http/)
  await expect(startHttpNode({ baseUrls: [] })).rejects.toThrow(/serviceWorker: false/)
})
