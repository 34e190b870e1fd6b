/**
 * Memory per transaction through the CLI (issue 19, item 7: 155 → 507 MB RSS over 11,907
 * transactions, ~29 KB each): `pagenode --state` in a process of its own, N transfers sent over
 * HTTP by 50 concurrent clients, the server's heap, array buffers and RSS read before and after
 * (with garbage collected: bench/memoryProbe.ts). Then as many reads (eth_blockNumber,
 * eth_getTransactionReceipt) as a check that a request that adds nothing to the chain keeps
 * nothing either (request log, sessions, filters). Not part of `npm run bench`.
 *
 *   npx tsx bench/cliMemory.ts                 # 10,000 transfers
 *   BENCH_TX=2000 npx tsx bench/cliMemory.ts
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { transfers } from './transactions.ts'

const count = Number(process.env.BENCH_TX ?? 10_000)
const CLIENTS = 50
const WARM_UP = 500
const cli = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url))
const probe = fileURLToPath(new URL('./memoryProbe.ts', import.meta.url))

interface Reading {
  heap: number
  buffers: number
  rss: number
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'pagenode-cli-memory-'))
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '--import', probe, cli, '--port', '0', '--state', join(dir, 'chain.state')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /^Listening on (http:\/\/\S+)$/m.exec(stdout)
      if (match) resolve(match[1])
      else if (child.exitCode !== null) reject(new Error(`the CLI exited: ${stderr}`))
      else return
      clearInterval(timer)
    }, 50)
  })

  const reading = async (): Promise<Reading> => {
    const seen = stderr.length
    child.kill('SIGUSR2')
    for (;;) {
      const match = /pagenode-memory (\{.*\})\n/.exec(stderr.slice(seen))
      if (match) return JSON.parse(match[1]) as Reading
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  let id = 0
  const rpc = async (method: string, params: unknown[]): Promise<unknown> => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const body = (await response.json()) as { result?: unknown; error?: { message: string } }
    if (body.error) throw new Error(`${method}: ${body.error.message}`)
    return body.result
  }
  const load = async (requests: (() => Promise<unknown>)[]): Promise<void> => {
    let next = 0
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      while (next < requests.length) await requests[next++]()
    }))
  }

  let raws = transfers(WARM_UP + count)
  const hashes: string[] = []
  await load(raws.slice(0, WARM_UP).map((raw) => async () => hashes.push((await rpc('eth_sendRawTransaction', [raw])) as string)))
  const before = await reading()
  await load(raws.slice(WARM_UP).map((raw) => async () => hashes.push((await rpc('eth_sendRawTransaction', [raw])) as string)))
  raws = []
  const after = await reading()
  await load(hashes.slice(WARM_UP).map((hash, i) => () => (i % 2 ? rpc('eth_blockNumber', []) : rpc('eth_getTransactionReceipt', [hash]))))
  const afterReads = await reading()
  const head = await rpc('eth_blockNumber', [])

  const per = (bytes: number) => Math.round(bytes / count)
  const mib = (bytes: number) => +(bytes / 2 ** 20).toFixed(1)
  console.log(
    JSON.stringify({
      transactions: count,
      clients: CLIENTS,
      head,
      heapBytesPerTx: per(after.heap - before.heap),
      arrayBufferBytesPerTx: per(after.buffers - before.buffers),
      rssBytesPerTx: per(after.rss - before.rss),
      heapBytesPerRead: per(afterReads.heap - after.heap),
      rssBytesPerRead: per(afterReads.rss - after.rss),
      heapMiB: { before: mib(before.heap), after: mib(after.heap), afterReads: mib(afterReads.heap) },
      rssMiB: { before: mib(before.rss), after: mib(after.rss), afterReads: mib(afterReads.rss) },
    }),
  )
  child.kill('SIGINT')
  await new Promise((resolve) => child.once('exit', resolve))
  await rm(dir, { recursive: true, force: true })
}

await main()
