/**
 * Packs pagenode once for the whole consumer suite, as `npm pack` makes it for the registry
 * (prepack builds dist/ first), and hands the tarball's path to the test files.
 */
import { execFile } from 'node:child_process'
import { mkdir, rm } from 'node:fs/promises'
import { promisify } from 'node:util'
import type { TestProject } from 'vitest/node'
import { CONSUMERS_DIR, REPO } from './paths.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    tarball: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await rm(CONSUMERS_DIR, { recursive: true, force: true })
  await mkdir(CONSUMERS_DIR, { recursive: true })
  const { stdout } = await promisify(execFile)('npm', ['pack', '--json', '--pack-destination', CONSUMERS_DIR], {
    cwd: REPO,
    maxBuffer: 64 * 1024 * 1024,
  })
  // prepack's own output comes first on stdout.
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('\n[') + 1)) as [{ filename: string }]
  project.provide('tarball', `${CONSUMERS_DIR}/${packed.filename}`)
  return async () => {
    if (!process.env.KEEP_CONSUMERS) await rm(CONSUMERS_DIR, { recursive: true, force: true })
  }
}
