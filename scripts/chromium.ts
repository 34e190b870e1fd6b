/**
 * The system Chromium every browser suite (Vitest browser mode, Playwright e2e, the bench) drives:
 * where it is and the flags it needs here. No test ever downloads a browser.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  // Without it, Chromium's background connections fail on a closed network.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
