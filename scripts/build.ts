/**
 * `npm run build:package` (and `npm pack`, through prepack): the package as it ships, in dist/.
 *
 * - the public entries (pagenode, pagenode/core, pagenode/testing, pagenode/vite) and the CLI
 *   compiled by tsc to ES modules with declarations (tsconfig.build.json);
 * - the node worker prebuilt: one ES module bundle with everything it imports, its WebAssembly
 *   crypto in chunks of their own loaded after start, and the sender-recovery worker beside it
 *   (dist/worker/). Prebuilt so that no app's bundler or dev server has to handle pagenode's
 *   CommonJS dependencies inside a worker; a bundler that follows the client's
 *   `new Worker(new URL(…))` bundles this file again, a plain page loads it as it is;
 * - the service worker script prebuilt (dist/sw/pagenode-sw.js).
 */
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { SCRIPT_FILE_NAME } from '../src/bridge/http.ts'
import { buildServiceWorkerScript } from './build/serviceWorkerScript.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const dist = `${root}dist`

/**
 * The sources name their sibling workers as `.ts` files (what Vite serves in this repository);
 * the package holds them as `.js`. Replaces exactly `count` occurrences, or fails the build.
 */
function renameWorkerUrl(text: string, file: string, from: string, count: number): string {
  const found = text.split(from).length - 1
  if (found !== count) throw new Error(`${file}: expected ${count} × ${from}, found ${found}`)
  return text.replaceAll(from, from.replace(/\.ts'$/, ".js'"))
}

/** esbuild: the recovery worker's URL in senderRecovery.ts points at the bundled file. */
const recoveryWorkerUrl: Plugin = {
  name: 'recovery-worker-url',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[/\\]worker[/\\]senderRecovery\.ts$/ }, async ({ path }) => ({
      contents: renameWorkerUrl(await readFile(path, 'utf8'), path, "'./recoveryWorker.ts'", 1),
      loader: 'ts',
    }))
  },
}

async function compileModules(): Promise<void> {
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' })
  const client = `${dist}/client/workerSource.js`
  await writeFile(client, renameWorkerUrl(await readFile(client, 'utf8'), client, "'../worker/nodeWorker.ts'", 2))
}

async function bundleWorkers(): Promise<void> {
  await build({
    entryPoints: { nodeWorker: `${root}src/worker/nodeWorker.ts`, recoveryWorker: `${root}src/worker/recoveryWorker.ts` },
    outdir: `${dist}/worker`,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    chunkNames: '[name]-[hash]',
    plugins: [recoveryWorkerUrl],
    logLevel: 'warning',
  })
}

async function buildServiceWorker(): Promise<void> {
  await mkdir(`${dist}/sw`, { recursive: true })
  await writeFile(`${dist}/sw/${SCRIPT_FILE_NAME}`, await buildServiceWorkerScript())
}

await rm(dist, { recursive: true, force: true })
await compileModules()
await Promise.all([bundleWorkers(), buildServiceWorker()])
console.log('pagenode: the package is built in dist/')
