/**
 * The playground's offline support, as a Vite plugin: writes `/playground-sw.js` (demo/sw/, the
 * pagenode relay plus an offline cache of the site) into the build with the list of built files
 * to precache, and serves it in the dev server with an empty list (runtime caching only, network
 * first, so `npm start` never shows a stale file).
 *
 * The list is read from the build folder once everything is written, so it holds what the site
 * really serves: both pages, every chunk, worker and asset (the compiler included), public files.
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundleClassicScript } from '../../scripts/build/serviceWorkerScript.ts'
import type { Plugin, ResolvedConfig } from 'vite'
import { SCRIPT_FILE_NAME as RELAY_FILE_NAME } from '../../src/bridge/http.ts'
import type { PrecacheManifest } from '../sw/precacheManifest.ts'

export const SCRIPT_FILE_NAME = 'playground-sw.js'

/** Files at least this big are cached after the worker takes over, not before (see PrecacheManifest.deferred). */
const DEFERRED_BYTES = 1024 * 1024

const entry = fileURLToPath(new URL('../sw/playgroundServiceWorker.ts', import.meta.url))

/** The worker script: one self-contained classic script (importScripts needs a classic worker). */
export function buildPlaygroundServiceWorker(manifest: PrecacheManifest): Promise<string> {
  return bundleClassicScript(entry, {
    define: { __PRECACHE__: JSON.stringify(manifest) },
    banner: `// The pagenode playground's service worker (offline cache ${manifest.version}). Generated from demo/sw/: do not edit.`,
  })
}

/** Every file under `dir`, as paths relative to it with `/` separators. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
}

/**
 * The precache manifest of a build folder. `onUse`: the sources of files to cache on first use
 * rather than precache, recognised in the build by their content (Vite copies an asset as is,
 * and two compilers are both named soljson-<hash>.js).
 */
export async function manifestOf(outDir: string, assetsDir: string, onUseSources: readonly string[] = []): Promise<PrecacheManifest> {
  const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')
  const onUseHashes = new Set(await Promise.all(onUseSources.map(async (source) => sha256(await readFile(source)))))
  const skip = new Set([SCRIPT_FILE_NAME, RELAY_FILE_NAME])
  const paths = (await listFiles(outDir)).filter((path) => !skip.has(path) && !path.endsWith('.map')).sort()
  const version = createHash('sha256')
  const shell: string[] = []
  const deferred: string[] = []
  const onUse: string[] = []
  let bytes = 0
  for (const path of paths) {
    const file = join(outDir, path)
    const { size } = await stat(file)
    const hash = sha256(await readFile(file))
    version.update(`${path}\0${hash}\0`)
    if (onUseHashes.has(hash)) {
      onUse.push(path)
      continue
    }
    ;(size >= DEFERRED_BYTES ? deferred : shell).push(path)
    bytes += size
  }
  return { version: version.digest('hex').slice(0, 16), shell, deferred, onUse, bytes, immutableDir: assetsDir }
}

export interface PlaygroundOfflineOptions {
  /** Source files whose built copies are cached on first use, not precached (see PrecacheManifest.onUse). */
  cachedOnUse?: readonly string[]
}

export default function playgroundOffline({ cachedOnUse = [] }: PlaygroundOfflineOptions = {}): Plugin {
  let config: ResolvedConfig
  return {
    name: 'playground-offline',
    configResolved(resolved) {
      config = resolved
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        if ((request.url ?? '').split('?')[0] !== `${config.base}${SCRIPT_FILE_NAME}`) return next()
        // Built per request (tens of ms), like pagenode's relay: an edit shows at the next update check.
        buildPlaygroundServiceWorker({ version: 'dev', shell: [], deferred: [], onUse: [], bytes: 0, immutableDir: config.build.assetsDir }).then(
          (script) => {
            response.setHeader('content-type', 'text/javascript; charset=utf-8')
            response.setHeader('cache-control', 'no-cache')
            response.end(script)
          },
          (error: unknown) => next(error),
        )
      })
    },
    // After the files are on disk (worker chunks and public files included): list them, then write the script.
    async writeBundle() {
      if (config.build.ssr) return
      const outDir = resolve(config.root, config.build.outDir)
      const manifest = await manifestOf(outDir, config.build.assetsDir, cachedOnUse)
      // A file meant to be cached on use that the build does not hold would silently be precached.
      if (manifest.onUse.length !== cachedOnUse.length) this.error(`${SCRIPT_FILE_NAME}: found ${manifest.onUse.length} of the ${cachedOnUse.length} files to cache on use in the build (${cachedOnUse.join(', ')})`)
      await writeFile(join(outDir, SCRIPT_FILE_NAME), await buildPlaygroundServiceWorker(manifest))
      config.logger.info(`${SCRIPT_FILE_NAME}: ${manifest.shell.length} files precached, ${manifest.deferred.length} after install (${manifest.deferred.join(', ') || 'none'}), ${manifest.onUse.length} on first use (${manifest.onUse.join(', ') || 'none'}), version ${manifest.version}`)
    },
  }
}
