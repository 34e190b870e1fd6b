import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { startCli, tempDir } from '../support/cli.ts'

/**
 * A Hardhat 2 project of our own (test/cli/hardhat-project/: network helpers, chai matchers,
 * OpenZeppelin tokens, governor and timelock) runs its mocha suite on Hardhat's in-process network, then
 * against the CLI over HTTP as its users point it (`--network pagenode`): every test that passes on
 * Hardhat's network must pass on pagenode.
 */
const PROJECT = fileURLToPath(new URL('./hardhat-project/', import.meta.url))
const HARDHAT = createRequire(import.meta.url).resolve('hardhat/internal/cli/bootstrap.js')

interface MochaTest {
  fullTitle: string
  err: { message?: string }
}
interface MochaReport {
  stats: { tests: number; passes: number; failures: number; pending: number }
  passes: MochaTest[]
  failures: MochaTest[]
}

async function hardhatTest(args: string[], env: Record<string, string> = {}): Promise<MochaReport> {
  const report = join(await tempDir(), 'mocha.json')
  const child = spawn(process.execPath, [HARDHAT, 'test', ...args], {
    cwd: PROJECT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, MOCHA_JSON_OUTPUT: report },
  })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  // Hardhat exits with the number of failed tests; the report says which.
  await new Promise((resolve) => child.once('close', resolve))
  try {
    return JSON.parse(await readFile(report, 'utf8')) as MochaReport
  } catch (error) {
    throw new Error(`hardhat test ${args.join(' ')} wrote no report:\n${output}`, { cause: error })
  }
}

const failuresOf = (report: MochaReport) => report.failures.map((t) => `${t.fullTitle}: ${t.err.message}`)
const passedTitles = (report: MochaReport) => report.passes.map((t) => t.fullTitle).sort()

test('a Hardhat project passes on pagenode every test it passes on Hardhat network', async () => {
  // First on Hardhat's own network (this also compiles the contracts, with the local solc-js).
  const onHardhat = await hardhatTest([])
  expect(failuresOf(onHardhat)).toEqual([])
  expect(onHardhat.stats.passes).toBeGreaterThanOrEqual(45)

  // As Hardhat's network runs this project: the code size limit lifted (Large.sol,
  // allowUnlimitedContractSize), a reverting send failing itself (its throwOnTransactionFailures).
  const cli = await startCli(['--disable-code-size-limit', '--throw-on-transaction-failures'])
  const onPagenode = await hardhatTest(['--network', 'pagenode'], { PAGENODE_URL: cli.url })
  expect(failuresOf(onPagenode)).toEqual([])
  expect(passedTitles(onPagenode)).toEqual(passedTitles(onHardhat))
  expect(onPagenode.stats).toMatchObject({ tests: onHardhat.stats.tests, pending: onHardhat.stats.pending })
}, 180_000)
