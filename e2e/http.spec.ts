/**
 * The playground's HTTP endpoint end to end, against the built site (`vite preview`): the page
 * starts its node and the service worker answers /rpc, http://localhost:8011 and
 * http://127.0.0.1:8011 for plain fetch() in the page, across first loads, hard reloads, a
 * stopped service worker, a second tab, and no node at all.
 */
import { connect } from 'node:net'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { Wallet } from 'ethers'
import { stopServiceWorkers } from './support/playground.ts'

/** A browser bundle a package ships (not in its exports map, so by path). */
const bundle = (path: string) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url))
const DEV0_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const DEV0_ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const OTHER = '0x000000000000000000000000000000000000dead'

interface HttpAnswer {
  status: number
  contentType: string | null
  allow: string | null
  allowOrigin: string | null
  text: string
}

const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({ jsonrpc: '2.0', id, method, params })

/** fetch() in the page, as an app's HTTP client sends it. */
function fetchInPage(page: Page, url: string, init: { method?: string; body?: unknown } = {}): Promise<HttpAnswer> {
  return page.evaluate(
    async ({ url, method, body }) => {
      const response = await fetch(url, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      })
      return {
        status: response.status,
        contentType: response.headers.get('content-type'),
        allow: response.headers.get('allow'),
        allowOrigin: response.headers.get('access-control-allow-origin'),
        text: await response.text(),
      }
    },
    { url, method: init.method ?? 'POST', body: init.body },
  )
}

async function postJson(page: Page, url: string, body: unknown): Promise<unknown> {
  const answer = await fetchInPage(page, url, { body })
  expect(answer.status).toBe(200)
  expect(answer.contentType).toBe('application/json')
  return answer.text === '' ? undefined : JSON.parse(answer.text)
}

async function openPlayground(page: Page): Promise<void> {
  await page.goto('/')
  await expectReady(page)
}

async function expectReady(page: Page): Promise<void> {
  // Boot includes building the genesis state, which is slow on a small machine.
  await expect(page.getByTestId('status')).toHaveText(/^node ready · chain 260 · block \d+ · (leader|follower)$/, { timeout: 30_000 })
}

const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller !== null)

