/**
 * The playground's PNG icons (public/icon-*.png), drawn from its SVGs by the system Chromium:
 * browsers want PNGs of set sizes in a web app manifest (Chromium's install prompt, iOS's home
 * screen). Run after changing public/favicon.svg or public/icon.svg: `npx tsx scripts/playground-icons.ts`.
 *
 * - icon-192.png, icon-512.png: the favicon (rounded square), purpose "any".
 * - icon-maskable-512.png: icon.svg, full bleed with the mark inside the safe zone (a circle of
 *   80% of the width), purpose "maskable": the platform cuts its own shape out of it.
 * - apple-touch-icon.png (180): iOS rounds the corners itself, so the full-bleed one.
 */
import { readFile } from 'node:fs/promises'
import { chromium } from 'playwright'
import { chromiumArgs, chromiumPath } from './chromium.ts'

const ICONS = [
  { source: 'public/favicon.svg', out: 'public/icon-192.png', size: 192 },
  { source: 'public/favicon.svg', out: 'public/icon-512.png', size: 512 },
  { source: 'public/icon.svg', out: 'public/icon-maskable-512.png', size: 512 },
  { source: 'public/icon.svg', out: 'public/apple-touch-icon.png', size: 180 },
]

const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
try {
  for (const { source, out, size } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 })
    const svg = await readFile(source, 'utf8')
    await page.setContent(`<style>html,body{margin:0;background:transparent}img{display:block;width:${size}px;height:${size}px}</style><img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">`)
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode())
    await page.screenshot({ path: out, omitBackground: true })
    await page.close()
    console.log(`${out}: ${size}×${size}`)
  }
} finally {
  await browser.close()
}
