import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { playwright } from '@vitest/browser-playwright'
import { configDefaults, defineConfig } from 'vitest/config'
import pagenode from './src/vite/plugin.ts'
import { buildServiceWorkerScript } from './scripts/build/serviceWorkerScript.ts'
import { stopServiceWorkers } from './test/support/browser/commands.ts'
import { setForkUpstream, startForkUpstream, stopForkUpstream } from './test/support/browser/forkUpstream.ts'
import { staleServiceWorker } from './test/support/browser/staleServiceWorker.ts'
import { browserDeps } from './vite.config.ts'
import { chromiumArgs, chromiumPath } from './scripts/chromium.ts'

/**
 * Tests run from the repo root, so this file is separate from vite.config.ts (whose root is
 * `demo/`). Vitest picks vitest.config.ts over vite.config.ts.
 */
export default defineConfig({
  // This repository's tests import the package by name, as users do, and get its sources (the
  // packed package is tested as installed in test/consumers/).
  resolve: { alias: [{ find: /^pagenode\/testing$/, replacement: fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)) }] },
  // The browser tests register /pagenode-sw.js, served by the plugin as in the playground, and
  // a stale copy of it (an older protocol) to check that the mismatch is reported.
  plugins: [pagenode({ serviceWorkerScript: buildServiceWorkerScript }), staleServiceWorker()],
  // The clients the browser tests drive, too: discovered mid-run they reload the tester page.
  optimizeDeps: { include: [...browserDeps, 'ethers', 'viem', 'viem/accounts', 'viem/chains', 'web3', 'zksync-ethers', '@wagmi/core'] },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          // Every test beside its module (test/README.md), but those that run in Chromium.
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, '**/*.browser.test.ts', 'test/consumers/**'],
          // EVM work (block building, solc) is slow on a 2-core machine.
          testTimeout: 30_000,
          hookTimeout: 30_000,
          // Vitest's default leaves a core to its main process (cores - 1): one worker on a 2-core
          // machine, where the main process idles. Two there: the unit suite in 421 s, not 664.
          maxWorkers: Math.max(2, availableParallelism() - 1),
        },
      },
      {
        // The packed package installed into fresh projects (Vite, Vitest, webpack, esbuild, Node,
        // the CLI, a strict tsc), each doing a real call: its own project, since it packs first.
        test: {
          name: 'consumers',
          environment: 'node',
          include: ['test/consumers/**/*.test.ts'],
          globalSetup: ['test/consumers/support/globalSetup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          // Beside their modules too, marked by name: *.browser.test.ts.
          include: ['test/**/*.browser.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          browser: {
            enabled: true,
            // Vitest ignores launchOptions.headless; this is the switch that counts.
            headless: true,
            instances: [{ browser: 'chromium' }],
            commands: { stopServiceWorkers, startForkUpstream, setForkUpstream, stopForkUpstream },
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
