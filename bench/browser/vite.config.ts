import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import pagenode from '../../src/vite/plugin.ts'
import { buildServiceWorkerScript } from '../../scripts/build/serviceWorkerScript.ts'
import { browserDeps } from '../../vite.config.ts'

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url))

/**
 * The Chromium bench site, built like an app that uses pagenode: the pagenode/vite plugin emits
 * /pagenode-sw.js, the node worker is the package's own. Pages: the harness, the start page
 * (cold/warm start, and the "page client" of the bundle sizes) and the service-worker floor.
 */
export default defineConfig({
  root: here('.'),
  publicDir: here('./public'),
  // The service worker from the sources, as this repository's other sites build it.
  plugins: [pagenode({ serviceWorkerScript: buildServiceWorkerScript })],
  logLevel: 'warn',
  build: {
    outDir: here('../.build'),
    emptyOutDir: true,
    manifest: true,
    rollupOptions: {
      input: { harness: here('./index.html'), start: here('./start.html'), floorSw: here('./floor-sw/index.html') },
    },
  },
  worker: { format: 'es' },
  optimizeDeps: { include: browserDeps },
  // Cross-origin isolated: performance.now() then has 5 µs resolution, not 100 µs.
  preview: {
    host: '127.0.0.1',
    headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
  },
})
