/**
 * Driving the playground's node from Playwright: waiting for it, calling its provider
 * (`window.pagenode`), and signing dev-account transactions on the test's side.
 */
import { expect, type BrowserContext, type LaunchOptions, type Page } from '@playwright/test'
import { chromium } from '@playwright/test'
import { Wallet } from 'ethers'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { OfflineStatus } from '../../demo/sw/precacheManifest.ts'

/** Dev accounts of the `test … junk` mnemonic (public keys of a dev chain). */
export const DEV = [
  { address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', key: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' },
  { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', key: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' },
] as const

const GAS_PRICE = 45_250_000n

/** The status line once the node serves: its block and the tab's role. */
export const READY = /^node ready · chain 260 · block (\d+) · (leader|follower)$/

/**
 * Opens the playground on a panel (the URL hash names it) and waits for its node (genesis
 * building is slow on a small machine).
 */
export async function openPlayground(page: Page, panel = 'console'): Promise<void> {
  page.on('pageerror', (error) => console.error('[pageerror]', error))
  await page.goto(`/#${panel}`)
  await waitReady(page)
}

export async function waitReady(page: Page): Promise<void> {
  await expect(page.getByTestId('status')).toHaveText(READY, { timeout: 30_000 })
  await expect(page.getByTestId('panel-console').getByTestId('send')).toBeAttached()
}

/** A JSON-RPC call on the page's own provider; rejects with the provider's error. */
export function rpc<T = unknown>(page: Page, method: string, ...params: unknown[]): Promise<T> {
  return page.evaluate(
    ({ method, params }) => {
      if (!window.pagenode) throw new Error('the playground has no node')
      return window.pagenode.provider.request({ method, params })
    },
    { method, params },
  ) as Promise<T>
}

export const role = (page: Page) => page.evaluate(() => window.pagenode?.role)

export interface Head {
  number: string
  hash: string
  stateRoot: string
}

export const head = (page: Page) => rpc<Head>(page, 'eth_getBlockByNumber', 'latest', false)

/** Signs a dev-account transaction for chain 260 (EIP-1559 at the chain's fixed price). */
export function sign(from: number, nonce: number, fields: { to?: string; value?: bigint; data?: string; gasLimit?: bigint }): Promise<string> {
  return new Wallet(DEV[from].key).signTransaction({
    type: 2,
    chainId: 260,
    nonce,
    gasLimit: 21_000n,
    maxFeePerGas: GAS_PRICE,
    maxPriorityFeePerGas: 0n,
    ...fields,
  })
}

/** Sends a transfer through the page's provider; resolves its hash once acknowledged. */
export async function transfer(page: Page, from: number, to: string, value: bigint): Promise<string> {
  const nonce = Number(await rpc<string>(page, 'eth_getTransactionCount', DEV[from].address, 'pending'))
  return rpc<string>(page, 'eth_sendRawTransaction', await sign(from, nonce, { to, value }))
}

/**
 * A browser with an on-disk profile (real IndexedDB, unlike a default context, which keeps it
 * in memory), launched as the config launches Chromium. `restart` closes it and launches it
 * again on the same profile, like a user quitting and reopening the browser.
 */
export async function persistentBrowser(launchOptions: LaunchOptions, baseURL: string | undefined) {
  const profile = await mkdtemp(join(tmpdir(), 'pagenode-e2e-'))
  const launch = () => chromium.launchPersistentContext(profile, { ...launchOptions, baseURL })
  let context: BrowserContext = await launch()
  return {
    get context() {
      return context
    },
    async restart() {
      await context.close()
      context = await launch()
      return context
    },
    async close() {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}

/**
 * Makes the page's node worker stop answering for `ms` (a busy loop run in it through the
 * DevTools protocol), as a hung or frozen leader would. Freezing the page itself does not do
 * it: Chromium keeps its dedicated workers running.
 */
export async function hangWorker(page: Page, ms: number): Promise<void> {
  const devtools = await page.context().newCDPSession(page)
  const attached = new Promise<string>((resolve) =>
    devtools.on('Target.attachedToTarget', ({ sessionId, targetInfo }) => {
      if (targetInfo.type === 'worker') resolve(sessionId)
    }),
  )
  await devtools.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false })
  const sessionId = await attached
  const expression = `{ const until = Date.now() + ${ms}; while (Date.now() < until) {} }`
  await devtools.send('Target.sendMessageToTarget', {
    sessionId,
    message: JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression } }),
  })
}

/**
 * Stops every service worker of the browser through the DevTools protocol, as Chromium does to
 * an idle one, and waits until they are all stopped: the next request starts one afresh.
 */
export async function stopServiceWorkers(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  const status = new Map<string, string>()
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const version of versions) status.set(version.versionId, version.runningStatus)
  })
  await cdp.send('ServiceWorker.enable')
  await expect.poll(() => [...status.values()]).toContain('running')
  await cdp.send('ServiceWorker.stopAllWorkers')
  await expect.poll(() => [...status.values()].every((state) => state === 'stopped')).toBe(true)
  await cdp.detach()
}

/** Asks the playground's active service worker to finish precaching and say how far it got. */
export function offlineStatus(page: Page): Promise<OfflineStatus> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready
    const { port1, port2 } = new MessageChannel()
    const reply = new Promise<OfflineStatus>((resolve) => (port1.onmessage = (event) => resolve(event.data as OfflineStatus)))
    registration.active!.postMessage({ type: 'playground:offline' }, [port2])
    return reply
  })
}
