/**
 * `pagenode/vite`: everything a Vite app (dev server, `vite build`, Vitest browser mode) needs
 * to run pagenode, with no other configuration:
 *
 * - serves the service worker script at `{base}pagenode-sw.js` in the dev server and emits it into
 *   every client build, so an app keeps no copy of it in `public/` (a copy goes stale when
 *   pagenode is updated);
 * - keeps pagenode out of dependency pre-bundling: its client creates the node worker with
 *   `new URL('../worker/nodeWorker.js', import.meta.url)`, which only resolves from the package's
 *   own folder, not from a pre-bundled copy under node_modules/.vite;
 * - pre-bundles what `pagenode/testing` imports (viem, ethers), so Vitest does not discover them
 *   mid-run and reload the test page;
 * - builds workers as ES modules: the node worker loads its WebAssembly crypto as separate
 *   chunks, which Vite's default worker format (iife) cannot split.
 *
 *   // vite.config.ts
 *   import pagenode from 'pagenode/vite'
 *   export default defineConfig({ plugins: [pagenode()] })
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Plugin, UserConfig } from 'vite'
import { readServiceWorkerScript, SCRIPT_FILE_NAME } from './serviceWorkerScript.ts'

export interface PagenodePluginOptions {
  /**
   * Where the service worker script comes from. Default: the one prebuilt in the package.
   * (pagenode's own repository builds it from its sources, so that edits show at once.)
   */
  serviceWorkerScript?: () => Promise<string>
}

/** What `pagenode/testing` imports: pre-bundled when the app has them installed. */
const TESTING_DEPENDENCIES = ['viem', 'viem/accounts', 'viem/chains', 'ethers']

export default function pagenode(options: PagenodePluginOptions = {}): Plugin {
  const script = options.serviceWorkerScript ?? readServiceWorkerScript
  let base = '/'
  let ssr = false
  return {
    name: 'pagenode',
    config(config): UserConfig {
      const installed = TESTING_DEPENDENCIES.filter((name) => isInstalled(name, config.root ?? process.cwd()))
      return {
        optimizeDeps: { exclude: ['pagenode'], include: installed },
        worker: { format: 'es' },
      }
    },
    configResolved(config) {
      base = config.base
      ssr = Boolean(config.build.ssr)
    },
    configureServer(server) {
      // Added before Vite's own middlewares: a public/ copy, if any, must not win over this.
      server.middlewares.use((request, response, next) => {
        const path = (request.url ?? '').split('?')[0]
        if (path !== `${base}${SCRIPT_FILE_NAME}`) return next()
        script().then(
          (text) => {
            response.setHeader('content-type', 'text/javascript; charset=utf-8')
            response.setHeader('cache-control', 'no-cache')
            response.end(text)
          },
          (error: unknown) => next(error),
        )
      })
    },
    async generateBundle() {
      // Only the client build carries it (worker bundles do not run this plugin; SSR has no site).
      if (ssr) return
      this.emitFile({ type: 'asset', fileName: SCRIPT_FILE_NAME, source: await script() })
    },
  }
}

/** Whether `name` resolves from the app's root (a peer dependency the app may not have). */
function isInstalled(name: string, root: string): boolean {
  try {
    createRequire(join(root, 'package.json')).resolve(name)
    return true
  } catch {
    return false
  }
}
