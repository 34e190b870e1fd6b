/**
 * Opens a consumer's page in the system Chromium and waits for what its script reports:
 * `window.__result` once its calls succeeded, or `window.__error`.
 */
import { chromium, type Browser } from 'playwright'
import { chromiumArgs, chromiumPath } from '../../../scripts/chromium.ts'

let browser: Browser | undefined

export async function closeBrowser(): Promise<void> {
  await browser?.close()
  browser = undefined
}

export interface PageReport {
  result: Record<string, unknown>
  /** What the page logged as errors (uncaught exceptions and console.error). */
  errors: string[]
}

export async function openConsumerPage(url: string, timeoutMs = 60_000): Promise<PageReport> {
  browser ??= await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const context = await browser.newContext()
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
  try {
    await page.goto(url)
    const handle = await page.waitForFunction(() => (window as { __result?: unknown }).__result ?? (window as { __error?: unknown }).__error, undefined, {
      timeout: timeoutMs,
    })
    const outcome = (await handle.jsonValue()) as Record<string, unknown>
    const failure = await page.evaluate(() => (window as { __error?: string }).__error)
    if (failure) throw new Error(`the page failed: ${failure}\n${errors.join('\n')}`)
    return { result: outcome, errors }
  } finally {
    await context.close()
  }
}
