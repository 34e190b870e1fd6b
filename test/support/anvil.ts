import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll } from 'vitest'
import { freePort } from './freePort.ts'

const require = createRequire(import.meta.url)

/** The anvil binary of the @foundry-rs/anvil devDependency (its platform package). */
export function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  const pkg = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)
  return join(dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
}

const running: ChildProcess[] = []
afterAll(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL')
})

/**
 * anvil on a free loopback port, for differential tests: resolves its JSON-RPC `call` once it
 * answers. Killed after the file's tests.
 */
export async function startAnvil(args: string[] = []) {
  const port = await freePort()
  const child = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', String(port), '--silent', ...args], { stdio: 'ignore' })
  running.push(child)
  const url = `http://127.0.0.1:${port}`
  let id = 0
  const call = async <T = unknown>(method: string, ...params: unknown[]): Promise<T> => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const body = (await response.json()) as { result?: T; error?: { code: number; message: string } }
    if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code })
    return body.result as T
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await call('eth_chainId')
      return { url, call }
    } catch (error) {
      if (attempt > 200) throw new Error(`anvil did not answer on ${url}: ${(error as Error).message}`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
}
