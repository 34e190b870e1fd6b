/**
 * `pagenode/vite`: serves the pagenode service worker script at `{base}pagenode-sw.js` in the dev
 * server and emits it into every client build, so an app needs no copy of it in `public/` (a copy
 * goes stale when pagenode is updated; this one is always built from the installed sources).
 *
 *   // vite.config.ts
 *   import pagenode from 'pagenode/vite'
 *   export default defineConfig({ plugins: [pagenode()] })
 */
import type { Plugin } from 'vite'
import { buildServiceWorkerScript, SCRIPT_FILE_NAME } from './serviceWorkerScript.ts'

export { buildServiceWorkerScript } from './serviceWorkerScript.ts'

export default function pagenode(): Plugin {
  let base = '/'
  let ssr = false
  return {
    name: 'pagenode',
    configResolved(config) {
      base = config.base
      ssr = Boolean(config.build.ssr)
    },
    configureServer(server) {
      // Added before Vite's own middlewares: a public/ copy, if any, must not win over this.
      server.middlewares.use((request, response, next) => {
        const path = (request.url ?? '').split('?')[0]
        if (path !== `${base}${SCRIPT_FILE_NAME}`) return next()
        // Built per request (tens of ms): an edited src/sw/ is picked up by the next update check.
        buildServiceWorkerScript().then(
          (script) => {
            response.setHeader('content-type', 'text/javascript; charset=utf-8')
            response.setHeader('cache-control', 'no-cache')
            response.end(script)
          },
          (error: unknown) => next(error),
        )
      })
    },
    async generateBundle() {
      // Only the client build carries it (worker bundles do not run this plugin; SSR has no site).
      if (ssr) return
      this.emitFile({ type: 'asset', fileName: SCRIPT_FILE_NAME, source: await buildServiceWorkerScript() })
    },
  }
}
