#!/usr/bin/env node
// `npm test`: find (or install) a system Chromium, then run the unit, browser and e2e suites in
// order, stopping at the first failure with its exit code. No test ever downloads a browser.
import { spawnSync } from 'node:child_process'
import { accessSync, constants, existsSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const installCommand = 'apt-get update && apt-get install -y chromium'

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name)
  }
  return undefined
}

function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv
    console.error(`CHROMIUM_PATH=${fromEnv} is not an executable file; looking elsewhere.`)
  }
  if (isExecutable('/usr/bin/chromium')) return '/usr/bin/chromium'
  return onPath('chromium') ?? onPath('chromium-browser')
}

function heading(text) {
  console.log(`\n=== ${text} ===\n`)
}

/** Runs a command with inherited stdio; returns its exit code (signals count as failure). */
function run(command, args, env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env })
  if (result.error) {
    console.error(`could not run ${command}: ${result.error.message}`)
    return 1
  }
  if (result.signal) {
    console.error(`${command} was killed by ${result.signal}`)
    return 1
  }
  return result.status ?? 1
}

let chromium = findChromium()
if (!chromium) {
  const isRoot = process.getuid?.() === 0
  const hasApt = onPath('apt-get') !== undefined && existsSync('/etc/debian_version')
  if (!(isRoot && hasApt)) {
    console.error('No Chromium found (looked at $CHROMIUM_PATH, /usr/bin/chromium, chromium and chromium-browser on PATH).')
    console.error('Install the system Chromium, e.g. on Debian/Ubuntu:')
    console.error(`  sudo sh -c '${installCommand}'`)
    console.error('or point CHROMIUM_PATH at a Chromium/Chrome executable.')
    process.exit(1)
  }
  heading(`installing Chromium: ${installCommand}`)
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const code = run('sh', ['-c', installCommand], aptEnv)
  if (code !== 0) process.exit(code)
  chromium = findChromium()
  if (!chromium) {
    console.error('apt-get installed chromium but no executable was found; set CHROMIUM_PATH.')
    process.exit(1)
  }
}

const env = {
  ...process.env,
  CHROMIUM_PATH: chromium,
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  // Local binaries (vitest, playwright) first, without going through npx.
  PATH: [join(root, 'node_modules', '.bin'), process.env.PATH].filter(Boolean).join(delimiter),
}
console.log(`Chromium: ${chromium}`)

const suites = [
  ['unit tests (Vitest, Node)', 'vitest', ['run', '--project', 'unit']],
  ['consumer tests (the packed package in fresh projects)', 'vitest', ['run', '--project', 'consumers']],
  ['browser tests (Vitest browser mode, Chromium)', 'vitest', ['run', '--project', 'browser']],
  ['end-to-end tests (Playwright, built demo)', 'playwright', ['test']],
]

for (const [title, command, args] of suites) {
  heading(title)
  const code = run(command, args, env)
  if (code !== 0) {
    console.error(`\n${title} failed (exit code ${code}).`)
    process.exit(code)
  }
}
console.log('\nAll test suites passed.')
