/**
 * Memory per transaction (issue 19, item 7): the Node.js heap, the array buffers outside it and
 * the process's RSS a node holds per transaction it mined, after N transactions sent under load (50 in flight), with a garbage
 * collection before each reading. Not part of `npm run bench`: a process of its own, so that its
 * heap holds this node only.
 *
 *   npx tsx --expose-gc bench/memory.ts                     # 10,000 transfers on a state file
 *   BENCH_TX=2000 BENCH_STORE=memory BENCH_KIND=erc20 npx tsx --expose-gc bench/memory.ts
 *
 * BENCH_STORE: `file` (the CLI's state file, in a temporary directory), `memory` (MemoryStore)
 * or `none` (createNode's default). BENCH_KIND: `transfer` (ETH transfers to new accounts) or
 * `erc20` (token transfers to new holders: a log each).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FileStore } from '../src/cli/stateFile/fileStore.ts'
import { createNode } from '../src/core/node.ts'
import { MemoryStore } from '../src/core/store/memoryStore.ts'
import type { Store } from '../src/core/store/store.ts'
import { CHAIN_ID } from './floors.ts'
import { tokenDeployment, tokenTransfers, transfers } from './transactions.ts'

const count = Number(process.env.BENCH_TX ?? 10_000)
const storeKind = process.env.BENCH_STORE ?? 'file'
const kind = process.env.BENCH_KIND ?? 'transfer'
const IN_FLIGHT = 50

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc (npx tsx --expose-gc bench/memory.ts)')

function reading(): { heap: number; buffers: number; rss: number } {
  for (let i = 0; i < 3; i++) gc!()
  const { heapUsed, arrayBuffers, rss } = process.memoryUsage()
  return { heap: heapUsed, buffers: arrayBuffers, rss }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'pagenode-memory-'))
  const store: Store | undefined =
    storeKind === 'file' ? await FileStore.open(join(dir, 'chain.state')) : storeKind === 'memory' ? new MemoryStore() : undefined
  const node = await createNode({ chainId: CHAIN_ID, store })
  const send = (raw: string) => node.request({ method: 'eth_sendRawTransaction', params: [raw] })

  let raws: string[]
  if (kind === 'erc20') {
    const deployment = tokenDeployment()
    await send(deployment.raw)
    raws = tokenTransfers(count, deployment.address)
  } else {
    raws = transfers(count)
  }
  const before = reading()
  let next = 0
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < raws.length) await send(raws[next++])
    }),
  )
  raws = []
  const after = reading()
  const head = await node.request({ method: 'eth_blockNumber' })
  const perTx = (bytes: number) => Math.round(bytes / count)
  console.log(
    JSON.stringify({
      transactions: count,
      kind,
      store: storeKind,
      head,
      heapBytesPerTx: perTx(after.heap - before.heap),
      arrayBufferBytesPerTx: perTx(after.buffers - before.buffers),
      rssBytesPerTx: perTx(after.rss - before.rss),
      heapMiB: { before: +(before.heap / 2 ** 20).toFixed(1), after: +(after.heap / 2 ** 20).toFixed(1) },
      rssMiB: { before: +(before.rss / 2 ** 20).toFixed(1), after: +(after.rss / 2 ** 20).toFixed(1) },
    }),
  )
  await node.close()
  await rm(dir, { recursive: true, force: true })
}

await main()
