/**
 * The service worker script as the package ships it: prebuilt by scripts/build.ts into
 * dist/sw/pagenode-sw.js, one self-contained classic script served at the site root
 * (docs/browser-notes.md, "Shipping the service worker script").
 */
import { readFile } from 'node:fs/promises'
import { SCRIPT_FILE_NAME } from '../bridge/http.ts'

export { SCRIPT_FILE_NAME }

/** The prebuilt script, next to this module's folder in the package (dist/vite → dist/sw). */
export const SHIPPED_SCRIPT = new URL(`../sw/${SCRIPT_FILE_NAME}`, import.meta.url)

export function readServiceWorkerScript(): Promise<string> {
  return readFile(SHIPPED_SCRIPT, 'utf8')
}
