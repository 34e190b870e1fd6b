import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import pagenode from './src/vite/plugin.ts'
import { buildServiceWorkerScript } from './scripts/build/serviceWorkerScript.ts'
import playgroundOffline from './demo/vite/offlinePlugin.ts'
import playgroundLibraries from './demo/vite/librariesPlugin.ts'

/** Absolute path of a file or folder given relative to the repo root. */
const fromRoot = (path: string): string => fileURLToPath(new URL(path, import.meta.url))

/**
 * Dependencies the core (and browser tests) import. Listing them up front stops Vite from
 * discovering them mid-run and re-optimising, which reloads the page and broke a worker on a first
 * run (docs/browser-notes.md, "Vite's dependency discovery"). Only bare specifiers that resolve
 * belong here.
 */
export const browserDeps = [
  '@ethereumjs/block',
  '@ethereumjs/common',
  '@ethereumjs/evm',
  '@ethereumjs/mpt',
  '@ethereumjs/rlp',
  '@ethereumjs/statemanager',
  '@ethereumjs/tx',
  '@ethereumjs/util',
  '@ethereumjs/vm',
  '@noble/curves',
  '@noble/hashes',
  '@scure/bip32',
  '@scure/bip39',
  'idb',
]

/** The playground app: `demo/` is the site, `public/` its static root, `dist-site/` the build (`dist/` is the package's). */
export default defineConfig({
  root: fromRoot('./demo'),
  publicDir: fromRoot('./public'),
  // Serves /pagenode-sw.js in dev and emits it into dist-site/ (which preview serves); the playground
  // registers /playground-sw.js, which imports it and adds the offline cache of the site.
  // playgroundLibraries emits the Solidity libraries the playground's compiler imports (OpenZeppelin).
  // The second compiler (demo/playground/contracts/solcVersions.ts) is cached when first chosen, not precached.
  plugins: [
    pagenode({ serviceWorkerScript: buildServiceWorkerScript }),
    playgroundLibraries(),
    playgroundOffline({ cachedOnUse: [fromRoot('./node_modules/solc-0.8.37/soljson.js')] }),
  ],
  build: {
    outDir: fromRoot('./dist-site'),
    // dist-site/ is outside root, so Vite would refuse to clean it without this.
    emptyOutDir: true,
    // Two pages: the playground and the example dApp it links to (demo/dapp/).
    rolldownOptions: { input: { main: fromRoot('./demo/index.html'), dapp: fromRoot('./demo/dapp/index.html') } },
  },
  worker: { format: 'es' },
  optimizeDeps: { include: browserDeps },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
})
