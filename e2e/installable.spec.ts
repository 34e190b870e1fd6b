/**
 * The playground installs as an app: a web app manifest with PNG icons of the sizes browsers ask
 * for (and a maskable one), linked from the page; Chromium itself reports no installability error;
 * and the manifest and icons are precached with the rest of the site, so the installed app starts
 * offline.
 */
import { expect, test, type BrowserContext } from '@playwright/test'
import { openPlayground, persistentBrowser } from './support/playground.ts'

interface Manifest {
  name: string
  start_url: string
  display: string
  icons: { src: string; sizes: string; type: string; purpose: string }[]
}

test('a web app manifest with icons; Chromium finds it installable; manifest and icons are there offline', async ({ launchOptions, baseURL }) => {
  // A profile on disk: Chromium offers no install in an incognito-like context (Playwright's default).
  const browser = await persistentBrowser(launchOptions, baseURL)
  try {
    await checkInstallable(browser.context)
  } finally {
    await browser.close()
  }
})

async function checkInstallable(context: BrowserContext): Promise<void> {
  const page = context.pages()[0] ?? (await context.newPage())
  await openPlayground(page, 'accounts')
  const href = await page.locator('link[rel="manifest"]').getAttribute('href')
  expect(href).toBe('/manifest.webmanifest')
  const manifest = (await (await page.request.get(href!)).json()) as Manifest
  expect(manifest).toMatchObject({ name: 'pagenode playground', start_url: '/', display: 'standalone' })
  const sizes = manifest.icons.filter((icon) => icon.type === 'image/png').map((icon) => `${icon.sizes} ${icon.purpose}`)
  expect(sizes).toEqual(['192x192 any', '512x512 any', '512x512 maskable'])

  // Each icon is an image of the size it claims.
  for (const icon of [...manifest.icons, { src: '/apple-touch-icon.png', sizes: '180x180', type: 'image/png', purpose: 'any' }]) {
    const natural = await page.evaluate(async (src) => {
      const image = new Image()
      image.src = src
      await image.decode()
      return `${image.naturalWidth}x${image.naturalHeight}`
    }, icon.src)
    if (icon.sizes !== 'any') expect(natural, icon.src).toBe(icon.sizes)
  }

  // Chromium's own verdict: the manifest parses, and nothing stands in the way of installing.
  const cdp = await context.newCDPSession(page)
  const { errors } = (await cdp.send('Page.getAppManifest')) as { errors: { message: string }[] }
  expect(errors).toEqual([])
  await expect.poll(async () => ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] }).installabilityErrors.map((error) => error.errorId), { timeout: 30_000 }).toEqual([])

  // Precached (the service worker's list is the whole build): reachable with the network off.
  await expect.poll(() => page.evaluate(async () => (await Promise.all(['/manifest.webmanifest', '/icon-192.png', '/icon-512.png', '/icon-maskable-512.png'].map((url) => caches.match(url)))).every(Boolean)), { timeout: 30_000 }).toBe(true)
  await context.setOffline(true)
  expect(await page.evaluate(async () => (await fetch('/manifest.webmanifest', { cache: 'no-store' })).ok)).toBe(true)
  await context.setOffline(false)
}
