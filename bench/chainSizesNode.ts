/**
 * The Node.js half of the chain-size bench (issue 21): one node (createNode, as tests use it)
 * grown to each size in turn — 1k, 10k, 50k, 100k blocks of ERC-20 transfers, one transfer (one
 * log) a block — and at each size: 1,000 more transfers one by one (median and mean per
 * transfer), eth_call and eth_getBalance p50, eth_getLogs over the last 1,000 blocks, and memory
 * after a full GC (heap, array buffers, RSS) against the node's own empty reading. A process of
 * its own (bench/chainSizes.ts spawns it), so that its memory is this node's only.
 *
 *   npx tsx --expose-gc bench/chainSizesNode.ts 1000,10000      # prints one JSON line per size
 */
import { readFileSync } from 'node:fs'
import { createNode } from '../src/core/node.ts'
import { loadFastCrypto } from '../src/core/exec/fastCrypto.ts'
import { CHAIN_ID, FROM } from './floors.ts'
import { token, tokenDeployment, tokenTransfers } from './transactions.ts'
import { growAndMeasure, type SizeReading } from './chainSizeWorkload.ts'

const sizes = (process.argv[2] ?? '1000,10000,50000,100000').split(',').map(Number)
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc')

function memory() {
  for (let i = 0; i < 3; i++) gc!()
  const { heapUsed, arrayBuffers, rss } = process.memoryUsage()
  return { heap: heapUsed, buffers: arrayBuffers, rss }
}

await loadFastCrypto()
const deployment = tokenDeployment()
// Signed once by the bench run (a file it names), or here.
const file = process.env.BENCH_RAWS_FILE
// Through JSON either way: signing leaves each hex string a tree of concatenations (~5 KB of heap
// a transaction, 100,000 of them), which would weigh on every GC of the node measured here.
const raws: string[] = JSON.parse(file ? readFileSync(file, 'utf8') : JSON.stringify(tokenTransfers(Math.max(...sizes), deployment.address)))
const node = await createNode({ chainId: CHAIN_ID })
const request = (method: string, params: unknown[] = []) => node.request({ method, params })
await request('eth_sendRawTransaction', [deployment.raw])
const empty = memory()
const balanceOf = [{ to: deployment.address, data: token.encodeFunctionData('balanceOf', [FROM]) }, 'latest']

for (const size of sizes) {
  const figures = await growAndMeasure(request, raws, size, deployment.address, balanceOf, FROM)
  const now = memory()
  const reading: SizeReading = {
    size,
    ...figures,
    heapBytesPerBlock: (now.heap - empty.heap) / size,
    buffersBytesPerBlock: (now.buffers - empty.buffers) / size,
    rssBytesPerBlock: (now.rss - empty.rss) / size,
    heapMB: now.heap / 2 ** 20,
    rssMB: now.rss / 2 ** 20,
  }
  console.log(JSON.stringify(reading))
}
await node.close()
