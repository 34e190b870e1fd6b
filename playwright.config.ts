import { resolve } from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { chromiumArgs, chromiumPath } from './scripts/chromium.ts'

/**
 * E2E_PORT runs a second suite beside the first (another preview server and its own build folder,
 * so neither serves the other's files): `E2E_PORT=4174 npx playwright test e2e/x.spec.ts`.
 */
const port = Number(process.env.E2E_PORT ?? 4173)
const outDir = resolve(port === 4173 ? 'dist-site' : `dist-site-${port}`)
const baseURL = `http://127.0.0.1:${port}`

/** End-to-end tests against the built playground, served by `vite preview`. */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    screenshot: 'off',
    trace: 'off',
    video: 'off',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: chromiumPath,
          args: chromiumArgs,
        },
      },
    },
  ],
  webServer: {
    // Builds first so the tests see the current code. Outside CI an already running server on
    // the port is reused as is (then it is yours to keep fresh).
    command: `npx vite build --outDir ${outDir} && npx vite preview --outDir ${outDir} --port ${port}`,
    url: baseURL,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
