import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { Contract, ContractFactory, JsonRpcProvider, Wallet, type InterfaceAbi } from 'ethers'
import artifacts from '../contracts/artifacts.json' with { type: 'json' }
import { DEV_ACCOUNTS } from './accounts.ts'

/**
 * The upstream of a forked node in the fork tests: a pagenode CLI on loopback, seeded with history
 * and a Token (an ERC-20), behind a counting proxy that can add latency, go down, or refuse
 * cross-origin requests. The proxy counts the HTTP requests and the JSON-RPC calls it passes on,
 * which is what a fork costs its upstream. Imports nothing of Vitest's: the browser tests start
 * it from a browser command (support/browser/forkUpstream.ts), in Vitest's own process.
 */
export interface ForkUpstream {
  /** The proxy's URL: what a fork is given. */
  url: string
  /** The CLI's own URL, behind the proxy. */
  cli: { url: string; child: ChildProcess }
  /** The Token, its holder (dev account 0, after it sent some away) and the block it was seeded up to. */
  token: string
  seededBlock: bigint
  /** HTTP requests and JSON-RPC calls the proxy passed on since the last `resetCounts`. */
  readonly requests: number
  readonly calls: string[]
  resetCounts(): void
  /** Added to every answer, in ms. */
  delayMs: number
  /** While true, every request's connection is cut (the upstream is unreachable). */
  down: boolean
  /** While false, answers carry no CORS headers: a page's fetch may not read them. */
  cors: boolean
  close(): Promise<void>
}

export const UPSTREAM_CHAIN_ID = 1337
export const TOKEN_SUPPLY = 1_000_000n * 10n ** 18n
/** What the seeding sent from dev account 0 to dev account 1 (the Token, and ETH). */
export const SEED_SENT = 1_234n * 10n ** 18n

const CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))

/** The CLI on a free loopback port, resolved once it listens. */
async function startUpstreamCli(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--chain-id', String(UPSTREAM_CHAIN_ID)], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk
      const match = /^Listening on (http:\/\/\S+)$/m.exec(output)
      if (match) resolve(match[1])
    })
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.once('exit', (code) => reject(new Error(`the upstream pagenode exited (${code}) before listening:\n${output}`)))
  })
  return { url, child }
}

export async function startForkUpstream({ delayMs = 0 } = {}): Promise<ForkUpstream> {
  const cli = await startUpstreamCli()
  const provider = new JsonRpcProvider(cli.url, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 20 })
  const wallet = new Wallet(DEV_ACCOUNTS[0].key, provider)
  const artifact = artifacts.Token as { abi: InterfaceAbi; bytecode: string }
  const deployed = await new ContractFactory(artifact.abi, artifact.bytecode, wallet).deploy('Forked', 'FRK', TOKEN_SUPPLY)
  await deployed.waitForDeployment()
  const token = (await deployed.getAddress()).toLowerCase()
  const contract = new Contract(token, artifact.abi, wallet)
  await (await contract.getFunction('transfer')(DEV_ACCOUNTS[1].address, SEED_SENT)).wait()
  const seededBlock = BigInt(await provider.getBlockNumber())
  provider.destroy()

  let requests = 0
  const calls: string[] = []
  const state = { delayMs, down: false, cors: true }
  const server: Server = createServer((req, res) => {
    if (state.down) {
      req.socket.destroy()
      return
    }
    const cors: Record<string, string> = state.cors ? { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type, authorization' } : {}
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors)
      res.end()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8')
      requests++
      try {
        const parsed = JSON.parse(body) as { method: string } | { method: string }[]
        for (const item of Array.isArray(parsed) ? parsed : [parsed]) calls.push(item.method)
      } catch {
        calls.push('(not JSON)')
      }
      if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs))
      try {
        const answer = await fetch(cli.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        res.writeHead(answer.status, { 'content-type': 'application/json', ...cors })
        res.end(await answer.text())
      } catch {
        req.socket.destroy()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    cli,
    token,
    seededBlock,
    get requests() {
      return requests
    },
    calls,
    resetCounts() {
      requests = 0
      calls.length = 0
    },
    get delayMs() {
      return state.delayMs
    },
    set delayMs(ms: number) {
      state.delayMs = ms
    },
    get down() {
      return state.down
    },
    set down(value: boolean) {
      state.down = value
      if (value) server.closeAllConnections()
    },
    get cors() {
      return state.cors
    },
    set cors(value: boolean) {
      state.cors = value
    },
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      if (cli.child.exitCode !== null || cli.child.signalCode !== null) return
      const exited = new Promise((resolve) => cli.child.once('exit', resolve))
      cli.child.kill('SIGKILL')
      await exited
    },
  }
}

/** A call straight to the upstream pagenode (not through the counting proxy): what the upstream itself answers. */
export async function askUpstream<T = unknown>(upstream: ForkUpstream, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(upstream.cli.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const answer = (await response.json()) as { result?: T; error?: { message: string } }
  if (answer.error) throw new Error(`the upstream answered ${method} with an error: ${answer.error.message}`)
  return answer.result as T
}
