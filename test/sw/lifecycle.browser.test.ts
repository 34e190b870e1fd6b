/**
 * The endpoint across the events that break naive relays (docs/browser-notes.md, "Service worker
 * restarts", "BroadcastChannel does not buffer"): the service worker stopped and restarted with
 * empty memory, requests sent before the node is up, no node at all, two nodes of one name, and a
 * stale script.
 */
import { Wallet } from 'ethers'
import { expect, test } from 'vitest'
import { commands } from 'vitest/browser'
import { HTTP_PROTOCOL, httpChannelName, httpLockName, RESEND_MS, serviceWorkerUrl, startingLockName, type HttpMessage } from '../../src/bridge/http.ts'
import { startNode, ServiceWorkerError } from '../../src/client/index.ts'
import { call, post, startHttpNode, track, uniqueChain } from '../support/browser/http.ts'
import { DEV_ACCOUNTS } from '../support/accounts.ts'

declare module 'vitest/browser' {
  interface BrowserCommands {
    stopServiceWorkers(): Promise<{ stopped: number }>
  }
}

const KEY = DEV_ACCOUNTS[0].key
const TO = DEV_ACCOUNTS[1].address

test('after the browser stops the service worker, the next request is still answered', async () => {
  const node = await startHttpNode({ chainId: 0x1240 })
  expect((await post(`${node.base}/`, call('eth_chainId'))).json).toMatchObject({ result: '0x1240' })

  // As Chromium does to an idle worker: the next request starts it with a fresh global scope.
  expect((await commands.stopServiceWorkers()).stopped).toBeGreaterThan(0)

  // A fresh global scope: the config comes back from the script URL, the relay needs no state.
  const reply = await post(`${node.base}/eth_chainId`, { jsonrpc: '2.0', id: 2 })
  expect(reply.json).toEqual({ jsonrpc: '2.0', id: 2, result: '0x1240' })
})

test('a request sent while the node is still starting is answered, not failed', async () => {
  const { name, base } = uniqueChain()
  // A first node leaves the service worker configured for the chain, then goes away.
  await (await startNode({ name, persist: false, baseUrls: [base] })).stop()

  const starting = startNode({ name, persist: false, baseUrls: [base], chainId: 0x1241 })
  // Sent before the worker has loaded: the service worker must wait for the node, re-sending.
  const early = post(`${base}/`, call('eth_chainId'))
  track(await starting)
  expect((await early).json).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1241' })
})

test('a request waits for a node that is slow to start, however long past the no-node grace', async () => {
  const { name, base } = uniqueChain()
  await (await startNode({ name, persist: false, baseUrls: [base] })).stop()
  // A page that is starting a node holds this lock until the node is up (startNode does);
  // held here for longer than the service worker's one-second "no node" grace.
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  void navigator.locks.request(startingLockName(name), { mode: 'shared' }, () => held)

  const early = post(`${base}/`, call('eth_chainId'))
  await new Promise((resolve) => setTimeout(resolve, 2_500))
  track(await startNode({ name, persist: false, baseUrls: [base], chainId: 0x1243 }))
  release()
  expect((await early).json).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1243' })
})

test('the service worker sends a request again until a relay takes it, then only waits for the answer', async () => {
  const { name, base } = uniqueChain()
  await (await startNode({ name, persist: false, baseUrls: [base] })).stop()
  // A stand-in relay, answering by hand: it holds the chain's lock, so the service worker sees a node.
  let release!: () => void
  void navigator.locks.request(httpLockName(name), () => new Promise<void>((resolve) => (release = resolve)))
  const channel = new BroadcastChannel(httpChannelName(name))
  const copies: Extract<HttpMessage, { type: 'request' }>[] = []
  channel.onmessage = (event: MessageEvent<HttpMessage>) => {
    if (event.data.type === 'request') copies.push(event.data)
  }
  try {
    const reply = post(`${base}/`, call('eth_chainId', [], 4))
    await expect.poll(() => copies.length).toBeGreaterThanOrEqual(3)
    const { id } = copies[0]
    expect(copies.every((copy) => copy.id === id)).toBe(true)

    channel.postMessage({ type: 'ack', id, relay: 'stand-in' } satisfies HttpMessage)
    await new Promise((resolve) => setTimeout(resolve, RESEND_MS))
    const taken = copies.length
    await new Promise((resolve) => setTimeout(resolve, 5 * RESEND_MS))
    expect(copies.length).toBe(taken)

    const body = JSON.stringify({ jsonrpc: '2.0', id: 4, result: '0x4444' })
    channel.postMessage({ type: 'response', id, relay: 'stand-in', body } satisfies HttpMessage)
    expect((await reply).json).toEqual({ jsonrpc: '2.0', id: 4, result: '0x4444' })
  } finally {
    channel.close()
    release()
  }
})

