/**
 * Browser commands (run in Vitest's Node process, with Playwright) for the service worker tests.
 * CDP events relayed to the page by `cdp()` from 'vitest/browser' arrive or not depending on a
 * race with their subscription; here they are read where they happen.
 */
import type { BrowserCommand } from 'vitest/node'

interface VersionUpdate {
  versions: { versionId: string; runningStatus: string }[]
}

/**
 * `ServiceWorker.stopAllWorkers`, as Chromium does to an idle worker: resolves with how many
 * workers were running and are now stopped (their memory gone).
 */
export const stopServiceWorkers: BrowserCommand<[]> = async ({ page }) => {
  const cdp = await page.context().newCDPSession(page)
  const status = new Map<string, string>()
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }: VersionUpdate) => {
    for (const version of versions) status.set(version.versionId, version.runningStatus)
  })
  try {
    await cdp.send('ServiceWorker.enable')
    // The current versions are reported right after enable.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const running = [...status].filter(([, state]) => state === 'running').map(([id]) => id)
    await cdp.send('ServiceWorker.stopAllWorkers')
    const deadline = Date.now() + 5_000
    while (running.some((id) => status.get(id) !== 'stopped')) {
      if (Date.now() > deadline) throw new Error(`service workers still running: ${JSON.stringify([...status])}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return { stopped: running.length }
  } finally {
    await cdp.detach()
  }
}