/** Whether anything accepts TCP connections on the port (the tests expect nothing on 8011). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}

test.beforeEach(async ({ page }) => {
  page.on('pageerror', (error) => console.error('[pageerror]', error))
})

test('on the first load the page is controlled without a reload and shows its endpoint', async ({ page }) => {
  // Recorded before any page script runs: a first load starts uncontrolled.
  await page.addInitScript(() => ((window as unknown as { controlledAtStart: boolean }).controlledAtStart = navigator.serviceWorker.controller !== null))
  let loads = 0
  page.on('load', () => loads++)
  await openPlayground(page)
  expect(await page.evaluate(() => (window as unknown as { controlledAtStart: boolean }).controlledAtStart)).toBe(false)
  expect(await controlled(page)).toBe(true)
  expect(loads).toBe(1)
  await expect(page.getByTestId('endpoint-urls')).toHaveText(`${new URL(page.url()).origin}/rpc · http://localhost:8011 · http://127.0.0.1:8011`)
  expect(await postJson(page, '/rpc', call('eth_chainId'))).toEqual({ jsonrpc: '2.0', id: 1, result: '0x104' })
})

test('plain fetch: both path shapes, batch, notification, bad JSON, unknown method', async ({ page }) => {
  await openPlayground(page)
  expect(await postJson(page, '/rpc/', call('eth_chainId'))).toEqual({ jsonrpc: '2.0', id: 1, result: '0x104' })
  expect(await postJson(page, '/rpc/eth_chainId', { jsonrpc: '2.0', id: 2 })).toEqual({ jsonrpc: '2.0', id: 2, result: '0x104' })
  expect(await postJson(page, '/rpc/eth_chainId', call('net_version', [], 3))).toEqual({ jsonrpc: '2.0', id: 3, result: '260' })
  expect(await postJson(page, '/rpc', [call('eth_chainId', [], 'a'), { jsonrpc: '2.0', method: 'eth_chainId' }, call('net_version', [], 'b')])).toEqual([
    { jsonrpc: '2.0', id: 'a', result: '0x104' },
    { jsonrpc: '2.0', id: 'b', result: '260' },
  ])
  expect(await postJson(page, '/rpc', { jsonrpc: '2.0', method: 'eth_chainId' })).toBeUndefined()
  expect(await postJson(page, '/rpc', '[{"jsonrpc":"2.0"')).toMatchObject({ id: null, error: { code: -32700 } })
  expect(await postJson(page, '/rpc/pagenode_noSuchMethod', { jsonrpc: '2.0', id: 4 })).toMatchObject({ id: 4, error: { code: -32601 } })
})

test('OPTIONS gets CORS headers and GET is 405 with a JSON-RPC error', async ({ page }) => {
  await openPlayground(page)
  const options = await fetchInPage(page, '/rpc', { method: 'OPTIONS' })
  expect(options.status).toBe(204)
  expect(options.allowOrigin).toBe('*')

  const get = await fetchInPage(page, '/rpc/eth_chainId', { method: 'GET' })
  expect(get.status).toBe(405)
  expect(get.allow).toBe('POST, OPTIONS')
  expect(JSON.parse(get.text)).toMatchObject({ id: null, error: { code: -32600, message: 'HTTP GET is not supported: send JSON-RPC requests with POST' } })
})

test('http://127.0.0.1:8011 and http://localhost:8011, with nothing listening, are this node', async ({ page }) => {
  await openPlayground(page)
  // A block only this chain has (a transfer at this moment), sent through the page's provider…
  const nonce = await page.evaluate(
    (address) => window.pagenode!.provider.request({ method: 'eth_getTransactionCount', params: [address, 'latest'] }),
    DEV0_ADDRESS,
  )
  const raw = await new Wallet(DEV0_KEY).signTransaction({ to: OTHER, value: 1n, gasLimit: 21_000n, gasPrice: 45_250_000n, nonce: Number(nonce), chainId: 260 })
  const head = await page.evaluate(async (raw) => {
    const provider = window.pagenode!.provider
    await provider.request({ method: 'eth_sendRawTransaction', params: [raw] })
    return (await provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: string }
  }, raw)
  // …is what both cross-origin bases answer.
  for (const base of ['http://127.0.0.1:8011', 'http://localhost:8011']) {
    expect(await postJson(page, `${base}/eth_getBlockByNumber`, { jsonrpc: '2.0', id: 1, params: ['latest', false] })).toMatchObject({
      result: { hash: head.hash },
    })
  }
  expect(await listening(8011), 'something listens on 8011: the answers above may not prove interception').toBe(false)
})

test('unmodified ethers and web3.js bundles in the page, pointed at http://localhost:8011: a transfer and its receipt', async ({ page }) => {
  await openPlayground(page)
  // The libraries' own browser bundles, as a script tag on any page would load them.
  await page.addScriptTag({ path: bundle('ethers/dist/ethers.umd.min.js') })
  await page.addScriptTag({ path: bundle('web3/dist/web3.min.js') })
  const result = await page.evaluate(
    async ({ key, to }) => {
      const { ethers, Web3 } = window as unknown as { ethers: typeof import('ethers'); Web3: typeof import('web3').Web3 }
      const provider = new ethers.JsonRpcProvider('http://localhost:8011', undefined, { pollingInterval: 20 })
      const wallet = new ethers.Wallet(key, provider)
      const sent = await wallet.sendTransaction({ to, value: ethers.parseEther('1') })
      const receipt = await sent.wait()
      provider.destroy()
      const web3 = new Web3('http://localhost:8011')
      const fromWeb3 = await web3.eth.getTransactionReceipt(sent.hash)
      return { status: receipt?.status, block: receipt?.blockNumber, web3Block: Number(fromWeb3.blockNumber), balance: String(await web3.eth.getBalance(to)) }
    },
    { key: DEV0_KEY, to: OTHER },
  )
  expect(result).toEqual({ status: 1, block: 1, web3Block: 1, balance: '1000000000000000000' })
  // The page's own provider sees the same chain.
  await expect(page.getByTestId('status')).toHaveText('node ready · chain 260 · block 1 · leader')
})

test('a hard reload (Shift+Reload) starts uncontrolled and is controlled again without a reload', async ({ page }) => {
  await openPlayground(page)
  await page.addInitScript(() => ((window as unknown as { controlledAtStart: boolean }).controlledAtStart = navigator.serviceWorker.controller !== null))
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Page.reload', { ignoreCache: true })
  await expectReady(page)
  expect(await page.evaluate(() => (window as unknown as { controlledAtStart: boolean }).controlledAtStart)).toBe(false)
  expect(await controlled(page)).toBe(true)
  expect(await postJson(page, '/rpc', call('eth_chainId'))).toEqual({ jsonrpc: '2.0', id: 1, result: '0x104' })
})

test('after the browser stops the service worker, the next request is answered', async ({ page }) => {
  await openPlayground(page)
  expect(await postJson(page, '/rpc', call('eth_chainId'))).toMatchObject({ result: '0x104' })

  await stopServiceWorkers(page)

  expect(await postJson(page, 'http://127.0.0.1:8011/eth_chainId', { jsonrpc: '2.0', id: 5 })).toEqual({ jsonrpc: '2.0', id: 5, result: '0x104' })
})

test('a request the page sends while its node is still starting is answered', async ({ page }) => {
  await openPlayground(page)
  // As a dApp calling its RPC at once on load: sent at document start, before startNode runs.
  await page.addInitScript(() => {
    ;(window as unknown as { early: Promise<string> }).early = fetch('/rpc', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'early', method: 'eth_chainId', params: [] }),
    }).then((response) => response.text())
  })
  await page.reload()
  const early = await page.evaluate(() => (window as unknown as { early: Promise<string> }).early)
  expect(JSON.parse(early)).toEqual({ jsonrpc: '2.0', id: 'early', result: '0x104' })
})

test("a second tab's requests are answered by the leader, and by itself once the leader tab closes", async ({ page, context }) => {
  await openPlayground(page)
  const second = await context.newPage()
  await second.goto('/')
  await expect(second.getByTestId('status')).toHaveText(/· follower$/, { timeout: 30_000 })
  expect(await postJson(second, '/rpc', call('eth_chainId'))).toMatchObject({ result: '0x104' })

  await page.close()
  await expect.poll(() => second.evaluate(() => window.pagenode!.role), { timeout: 30_000 }).toBe('leader')
  expect(await postJson(second, 'http://localhost:8011', call('eth_chainId'))).toMatchObject({ result: '0x104' })
})

test('with no node running, the endpoint answers a clear JSON-RPC error', async ({ page }) => {
  await openPlayground(page)
  await page.evaluate(() => window.pagenode!.stop())
  expect(await postJson(page, '/rpc', call('eth_chainId', [], 8))).toEqual({
    jsonrpc: '2.0',
    id: 8,
    error: {
      code: -32603,
      message: expect.stringContaining(`no pagenode node is running for "playground" on ${new URL(page.url()).origin}`),
    },
  })
})

test('a stale service worker script on the site is reported, saying what to do, and the console still works', async ({ page, context }) => {
  // The site serves a script from an older pagenode (another protocol number).
  await context.route('**/pagenode-sw.js?*', async (route) => {
    const script = await (await route.fetch()).text()
    const stale = script.replace(/\bHTTP_PROTOCOL\s*=\s*(\d+)\b/, (_, n: string) => `HTTP_PROTOCOL=${Number(n) - 1}`)
    expect(stale).not.toBe(script)
    await route.fulfill({ body: stale, contentType: 'text/javascript' })
  })
  await page.goto('/')
  const endpoint = page.getByTestId('endpoint')
  await expect(endpoint).toHaveAttribute('data-state', 'failed', { timeout: 30_000 })
  await expect(endpoint).toContainText('HTTP endpoint unavailable')
  await expect(endpoint).toContainText('The script is out of date')
  await expect(endpoint).toContainText('npx pagenode init')
  // The console still works, through the provider alone.
  await expectReady(page)
  expect(await page.evaluate(() => window.pagenode!.baseUrls)).toEqual([])
})

test.describe('with service workers blocked', () => {
  test.use({ serviceWorkers: 'block' })

  test('the playground runs provider-only and says why there is no HTTP endpoint', async ({ page }) => {
    await openPlayground(page)
    const endpoint = page.getByTestId('endpoint')
    await expect(endpoint).toHaveAttribute('data-state', 'failed')
    await expect(endpoint).toContainText('service workers are blocked in this browser context')
    expect(await page.evaluate(() => window.pagenode!.provider.request({ method: 'eth_chainId', params: [] }))).toBe('0x104')
  })
})
