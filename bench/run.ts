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
import { createCollector, format, median, updateBenchmarksPage, updateReadmeSizes, writeReport, type Figure, type Row } from './report.ts'
import { tokenDeployment, tokenTransfers, transfers } from './transactions.ts'
import { collectSizes, DEFAULT_SIZES, readmeSizeTable, runNodeSizes, sizeRows, sizeTable } from './chainSizes.ts'
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
const signed = tokenTransfers(Math.max(300, ONLY === 'node' ? 300 : WARM_BLOCKS, ...SIZES), deployment.address)
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
const table = [...rows(figures), ...sizeRows(nodeSizes, chromiumSizes)]
const sizes = nodeSizes.length + chromiumSizes.length > 0 ? `### As the chain grows (issue 21)\n\nOne chain grown to each size in turn (ERC-20 transfers, one a block; \`bench/chainSizes.ts\`), measured there.\n\n${sizeTable(nodeSizes, chromiumSizes)}` : undefined
const forked = forkRows.length > 0 ? `### Forking (issue 23)\n\n${FORK_SETTING}; \`bench/fork.ts\`.\n\n${forkTable(forkRows)}` : undefined
const more = [sizes, forked].filter(Boolean).join('\n\n') || undefined
writeReport({ date, machine, runs: RUNS, figures, rows: table, seconds: (performance.now() - began) / 1000, more })
if (!ONLY) updateBenchmarksPage(date, machine, table, more)
if (!ONLY && nodeSizes.length + chromiumSizes.length > 0) updateReadmeSizes(date, readmeSizeTable(nodeSizes, chromiumSizes))
console.log(`wrote bench/results/${date}.json and bench/RESULTS.md in ${((performance.now() - began) / 1000).toFixed(0)} s`)

