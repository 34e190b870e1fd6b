/** `npx pagenode init <public dir>`: the service worker script for sites without Vite. */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { buildServiceWorkerScript } from '../../src/vite/serviceWorkerScript.ts'
import { runCli, tempDir } from './cli.ts'

test('writes pagenode-sw.js into the folder, creating it', async () => {
  const dir = join(await tempDir(), 'site', 'public')
  const exit = await runCli(['init', dir])
  expect(exit.code).toBe(0)
  expect(exit.stdout).toContain(join(dir, 'pagenode-sw.js'))
  expect(await readFile(join(dir, 'pagenode-sw.js'), 'utf8')).toBe(await buildServiceWorkerScript())
})

test('without a folder it says what it expects and exits 2', async () => {
  const exit = await runCli(['init'])
  expect(exit.code).toBe(2)
  expect(exit.stderr).toContain('pagenode init public')
})

test('--help explains the command', async () => {
  const exit = await runCli(['init', '--help'])
  expect(exit.code).toBe(0)
  expect(exit.stdout).toMatch(/^Usage: pagenode init <public dir>/)
  expect(exit.stdout).toContain('pagenode/vite')
})
