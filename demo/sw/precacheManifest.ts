/**
 * What the playground's service worker is told at build time (demo/vite/offlinePlugin.ts writes
 * it into the script): the built files to keep for offline use. Paths are relative to the
 * worker's scope (the site's base), as they lie in the build folder.
 */
export interface PrecacheManifest {
  /** Names the cache: a hash of every listed file's path and content, `dev` in the dev server. */
  version: string
  /** The app shell, cached before the worker takes over: the pages and their scripts, styles, workers. */
  shell: string[]
  /**
   * Big files (the Solidity compiler, ~9 MB), cached in the background once the worker runs, so
   * that a first visit on a slow line is not held up by them (the page waits for the worker).
   */
  deferred: string[]
  /**
   * Files cached on first use rather than precached (a second Solidity compiler: 9 MB most
   * visitors never ask for). Kept once fetched like any content-hashed file, and carried over
   * from an earlier build's cache at install, so a compiler used once stays offline.
   */
  onUse: string[]
  /** The listed files' size in all. */
  bytes: number
  /** The folder of content-hashed files (Vite's assetsDir): a name there never changes content. */
  immutableDir: string
}

/** The status message a page (or a test) sends the worker, with a MessagePort for the reply. */
export const OFFLINE_STATUS = 'playground:offline'

/** The reply: whether everything in the manifest is cached (after caching what was missing). */
export interface OfflineStatus {
  type: typeof OFFLINE_STATUS
  version: string
  cached: number
  total: number
  ready: boolean
  /** The paths not cached (the worker's console says why). */
  missing: string[]
  /** The files cached on first use (not counted above), and those of them cached so far. */
  onUse: string[]
  keptOnUse: string[]
}
