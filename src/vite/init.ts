/**
 * `pagenode init <public dir>`: writes the service worker script into a site's static folder, for
 * setups without Vite (MSW's `msw init`). Re-run it after updating pagenode; a stale copy is
 * reported by startNode's protocol handshake.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { buildServiceWorkerScript, SCRIPT_FILE_NAME } from './serviceWorkerScript.ts'

export const INIT_HELP = `Usage: pagenode init <public dir>

Writes ${SCRIPT_FILE_NAME}, the service worker that answers pagenode's HTTP endpoint, into the
folder your site serves at its root (e.g. public/). Apps built with Vite do not need this:
the pagenode/vite plugin serves and emits the script. Re-run it after updating pagenode.
`

/** Writes the script into `dir` (created if missing); resolves with the file's path. */
export async function initServiceWorker(dir: string): Promise<string> {
  const folder = resolve(dir)
  await mkdir(folder, { recursive: true })
  const file = join(folder, SCRIPT_FILE_NAME)
  await writeFile(file, await buildServiceWorkerScript())
  return file
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
  if (args.length !== 1 || args[0].startsWith('-')) {
    out.stderr(`pagenode init: expected one argument, the public folder (e.g. pagenode init public)\n`)
    return 2
  }
  const file = await initServiceWorker(args[0])
  out.stdout(
    `Wrote ${file}.\nServe it at your site's root (/${SCRIPT_FILE_NAME}); startNode() registers it. Re-run this after updating pagenode.\n`,
  )
  return 0
}
