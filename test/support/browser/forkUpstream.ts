/**
 * Browser commands (run in Vitest's Node process) for the fork's browser tests: the page cannot
 * start a process, so these start the fork's upstream (support/forkUpstream.ts: a pagenode CLI
 * behind a counting proxy on loopback) and switch it down, or its CORS off, on the page's word.
 * One upstream at a time, which the test file stops.
 */
import type { BrowserCommand } from 'vitest/node'
import { startForkUpstream as start, type ForkUpstream } from '../forkUpstream.ts'

let upstream: Promise<ForkUpstream> | undefined

/** The upstream's URL, Token address and seeded block (as a decimal string: commands speak JSON). */
export const startForkUpstream: BrowserCommand<[]> = async () => {
  upstream ??= start()
  const { url, token, seededBlock } = await upstream
  return { url, token, seededBlock: seededBlock.toString() }
}

/** Takes the upstream down (or back up), or its CORS headers away; answers the requests it passed since the last call. */
export const setForkUpstream: BrowserCommand<[{ down?: boolean; cors?: boolean }]> = async (_context, { down, cors }) => {
  const started = await upstream
  if (!started) throw new Error('startForkUpstream first')
  if (down !== undefined) started.down = down
  if (cors !== undefined) started.cors = cors
  const requests = started.requests
  started.resetCounts()
  return { requests }
}

/** Stops the upstream (the end of a test file: a running child would keep Vitest from exiting). */
export const stopForkUpstream: BrowserCommand<[]> = async () => {
  const started = await upstream
  upstream = undefined
  await started?.close()
}
