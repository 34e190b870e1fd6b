/**
 * The bench's targets: the summary table's rows (every workload beside its floor and the target
 * set on it) and the README's short table of issue 21's throughput targets. From the run's
 * figures alone, so a saved run (bench/results/<date>.json) gives the same rows.
 */
import { format, median, type Figure, type Row } from './report.ts'

/** The summary table: each workload, its floor, the ratio, the target (issue 9's, and issue 21's where it raised them). */
export function targetRows(figures: Map<string, Figure>): Row[] {
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
  add('1,000 signed transfers, one by one, automine, durable ack', one, floorOf(runTx, idb), perTx(one, runTx), '≥ 400 tx/s (#21; #9: ≥ 250)', one && one.median >= 400)
  const flight = get('chromium', 'the same with 50 in flight')
  add('the same with 50 in flight (group commit)', flight, floorOf(runTx, idb), perTx(flight, runTx), '≥ 900 tx/s (#21; #9: ≥ 600)', flight && flight.median >= 900)
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

/** Issue 21's throughput targets (workload rows of `targetRows`), for the README. */
const README_TARGETS: [label: string, workload: string][] = [
  ['Chromium: durable transfers one by one', '1,000 signed transfers, one by one'],
  ['Chromium: the same, 50 in flight', 'the same with 50 in flight'],
  ['Node: 1,000 transfers one by one', 'Node core, memory store'],
  ['Node: a cold process, the same', 'Node core, a cold process'],
]

/** The README's table of issue 21's throughput targets, from the summary rows. */
export function readmeTargetTable(rows: Row[]): string {
  const lines = README_TARGETS.flatMap(([label, workload]) => {
    const row = rows.find((r) => r.workload.startsWith(workload))
    return row ? [`| ${label} | ${row.value} | ${row.ratio || '–'} | ${row.target} | ${row.met === undefined ? '–' : row.met ? 'met' : '**missed**'} |`] : []
  })
  return ['| | this run | against the bare engine | target | |', '|---|---|---|---|---|', ...lines].join('\n')
}