/** The issue's table: each workload, its floor, the ratio, the target. */
function rows(figures: Map<string, Figure>): Row[] {
  const get = (half: string, prefix: string) => [...figures.values()].find((f) => f.half === half && f.name.startsWith(prefix))
  const out: Row[] = []
  const fmt = (f: Figure | undefined) => (f ? format(f.median, f.unit) : 'n/a')
  const add = (workload: string, value: Figure | undefined, floor: string, ratio: string, target: string, met: boolean | undefined) =>
    out.push({ workload, value: fmt(value), floor, ratio, target, met: value ? met : undefined })
  const x = (n: number) => `${n.toFixed(2)}×`

  const postMessage = get('chromium', 'floor: postMessage')
  const swFloor = get('chromium', 'floor: service worker')
  const idb = get('chromium', 'floor: empty IndexedDB')
  const runTx = get('chromium', 'floor: bare runTx of the 1,000 signed')
  const runTxErc20 = get('chromium', 'floor: bare runTx of the 300')
  const floorOf = (...fs: (Figure | undefined)[]) => fs.filter(Boolean).map((f) => `${fmt(f)} (${f!.name.replace(/^floor: /, '').replace(/, p50$/, '')})`).join('; ') || 'n/a'
  const perTx = (value: Figure | undefined, floor: Figure | undefined) => (value && floor ? `${x(floor.median / value.median)} floor per tx` : 'n/a')

  const rtt = get('chromium', 'provider round trip')
  add('provider round trip, eth_blockNumber p50', rtt, floorOf(postMessage), rtt && postMessage ? x(rtt.median / postMessage.median) : 'n/a', '≤ 2× floor', rtt && postMessage && rtt.median <= 2 * postMessage.median)
  const http = get('chromium', 'HTTP through the service worker')
  add('HTTP through the service worker, eth_blockNumber p50', http, floorOf(swFloor), http && swFloor ? x(http.median / swFloor.median) : 'n/a', '≤ 1.3× floor', http && swFloor && http.median <= 1.3 * swFloor.median)
  const balance = get('chromium', 'provider eth_getBalance')
  add('provider eth_getBalance p50', balance, floorOf(postMessage), balance && postMessage ? x(balance.median / postMessage.median) : 'n/a', '≤ 0.2 ms', balance && balance.median <= 0.2)
  const call = get('chromium', 'provider eth_call')
  add('provider eth_call (ERC-20 balanceOf) p50', call, floorOf(postMessage), call && postMessage ? x(call.median / postMessage.median) : 'n/a', '≤ 0.6 ms', call && call.median <= 0.6)
  const one = get('chromium', '1,000 signed transfers, one by one')
  add('1,000 signed transfers, one by one, automine, durable ack', one, floorOf(runTx, idb), perTx(one, runTx), '≥ 250 tx/s', one && one.median >= 250)
  const flight = get('chromium', 'the same with 50 in flight')
  add('the same with 50 in flight (group commit)', flight, floorOf(runTx, idb), perTx(flight, runTx), '≥ 600 tx/s', flight && flight.median >= 600)
  const erc20 = get('chromium', '300 ERC-20 transfers')
  add('300 ERC-20 transfers, one by one, durable', erc20, floorOf(runTxErc20, idb), perTx(erc20, runTxErc20), '≥ 150 tx/s', erc20 && erc20.median >= 150)
  const block = get('chromium', 'interval mining')
  add('interval mining: 2,000 transfers into one block', block, floorOf(runTx), perTx(block, runTx), '≥ 1,000 tx/s', block && block.median >= 1000)
  const core = get('node', 'Node core, memory store')
  const coreFloor = get('node', 'floor: bare runTx of the 1,000 signed')
  // Per transfer, run by run (the floor and the node are timed in the same run), then the median.
  const coreMedian = get('node', 'the same, per transfer: median')
  const coreMean = get('node', 'the same, per transfer: mean /')
  const floorMedian = get('node', 'floor: the same, per transfer: median')
  const medianRatio = coreMedian && floorMedian ? median(coreMedian.runs.map((ms, i) => ms / floorMedian.runs[i])) : undefined
  const coreRatio = `${perTx(core, coreFloor)}; median per tx ${medianRatio === undefined ? 'n/a' : x(medianRatio)} floor's, mean ${coreMean ? x(coreMean.median) : 'n/a'} median`
  add('Node core, memory store, 1,000 transfers one by one', core, floorOf(coreFloor), coreRatio, '≥ 500 tx/s; per tx: median ≤ 1.15× floor, mean ≤ 1.3× median', core && medianRatio !== undefined && coreMean && core.median >= 500 && medianRatio <= 1.15 && coreMean.median <= 1.3)
  const coldCore = get('node', 'a cold process')
  add('Node core, a cold process: createNode, then 1,000 transfers awaited one by one', coldCore, floorOf(coreFloor), perTx(coldCore, coreFloor), '≥ 1,000 tx/s (JIT warm-up included)', coldCore && coldCore.median >= 1000)
  const cold = get('chromium', 'cold start')
  add('cold start: page script to first answer (empty chain)', cold, floorOf(postMessage), '', '≤ 300 ms', cold && cold.median <= 300)
  const warmStart = get('chromium', 'warm start')
  add(warmStart?.name ?? 'warm start with 10,000 blocks persisted', warmStart, cold ? `${fmt(cold)} (the empty-chain start)` : 'n/a', warmStart && cold ? x(warmStart.median / cold.median) : 'n/a', '≤ 400 ms and ≤ 1.5× empty', warmStart && cold && warmStart.median <= 400 && warmStart.median <= 1.5 * cold.median)
  const logs = get('chromium', 'eth_getLogs')
  add(logs?.name.replace(/, p50$/, '') ?? 'eth_getLogs over 10,000 blocks by address', logs, '', '', '≤ 50 ms', logs && logs.median <= 50)
  const trace = get('chromium', 'debug_traceTransaction')
  add('debug_traceTransaction (callTracer) of an ERC-20 transfer, p50', trace, floorOf(postMessage), '', '≤ 5 ms', trace && trace.median <= 5)
  const absent = get('node', 'floor: bare runTx of the 300 ERC-20')
  const untraced = get('node', 'the same, untraced after')
  // Run by run (the two are timed back to back in each run), then the median: a ratio of medians
  // pairs figures from different moments, which on this VM read anywhere from −14% to +4%.
  const slowdown = untraced && absent ? median(absent.runs.map((rate, i) => rate / untraced.runs[i] - 1)) : undefined
  out.push({
    workload: 'untraced execution vs tracing code absent (Node, 300 ERC-20 runTx)',
    value: untraced ? fmt(untraced) : 'n/a',
    floor: absent ? `${fmt(absent)} (tracing code absent)` : 'n/a',
    ratio: slowdown === undefined ? 'n/a' : `${(Math.abs(slowdown) * 100).toFixed(1)}% ${slowdown < 0 ? 'faster' : 'slower'} (median of the runs' ratios)`,
    target: '≤ 5% slower',
    met: slowdown === undefined ? undefined : slowdown <= 0.05,
  })
  const worker = get('bundle', 'worker, gzip (startup')
  const lazy = get('bundle', 'worker, gzip, lazy')
  add('bundle, gzip: worker (startup chunk)', worker, lazy ? `+ ${fmt(lazy)} loaded later (${lazy.name.match(/\((.*)\)/)?.[1]})` : '', '', '≤ 200 KB', worker && worker.median <= 200)
  const page = get('bundle', 'page client')
  add('bundle, gzip: page client', page, '', '', '≤ 10 KB', page && page.median <= 10)
  const sw = get('bundle', 'service worker')
  add('bundle, gzip: service worker', sw, '', '', '≤ 4 KB', sw && sw.median <= 4)
  const bytes = get('chromium', 'IndexedDB bytes per transfer')
  add('IndexedDB bytes per transfer', bytes, '', '', '≤ 3 KB', bytes && bytes.median <= 3 * 1024)
  const heap = get('chromium', 'JS heap of the node worker')
  add(heap?.name ?? 'JS heap after 10,000 transfers', heap, '', '', '≤ 150 MB', heap && heap.median <= 150)
  return out
}