test('with no node running, a clear JSON-RPC error (never the network)', async () => {
  const node = await startHttpNode()
  await node.stop()

  const started = Date.now()
  const single = await post(`${node.base}/`, call('eth_chainId', [], 7))
  expect(single.status).toBe(200)
  expect(single.json).toEqual({
    jsonrpc: '2.0',
    id: 7,
    error: { code: -32603, message: expect.stringContaining(`no pagenode node is running for "${node.name}"`) },
  })
  // Decided from the chain's Web Locks, not by waiting out a long deadline.
  expect(Date.now() - started).toBeLessThan(5_000)

  const batch = await post(`${node.base}/`, [call('eth_chainId', [], 'a'), { jsonrpc: '2.0', method: 'eth_chainId' }, call('eth_chainId', [], 'b')])
  expect((batch.json as { id: unknown; error: { code: number } }[]).map(({ id, error }) => [id, error.code])).toEqual([
    ['a', -32603],
    ['b', -32603],
  ])
})

test('one node per name answers HTTP; when it stops, the next one of that name takes over', async () => {
  const { name, base } = uniqueChain()
  const first = track(await startNode({ name, persist: false, baseUrls: [base], chainId: 0x1111 }))
  track(await startNode({ name, persist: false, baseUrls: [base], chainId: 0x2222 }))
  // Two memory chains of one name: only the first answers, never a mix of both.
  for (let i = 0; i < 5; i++) expect((await post(`${base}/`, call('eth_chainId', [], i))).json).toMatchObject({ result: '0x1111' })

  await first.stop()
  expect((await post(`${base}/`, call('eth_chainId'))).json).toMatchObject({ result: '0x2222' })
})

test('a persisted chain is answered by its leader for every tab', async () => {
  const { name, base } = uniqueChain()
  const leader = track(await startNode({ name, baseUrls: [base], chainId: 0x1242 }))
  const follower = track(await startNode({ name, baseUrls: [base], chainId: 0x1242 }))
  expect([leader.role, follower.role]).toEqual(['leader', 'follower'])
  // A transaction sent through the follower is seen over HTTP: one chain, served by the leader.
  const raw = await new Wallet(KEY).signTransaction({ to: TO, value: 1n, gasLimit: 21_000n, gasPrice: 45_250_000n, nonce: 0, chainId: 0x1242 })
  await follower.provider.request({ method: 'eth_sendRawTransaction', params: [raw] })
  expect((await post(`${base}/`, call('eth_blockNumber'))).json).toMatchObject({ result: '0x1' })

  await leader.stop()
  // The follower took over the chain (from IndexedDB) and, with it, the endpoint.
  await expect.poll(() => follower.role, { timeout: 15_000 }).toBe('leader')
  expect((await post(`${base}/`, call('eth_blockNumber'))).json).toMatchObject({ result: '0x1' })
})

test('the service worker refuses a page that speaks another protocol', async () => {
  const { name, base } = uniqueChain()
  const node = track(await startNode({ name, persist: false, baseUrls: [base] }))
  // Registered as a page of a newer pagenode would: same script, another protocol in its URL.
  const url = serviceWorkerUrl('/pagenode-sw.js', { protocol: HTTP_PROTOCOL + 1, name, baseUrls: [...node.baseUrls] }, location.href)
  const registration = await navigator.serviceWorker.register(url, { updateViaCache: 'none' })
  await expect
    .poll(() => {
      // Only the new script is asked: each message to the old one is an event that keeps it busy,
      // and the new one activates once the old one has nothing to do.
      if (registration.active?.scriptURL === url.href) registration.active.postMessage({ type: 'pagenode:claim' })
      return navigator.serviceWorker.controller?.scriptURL
    }, { timeout: 10_000 }) // installing and activating a new script took over 1 s on a loaded CI machine
    .toBe(url.href)

  const reply = await post(`${base}/`, call('eth_chainId', [], 5))
  expect(reply.json).toMatchObject({
    id: 5,
    error: { code: -32603, message: expect.stringMatching(new RegExp(`speaks protocol ${HTTP_PROTOCOL} .* speaks protocol ${HTTP_PROTOCOL + 1}`)) },
  })
})

test('the page refuses a stale service worker script, saying what to do', async () => {
  const error = await startHttpNode({ serviceWorker: '/pagenode-sw-stale.js' }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ServiceWorkerError)
  expect((error as Error).message).toMatch(
    new RegExp(`speaks protocol ${HTTP_PROTOCOL - 1}, this page's pagenode speaks protocol ${HTTP_PROTOCOL}\\. The script is out of date`),
  )
  expect((error as Error).message).toContain('npx pagenode init')
})

test('the relay answers a request of another protocol with an error, not a misreading', async () => {
  const { name } = uniqueChain()
  track(await startNode({ name, persist: false, baseUrls: [`/rpc-${name}`] }))
  const channel = new BroadcastChannel(httpChannelName(name))
  try {
    const response = await new Promise<HttpMessage>((resolve) => {
      channel.onmessage = (event: MessageEvent<HttpMessage>) => {
        if (event.data.type === 'response') resolve(event.data)
      }
      channel.postMessage({ type: 'request', protocol: HTTP_PROTOCOL + 1, id: 'old-1', body: JSON.stringify(call('eth_chainId', [], 3)) })
    })
    expect(JSON.parse((response as { body: string }).body)).toMatchObject({
      id: 3,
      error: { code: -32603, message: expect.stringContaining(`speaks protocol ${HTTP_PROTOCOL + 1} but this page's pagenode speaks protocol ${HTTP_PROTOCOL}`) },
    })
  } finally {
    channel.close()
  }
})
