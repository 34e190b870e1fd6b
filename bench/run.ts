/**
 * `npm run bench`: the Node.js core and headless Chromium (the built package: node worker,
 * provider, service worker, IndexedDB on disk), each figure beside its floor measured in the same
 * run; writes bench/results/<date>.json and bench/RESULTS.md. See bench/README.md.
 *
 *   BENCH_RUNS=3             runs per workload (medians)
 *   BENCH_ONLY=node|chromium one half only
 *   BENCH_WARM_BLOCKS=10000  blocks of the warm-start / eth_getLogs chain
 *   BENCH_SIZES=1000,10000,50000,100000  the chain-size bench's sizes (0: none; chainSizes.ts)
 */
import { cpus, totalmem } from 'node:os'
import { loadFastCrypto, fastCryptoStatus } from '../src/core/exec/fastCrypto.ts'
import { runBrowserBench } from './browser.ts'
import { runNodeBench } from './node.ts'
import { createCollector, updateBenchmarksPage, updateReadmeSection, writeReport } from './report.ts'
import { readmeTargetTable, targetRows } from './targets.ts'
import { tokenDeployment, tokenTransfers, transfers } from './transactions.ts'
import { collectSizes, DEFAULT_SIZES, readmeSizeTable, runNodeSizes, sizeRows, sizeTable } from './chainSizes.ts'
import { FIRST_TRANSACTION_STARTS } from './chainSizesBrowser.ts'
import type { SizeReading } from './chainSizeWorkload.ts'
import { FORK_SETTING, forkTable, runForkBench, type ForkRow } from './fork.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const ONLY = process.env.BENCH_ONLY
const WARM_BLOCKS = Number(process.env.BENCH_WARM_BLOCKS ?? 10_000)
const SIZES = process.env.BENCH_SIZES === '0' ? [] : (process.env.BENCH_SIZES?.split(',').map(Number) ?? DEFAULT_SIZES)
const began = performance.now()

await loadFastCrypto()
console.log(`crypto: ${JSON.stringify(fastCryptoStatus())}; signing the transactions…`)
const deployment = tokenDeployment()
// One list serves the warm chain and the chain sizes (the same transfers from nonce 1 on).
const signed = tokenTransfers(Math.max(300, ONLY === 'node' ? 300 : WARM_BLOCKS, ...SIZES.map((size) => size + FIRST_TRANSACTION_STARTS)), deployment.address)
const warm = signed.slice(0, Math.max(300, ONLY === 'node' ? 300 : WARM_BLOCKS))
const lists = { transfers: transfers(2000), deployment, erc20: warm.slice(0, 300) }

const { collect, figures } = createCollector()
let nodeSizes: SizeReading[] = []
let chromiumSizes: SizeReading[] = []
if (ONLY !== 'chromium') {
  await runNodeBench(RUNS, collect, lists)
  if (SIZES.length > 0) {
    console.log(`node: chains of ${SIZES.join(', ')} blocks`)
    nodeSizes = await runNodeSizes(SIZES, signed)
    collectSizes(collect, 'node', nodeSizes)
  }
}
// Forking (issue 23): its own upstream process, before the Chromium half.
let forkRows: ForkRow[] = []
if (ONLY !== 'chromium') {
  console.log('node: forking a chain 50 ms away')
  forkRows = await runForkBench()
}
let chromium = ''
if (ONLY !== 'node') {
  const browser = await runBrowserBench(RUNS, collect, { ...lists, warm }, SIZES.length > 0 ? { sizes: SIZES, raws: signed } : undefined)
  chromium = browser.chromium
  chromiumSizes = browser.sizes
  collectSizes(collect, 'chromium', chromiumSizes)
}

const cpu = cpus()[0]?.model?.trim() ?? 'cpu'
const machine = `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}${chromium ? `, Chromium ${chromium} headless` : ''}`
const date = new Date().toISOString().slice(0, 10)
const table = [...targetRows(figures), ...sizeRows(nodeSizes, chromiumSizes)]
const sizes = nodeSizes.length + chromiumSizes.length > 0 ? `### As the chain grows (issue 21)\n\nOne chain grown to each size in turn (ERC-20 transfers, one a block; \`bench/chainSizes.ts\`), measured there.\n\n${sizeTable(nodeSizes, chromiumSizes)}` : undefined
const forked = forkRows.length > 0 ? `### Forking (issue 23)\n\n${FORK_SETTING}; \`bench/fork.ts\`.\n\n${forkTable(forkRows)}` : undefined
const more = [sizes, forked].filter(Boolean).join('\n\n') || undefined
writeReport({ date, machine, runs: RUNS, figures, rows: table, seconds: (performance.now() - began) / 1000, more })
if (!ONLY) updateBenchmarksPage(date, machine, table, more)
if (!ONLY) updateReadmeSection('targets', date, readmeTargetTable(table))
if (!ONLY && nodeSizes.length + chromiumSizes.length > 0) updateReadmeSection('sizes', date, readmeSizeTable(nodeSizes, chromiumSizes))
console.log(`wrote bench/results/${date}.json and bench/RESULTS.md in ${((performance.now() - began) / 1000).toFixed(0)} s`)
