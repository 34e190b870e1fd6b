/**
 * `npx pagenode init <public dir>`: its command line. What it writes is the packed package's
 * prebuilt files, tested from the tarball in test/consumers/.
 */
import { expect, test } from 'vitest'
import { runCli } from '../support/cli.ts'

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
