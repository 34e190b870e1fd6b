/**
 * Builds the service worker script: src/sw/ bundled into one self-contained classic script (an
 * IIFE, no imports). Classic because module service workers are not supported everywhere, and
 * self-contained because it is served as a static file at the site root (docs/browser-notes.md,
 * "Shipping the service worker script").
 *
 * The package ships it prebuilt (scripts/build.ts writes dist/sw/pagenode-sw.js); this
 * repository's dev server and tests build it from the sources on each request instead, so an
 * edit of src/sw/ is picked up at once (tens of milliseconds with esbuild).
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { HTTP_PROTOCOL, SCRIPT_FILE_NAME } from '../../src/bridge/http.ts'

export { SCRIPT_FILE_NAME }

const entry = fileURLToPath(new URL('../../src/sw/serviceWorker.ts', import.meta.url))
const packageJson = fileURLToPath(new URL('../../package.json', import.meta.url))

export function pagenodeVersion(): string {
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version
}

export function buildServiceWorkerScript(): Promise<string> {
  const version = pagenodeVersion()
  return bundleClassicScript(entry, {
    define: { __PAGENODE_VERSION__: JSON.stringify(version) },
    banner: `// pagenode service worker ${version}, protocol ${HTTP_PROTOCOL}. Generated: do not edit (npx pagenode init copies it).`,
  })
}

/**
 * A TypeScript entry bundled into one self-contained classic script (an IIFE): what a service
 * worker that may call importScripts must be. Also builds a site's own worker that imports the relay.
 */
export async function bundleClassicScript(entryPoint: string, { define, banner }: { define: Record<string, string>; banner: string }): Promise<string> {
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    // Whitespace and syntax only: names stay, so the static file still reads in a debugger. Every
    // page of a site downloads it (issue 9's target: ≤ 4 KB gzip; 5.1 KB unminified, 3.9 KB so).
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    define,
    banner: { js: banner },
  })
  return result.outputFiles[0].text
}
