/**
 * Offline: after a first visit the playground's service worker (/playground-sw.js, pagenode's
 * relay plus a precache of the built site) serves the playground and the example dApp with the
 * network off, the node starts from IndexedDB and mines, and the HTTP endpoint still answers.
 * A new deploy (a new precache version) replaces the old cache.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import type { OfflineStatus } from '../demo/sw/precacheManifest.ts'
import { READY, head, offlineStatus, openPlayground, rpc, stopServiceWorkers, transfer, waitReady } from './support/playground.ts'

const TO = '0x000000000000000000000000000000000000beef'
/** The build folder the config serves (playwright.config.ts): whether the dApp page is in it. */
const port = Number(process.env.E2E_PORT ?? 4173)
const outDir = resolve(port === 4173 ? 'dist-site' : `dist-site-${port}`)

/** The site's files as built (the service worker scripts aside: the browser keeps those itself). */
function builtFiles(): string[] {
  return readdirSync(outDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('-sw.js'))
    .map((entry) => `${entry.parentPath}/${entry.name}`.slice(outDir.length + 1))
}

/** A first visit, until everything the site serves is cached. */
async function visitOnline(page: Page): Promise<OfflineStatus> {
  await openPlayground(page, 'console')
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/playground-sw\.js\?/)
  const status = await offlineStatus(page)
  expect(status).toMatchObject({ ready: true })
  expect(status.total).toBeGreaterThan(3)
  return status
}

const postRpc = (page: Page, url: string, method: string, params: unknown[] = []) =>
  page.evaluate(
    async ({ url, method, params }) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
      return (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
    },
    { url, method, params },
  )

/** Whether a GET from the page gets any answer (a network error when nothing can serve it). */
const reachable = (page: Page, url: string) =>
  page.evaluate((url) => fetch(url, { cache: 'no-store' }).then(() => true, () => false), url)


async function goOffline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true)
  // The premise: nothing the cache lacks can be fetched now, by the page or its service worker.
  expect(await reachable(page, `/not-precached-${Date.now()}.txt`)).toBe(false)
}

test('after a first visit the playground loads, mines and answers HTTP with the network off', async ({ page, context }) => {
  const { onUse } = await visitOnline(page)
  await transfer(page, 0, TO, 7n)
  await expect(page.getByTestId('status')).toHaveText(/ · block 1 · /)

  await goOffline(context, page)
  await page.reload()
  await waitReady(page)
  // The chain came back from IndexedDB…
  await expect(page.getByTestId('status')).toHaveText(/ · block 1 · leader$/)
  expect(await rpc(page, 'eth_getBalance', TO, 'latest')).toBe('0x7')

  // …and goes on: a transaction from the console, mined.
  const before = Number((await head(page)).number)
  await page.getByTestId('method').fill('eth_sendTransaction')
  await page.getByTestId('params').fill(JSON.stringify([{ from: (await rpc<string[]>(page, 'eth_accounts'))[1], to: TO, value: '0x5' }]))
  await page.getByTestId('send').click()
  await expect(page.getByTestId('response')).toHaveAttribute('data-state', 'ok')
  await expect(page.getByTestId('status')).toHaveText(new RegExp(` · block ${before + 1} · leader$`))
  expect(await rpc(page, 'eth_getBalance', TO, 'latest')).toBe('0xc')

  // The HTTP endpoint is the same node, offline too…
  expect(await postRpc(page, '/rpc', 'eth_blockNumber')).toEqual({ jsonrpc: '2.0', id: 1, result: `0x${(before + 1).toString(16)}` })
  expect(await postRpc(page, 'http://localhost:8011', 'eth_chainId')).toMatchObject({ result: '0x104' })
  // …also after the browser stopped the worker: it restarts from the stored script and its import.
  await stopServiceWorkers(page)
  expect(await postRpc(page, '/rpc', 'eth_getBalance', [TO, 'latest'])).toMatchObject({ result: '0xc' })

  // Every built file is there, also those this page did not load (other pages' chunks, the
  // compiler), but the second compiler: cached when first chosen (e2e/playground-contracts.spec.ts).
  expect(onUse).toEqual([expect.stringMatching(/\/soljson-[\w-]+\.js$/)])
  for (const path of builtFiles()) expect(await reachable(page, `/${path}`), path).toBe(!onUse.includes(path))
})

test('the example dApp loads and works offline after a visit to the playground', async ({ page, context }) => {
  test.skip(!existsSync(resolve(outDir, 'dapp/index.html')), 'the build has no dApp page yet')
  await visitOnline(page)
  await goOffline(context, page)
  const dapp = await context.newPage()
  const failed: string[] = []
  dapp.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`))
  dapp.on('pageerror', (error) => console.error('[dapp pageerror]', error))
  await dapp.goto('/dapp/')
  // Its page, scripts, styles and node worker came from the cache; it deploys its token and
  // reads it over viem's http transport on /rpc, all through the service worker.
  await expect(dapp.getByTestId('dapp-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 })
  await dapp.getByTestId('claim').click()
  await expect(dapp.getByTestId('claim-outcome')).toContainText('Claimed 100 PAGE')
  expect(failed).toEqual([])
  // The playground tab sees the dApp's blocks: one chain.
  await expect(page.getByTestId('status')).toHaveText(READY)
  expect(Number((await head(page)).number)).toBeGreaterThan(0)
})

test('a new deploy (another precache version) replaces the old cache, reusing unchanged hashed files', async ({ page, context }) => {
  const first = await visitOnline(page)
  const cacheNames = () => page.evaluate(() => caches.keys())
  expect(await cacheNames()).toEqual([`playground-${first.version}`])
  /** When the server sent each cached hashed file: a file downloaded again would have a later date. */
  const assetDates = () =>
    page.evaluate(async () => {
      const cache = await caches.open((await caches.keys())[0])
      const dates: Record<string, string | null> = {}
      for (const request of await cache.keys()) {
        if (request.url.includes('/assets/')) dates[request.url] = (await cache.match(request, { ignoreVary: true }))!.headers.get('date')
      }
      return dates
    })
  const before = await assetDates()
  expect(Object.keys(before).length).toBeGreaterThan(0)
  await page.waitForTimeout(1_100) // Date headers have whole seconds.

  // The next deploy puts a new script on the server: the same files under a new version, as a
  // changed page would make it. (Playwright's routing does not see a service worker's update check.)
  const script = join(outDir, 'playground-sw.js')
  const deployed = readFileSync(script, 'utf8')
  const next = `${first.version.slice(0, -4)}beef`
  writeFileSync(script, deployed.replaceAll(first.version, next))
  try {
    await page.evaluate(async () => (await navigator.serviceWorker.ready).update())
    await expect.poll(cacheNames, { timeout: 30_000 }).toEqual([`playground-${next}`])
  } finally {
    writeFileSync(script, deployed)
  }
  expect(await offlineStatus(page)).toMatchObject({ version: next, ready: true, total: first.total })
  expect(await assetDates(), 'hashed files are copied from the old cache, not downloaded again').toEqual(before)

  // The page is still served by the node's endpoint, and the new cache serves it offline.
  expect(await postRpc(page, '/rpc', 'eth_chainId')).toMatchObject({ result: '0x104' })
  await goOffline(context, page)
  await page.reload()
  await waitReady(page)
  await expect(page.getByTestId('status')).toHaveText(READY)
})
