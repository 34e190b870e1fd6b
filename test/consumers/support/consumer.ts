/**
 * A consumer project: a folder with its own package.json and source files, and the packed
 * pagenode installed in its node_modules as npm installs a tarball (the package's files under
 * node_modules/pagenode, its bin linked in node_modules/.bin).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { chmod, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { inject } from 'vitest'
import { CONSUMERS_DIR, REPO } from './paths.ts'

export interface Consumer {
  dir: string
  /** Runs a command in the project; rejects with its output if it fails. */
  run(command: string, args: string[], options?: { env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<{ stdout: string; stderr: string }>
  /** Starts a long-running command in the project; resolves once its output matches `ready`. */
  start(command: string, args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray; output(): string }>
}

const children = new Set<ChildProcess>()

/** Ends every process the consumers started (call from afterAll). */
export async function stopConsumerProcesses(): Promise<void> {
  await Promise.all(
    [...children].map((child) => {
      const gone = new Promise((resolve) => child.once('exit', resolve))
      // A process group of its own: the dev servers start children of their own.
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
      return gone
    }),
  )
  children.clear()
}

/** Binaries from this project's node_modules/.bin (vite, vitest, tsc…) and the consumer's own. */
function pathFor(dir: string): string {
  return [join(dir, 'node_modules', '.bin'), join(REPO, 'node_modules', '.bin'), process.env.PATH].join(':')
}

export async function createConsumer(name: string, files: Record<string, string>): Promise<Consumer> {
  const dir = await mkdtemp(join(CONSUMERS_DIR, `${name}-`))
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${name}`, private: true, type: 'module' }, null, 2))
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), text)
  }
  await install(dir)
  const env = (extra: NodeJS.ProcessEnv = {}) => ({ ...ownEnvironment(), PATH: pathFor(dir), ...extra })
  return {
    dir,
    async run(command, args, options = {}) {
      try {
        return await promisify(execFile)(command, args, { cwd: dir, env: env(options.env), timeout: options.timeoutMs ?? 180_000, maxBuffer: 64 * 1024 * 1024 })
      } catch (error) {
        const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string }
        throw new Error(`${command} ${args.join(' ')} failed in ${name}: ${message}\n${stdout ?? ''}\n${stderr ?? ''}`)
      }
    },
    start(command, args, ready) {
      const child = spawn(command, args, { cwd: dir, env: env(), stdio: ['ignore', 'pipe', 'pipe'], detached: true })
      children.add(child)
      child.once('exit', () => children.delete(child))
      let output = ''
      return new Promise((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString()
          // eslint-disable-next-line no-control-regex
          const match = output.replace(/\x1b\[[0-9;]*m/g, '').match(ready)
          if (match) resolve({ child, match, output: () => output })
        }
        child.stdout!.on('data', onData)
        child.stderr!.on('data', onData)
        child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited (${code}) in ${name}:\n${output}`)))
      })
    },
  }
}

/** This process's environment without what Vitest set for itself (a consumer may run Vitest too). */
function ownEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV' && name !== 'TEST'))
}

/** What `npm install <tarball>` does for pagenode itself: unpack into node_modules, link the bin. */
async function install(dir: string): Promise<void> {
  const target = join(dir, 'node_modules', 'pagenode')
  await mkdir(target, { recursive: true })
  await promisify(execFile)('tar', ['-xzf', inject('tarball'), '-C', target, '--strip-components=1'])
  await mkdir(join(dir, 'node_modules', '.bin'), { recursive: true })
  await symlink('../pagenode/bin/pagenode.mjs', join(dir, 'node_modules', '.bin', 'pagenode'))
  await chmod(join(target, 'bin', 'pagenode.mjs'), 0o755)
}
