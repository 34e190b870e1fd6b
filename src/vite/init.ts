/**
 * `pagenode init <public dir> [--worker]`: copies the service worker script (and, with --worker,
 * the prebuilt node worker) into a site's static folder, for setups without Vite (MSW's
 * `msw init`). Re-run it after updating pagenode; a stale copy is reported by startNode's
 * protocol handshake.
 */
import { cp, mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { readServiceWorkerScript, SCRIPT_FILE_NAME } from './serviceWorkerScript.ts'

/** The folder `--worker` writes the node worker into, under the public folder. */
export const WORKER_FOLDER = 'pagenode-worker'

/** The prebuilt node worker and its chunks, in the package (dist/vite → dist/worker). */
const SHIPPED_WORKER = new URL('../worker/', import.meta.url)

export const INIT_HELP = `Usage: pagenode init <public dir> [--worker]

Writes ${SCRIPT_FILE_NAME}, the service worker that answers pagenode's HTTP endpoint, into the
folder your site serves at its root (e.g. public/). Apps built with Vite do not need this:
the pagenode/vite plugin serves and emits the script. Re-run it after updating pagenode.

  --worker   also copy the prebuilt node worker into <public dir>/${WORKER_FOLDER}/, for
             bundlers that do not follow new URL('…', import.meta.url) (esbuild), then
             startNode({ worker: '/${WORKER_FOLDER}/nodeWorker.js' })
`

/** Writes the script into `dir` (created if missing); resolves with the file's path. */
export async function initServiceWorker(dir: string): Promise<string> {
  const folder = resolve(dir)
  await mkdir(folder, { recursive: true })
  const file = join(folder, SCRIPT_FILE_NAME)
  await writeFile(file, await readServiceWorkerScript())
  return file
}

/** Copies the node worker's files into `dir`/pagenode-worker/; resolves with that folder. */
export async function initWorker(dir: string): Promise<string> {
  const folder = join(resolve(dir), WORKER_FOLDER)
  await cp(SHIPPED_WORKER, folder, { recursive: true })
  return folder
}

/**
 * The `init` command for the CLI: `args` are the words after `init`. Resolves with the exit code
 * (0 written, 2 bad command line), having printed what happened.
 */
export async function runInit(args: string[], out: { stdout(text: string): void; stderr(text: string): void }): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    out.stdout(INIT_HELP)
    return 0
  }
  const withWorker = args.includes('--worker')
  const folders = args.filter((arg) => arg !== '--worker')
  if (folders.length !== 1 || folders[0].startsWith('-')) {
    out.stderr(`pagenode init: expected one argument, the public folder (e.g. pagenode init public)\n`)
    return 2
  }
  const file = await initServiceWorker(folders[0])
  out.stdout(`Wrote ${file}.\nServe it at your site's root (/${SCRIPT_FILE_NAME}); startNode() registers it.\n`)
  if (withWorker) {
    const folder = await initWorker(folders[0])
    out.stdout(`Copied the node worker into ${folder}/: pass startNode({ worker: '/${WORKER_FOLDER}/nodeWorker.js' }).\n`)
  }
  out.stdout('Re-run this after updating pagenode.\n')
  return 0
}
