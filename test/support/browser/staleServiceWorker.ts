/**
 * A Vite plugin for the browser tests only: serves `/pagenode-sw-stale.js`, the real service
 * worker script built as if from an older pagenode (another protocol number), to prove that a
 * stale copy on a site is reported instead of misread.
 */
import type { Plugin } from 'vite'
import { HTTP_PROTOCOL } from '../../../src/bridge/http.ts'
import { buildServiceWorkerScript } from '../../../scripts/build/serviceWorkerScript.ts'

export const STALE_PROTOCOL = HTTP_PROTOCOL - 1
export const STALE_SCRIPT = '/pagenode-sw-stale.js'

export function staleServiceWorker(): Plugin {
  return {
    name: 'pagenode-test-stale-sw',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        if ((request.url ?? '').split('?')[0] !== STALE_SCRIPT) return next()
        buildServiceWorkerScript().then((script) => {
          const stale = script.replace(new RegExp(`\\bHTTP_PROTOCOL\\s*=\\s*${HTTP_PROTOCOL}\\b`), `HTTP_PROTOCOL=${STALE_PROTOCOL}`)
          if (stale === script) return next(new Error('the built script no longer declares HTTP_PROTOCOL as expected'))
          response.setHeader('content-type', 'text/javascript')
          response.setHeader('cache-control', 'no-cache')
          response.end(stale)
        }, next)
      })
    },
  }
}
