import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach } from 'vitest'

/**
 * The CLI as a process of its own, as users run it, from the sources (`npx pagenode` runs the
 * compiled copy of this file, tested from the packed tarball in test/consumers/).
 */
export const CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))
const CLI_ARGS = ['--import', 'tsx', CLI]

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface CliProcess {
  url: string
  child: ChildProcess
  stdout(): string
  stderr(): string
  /** Sends `signal` and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<Exit>
  exited: Promise<Exit>
}

const running = new Set<ChildProcess>()
const directories: string[] = []

afterEach(async () => {
  await Promise.all(
    [...running].map((child) => {
      const gone = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      return gone
    }),
  )
  running.clear()
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/** A fresh directory for state files, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pagenode-cli-'))
  directories.push(dir)
  return dir
}

function spawnCli(args: string[], killAfterEach = true) {
  const child = spawn(process.execPath, [...CLI_ARGS, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  if (killAfterEach) running.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child)
      // 'exit' can come before the pipes are drained; 'close' comes after.
      child.once('close', () => resolve({ code, signal, stdout, stderr }))
    }),
  )
  return { child, exited, stdout: () => stdout, stderr: () => stderr }
}

/**
 * Starts `pagenode` on a free port (`--port 0` unless the args name one) and resolves once it
 * prints its URL; rejects with its output if it exits first. It is killed after the test, or,
 * with `shared` (one server for a file's read-only tests), left for the caller's afterAll.
 */
export async function startCli(args: string[] = [], { shared = false } = {}): Promise<CliProcess> {
  const withPort = args.includes('--port') ? args : ['--port', '0', ...args]
  const spawned = spawnCli(withPort, !shared)
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /^Listening on (http:\/\/\S+)$/m.exec(spawned.stdout())
      if (match) {
        spawned.child.stdout!.off('data', onData)
        resolve(match[1])
      }
    }
    spawned.child.stdout!.on('data', onData)
    spawned.exited.then((exit) =>
      reject(new Error(`pagenode exited (${exit.code ?? exit.signal}) before listening:\n${exit.stdout}\n${exit.stderr}`)),
    )
  })
  return {
    url,
    child: spawned.child,
    stdout: spawned.stdout,
    stderr: spawned.stderr,
    exited: spawned.exited,
    async stop(signal = 'SIGINT') {
      spawned.child.kill(signal)
      return spawned.exited
    },
  }
}

/** Runs `pagenode` expecting it to exit by itself (bad flags, unusable state, port in use). */
export function runCli(args: string[]): Promise<Exit> {
  return spawnCli(args).exited
}

/** One JSON-RPC POST (a value is sent as JSON, text and streams as they are). */
export function post(url: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' || body instanceof ReadableStream ? body : JSON.stringify(body),
    ...init,
  })
}

/** A JSON-RPC call's result (throws on an error answer). */
export async function call<T = unknown>(url: string, method: string, ...params: unknown[]): Promise<T> {
  const answer = await (await post(url, { jsonrpc: '2.0', id: 1, method, params })).json()
  if (answer.error) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`)
  return answer.result as T
}

/** What every failure of the CLI must look like: a message, no stack trace. */
export function expectNoStackTrace(output: string): void {
  if (/^\s+at .+[(:]\d+/m.test(output) || /Error: .*\n\s+at /.test(output)) {
    throw new Error(`a stack trace was printed:\n${output}`)
  }
}
