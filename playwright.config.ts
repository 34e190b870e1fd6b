import { defineConfig, devices } from '@playwright/test'
import { chromiumArgs, chromiumPath } from './scripts/chromium.ts'

const port = 4173
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
    command: 'npm run build && npm run preview',
    url: baseURL,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
