/**
 * Where the page gets its node worker from, and what to say when it does not load.
 *
 * By default the worker is created with `new Worker(new URL('…', import.meta.url), { type:
 * 'module' })` written out literally in this module: that exact form is what Vite, webpack 5,
 * Rollup and Next.js look for to bundle a worker, and a plain page without a bundler loads the
 * prebuilt file next to this one. Anything else (esbuild, which does not follow it; a CDN; your
 * own copy) passes `worker` to startNode: a URL of the prebuilt `nodeWorker.js` (the folder it
 * sits in holds its chunks), or a function that creates the Worker.
 */

/** startNode's `worker` option. */
export type WorkerSource = string | URL | (() => Worker)

export interface CreatedWorker {
  worker: Worker
  /** The script's URL, when known: what a failure to load is diagnosed from. */
  url?: string
}

export function createNodeWorker(source: WorkerSource | undefined): CreatedWorker {
  if (typeof source === 'function') return { worker: source() }
  if (source !== undefined) {
    const url = new URL(source, location.href).href
    return { worker: new Worker(url, { type: 'module', name: 'pagenode' }), url }
  }
  // The build rewrites '.ts' to the prebuilt '.js' here and below (scripts/build.ts).
  const worker = new Worker(new URL('../worker/nodeWorker.ts', import.meta.url), { type: 'module', name: 'pagenode' })
  return { worker, url: unbundledWorkerUrl() }
}

/**
 * The default worker's URL where this module runs as shipped (a plain page, a dev server serving
 * the package as is); unknown once a bundler moved both. This module's own URL comes from a stack
 * trace: import.meta.url would not do, webpack writes the build machine's path into it.
 */
function unbundledWorkerUrl(): string | undefined {
  const own = /(https?:\/\/[^\s()]+\/client\/workerSource\.[jt]s)/.exec(new Error().stack ?? '')?.[1]
  return own === undefined ? undefined : new URL('../worker/nodeWorker.ts', own).href
}

const FIXES =
  'With Vite, add the plugin: `import pagenode from "pagenode/vite"` and `plugins: [pagenode()]`. ' +
  'Bundlers that do not follow `new URL(…, import.meta.url)` (esbuild): run `npx pagenode init <public dir> --worker` ' +
  'and pass `worker: "/pagenode-worker/nodeWorker.js"` to startNode.'

/**
 * Why a module worker failed before it ran. The browser's `error` event for a script that cannot
 * load carries no message at all, so the script is fetched again here to tell a missing file, a
 * wrong content type and a blocked request apart; a script that fetches fine failed in itself.
 */
export async function explainWorkerFailure(url: string | undefined, blockedByPolicy: string | undefined): Promise<string> {
  if (blockedByPolicy) {
    return `the Content-Security-Policy of this page refuses the node worker (${blockedByPolicy}): allow its origin (or 'self') in worker-src/script-src`
  }
  if (!url) {
    return `the node worker failed to load or to start: its script is missing, served with the wrong type, or blocked (the browser console shows which). ${FIXES}`
  }
  let response: Response
  try {
    response = await fetch(url, { cache: 'no-store' })
  } catch (error) {
    return `the node worker script ${url} could not be fetched (${(error as Error).message}): a network error, or a Content-Security-Policy (connect-src/worker-src) refusing it`
  }
  if (!response.ok) {
    return `the node worker script ${url} was not found (HTTP ${response.status}): the app's bundler did not emit it, or the server does not serve it. ${FIXES}`
  }
  const type = response.headers.get('content-type') ?? 'no content type'
  if (!/javascript|ecmascript/i.test(type)) {
    return `the node worker script ${url} is served as ${type}, not JavaScript (a fallback page instead of the file?), so the browser refuses to run it. ${FIXES}`
  }
  return `the node worker script ${url} loaded but failed to run (a syntax error, or one of its chunks failed to load): the browser console names the cause`
}
