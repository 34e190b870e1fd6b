import { playwright } from '@vitest/browser-playwright'
import { configDefaults, defineConfig } from 'vitest/config'
import pagenode from './src/vite/plugin.ts'
import { stopServiceWorkers } from './test/browser/support/commands.ts'
import { staleServiceWorker } from './test/browser/support/staleServiceWorker.ts'
import { browserDeps } from './vite.config.ts'
import { chromiumArgs, chromiumPath } from './scripts/chromium.ts'

/**
 * Tests run from the repo root, so this file is separate from vite.config.ts (whose root is
 * `demo/`). Vitest picks vitest.config.ts over vite.config.ts.
 */
export default defineConfig({
  // The browser tests register /pagenode-sw.js, served by the plugin as in the playground, and
  // a stale copy of it (an older protocol) to check that the mismatch is reported.
  plugins: [pagenode(), staleServiceWorker()],
  // The clients the browser tests drive, too: discovered mid-run they reload the tester page.
  optimizeDeps: { include: [...browserDeps, 'ethers', 'viem', 'viem/accounts', 'viem/chains', 'web3', 'zksync-ethers', '@wagmi/core'] },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/browser/**'],
          // EVM work (block building, solc) is slow on a 2-core machine.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          browser: {
            enabled: true,
            // Vitest ignores launchOptions.headless; this is the switch that counts.
            headless: true,
            instances: [{ browser: 'chromium' }],
            commands: { stopServiceWorkers },
                provider: playwright({
              launchOptions: {
                executablePath: chromiumPath,
                args: chromiumArgs,
              },
            }),
          },
        },
      },
    ],
  },
})
