/**
 * The bundle sizes of the Chromium bench site (bench/browser/vite.config.ts, built into
 * bench/.build/): gzip -9 of what the browser loads for the node worker (its startup files and,
 * apart, its lazy chunks), the page client and the service worker. `npm run bench` reports them;
 * `npx tsx bench/bundleSize.ts` builds the site and prints them in bytes, without the rest of the
 * bench (bench/README.md, "Worker bundle").
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'vite'

export const BENCH_SITE_CONFIG = fileURLToPath(new URL('./browser/vite.config.ts', import.meta.url))
export const BENCH_SITE_OUT = fileURLToPath(new URL('./.build/', import.meta.url))

export interface BundleSizes {
  /** The worker's files loaded before it runs, and their gzip -9 bytes together. */
  startup: { files: string[]; gzip: number; minified: number }
  /** The chunks only `import()` reaches (loaded after start or on first use), named by what they hold. */
  lazy: { names: string[]; gzip: number }
  pageClientGzip: number
  serviceWorkerGzip: number
}

const gzipBytes = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length

/** Measures a built bench site in `out`. */
export function bundleSizes(out = BENCH_SITE_OUT): BundleSizes {
  const assets = join(out, 'assets')
  const manifest = JSON.parse(readFileSync(join(out, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; imports?: string[] }>
  const pageFiles = new Set<string>()
  const visit = (key: string) => {
    const entry = manifest[key]
    if (!entry || pageFiles.has(entry.file)) return
    pageFiles.add(entry.file)
    for (const imported of entry.imports ?? []) visit(imported)
  }
  visit('start.html')
  const workerFile = readdirSync(assets).find((file) => file.startsWith('nodeWorker-') && file.endsWith('.js'))
  if (!workerFile) throw new Error(`no nodeWorker-*.js in ${assets}`)
  // What the worker loads before it runs: its file and every chunk it imports statically (a
  // bundler may move code the lazy chunks share with it into chunks of their own). The lazy
  // chunks are those only `import()` reaches.
  const { startup, lazy } = workerChunks(assets, workerFile)
  const sum = (files: string[]) => files.reduce((total, file) => total + gzipBytes(join(assets, file)), 0)
  return {
    startup: { files: startup, gzip: sum(startup), minified: startup.reduce((total, file) => total + statSync(join(assets, file)).size, 0) },
    lazy: { names: lazy.map((file) => describeChunk(join(assets, file))), gzip: sum(lazy) },
    pageClientGzip: [...pageFiles].reduce((total, file) => total + gzipBytes(join(out, file)), 0),
    serviceWorkerGzip: gzipBytes(join(out, 'pagenode-sw.js')),
  }
}

/** The worker's files loaded at start (static imports, followed) and those only `import()` reaches. */
function workerChunks(assets: string, workerFile: string): { startup: string[]; lazy: string[] } {
  const text = (file: string) => readFileSync(join(assets, file), 'utf8')
  const named = (file: string, pattern: RegExp) => [...text(file).matchAll(pattern)].map((match) => match[1])
  const startup = new Set<string>()
  const visit = (file: string) => {
    if (startup.has(file)) return
    startup.add(file)
    for (const imported of named(file, /(?:from|import)\s*["'`]\.\/([^"'`]+\.js)["'`]/g)) visit(imported)
  }
  visit(workerFile)
  const lazy = new Set<string>()
  for (const file of readdirSync(assets).filter((name) => name.endsWith('.js'))) {
    for (const imported of named(file, /import\(\s*["'`]\.\/([^"'`]+\.js)["'`]\s*\)/g)) if (!startup.has(imported)) lazy.add(imported)
  }
  return { startup: [...startup], lazy: [...lazy] }
}

function describeChunk(path: string): string {
  const text = readFileSync(path, 'utf8')
  if (text.includes('secp256k1')) return 'secp256k1'
  if (text.toLowerCase().includes('keccak')) return 'keccak'
  return path.replace(/^.*\//, '').replace(/-[\w-]{8}\.js$/, '')
}

/** Builds the bench site (as `npm run bench` does) into bench/.build/. */
export async function buildBenchSite(): Promise<void> {
  await build({ configFile: BENCH_SITE_CONFIG, logLevel: 'warn' })
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildBenchSite()
  const sizes = bundleSizes()
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  console.log(`worker startup, gzip -9: ${sizes.startup.gzip} bytes (${kb(sizes.startup.gzip)}) in ${sizes.startup.files.length} file(s): ${sizes.startup.files.join(', ')}`)
  console.log(`worker startup, minified: ${sizes.startup.minified} bytes (${kb(sizes.startup.minified)})`)
  console.log(`worker lazy chunks, gzip -9: ${sizes.lazy.gzip} bytes (${kb(sizes.lazy.gzip)}): ${sizes.lazy.names.join(', ')}`)
  console.log(`page client, gzip -9: ${sizes.pageClientGzip} bytes; service worker, gzip -9: ${sizes.serviceWorkerGzip} bytes`)
}
