/**
 * The chain-size bench (issue 21): how pagenode's costs and memory behave as a chain grows to the
 * sizes users reach, 1k to 100k blocks, in Node.js (chainSizesNode.ts, a process of its own) and
 * in Chromium (chainSizesBrowser.ts). Part of `npm run bench` (BENCH_SIZES=1000,10000 to choose
 * the sizes; 0 to leave it out); its figures go to bench/RESULTS.md and docs/benchmarks.md.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { SizeReading } from './chainSizeWorkload.ts'
import type { Collector, Row } from './report.ts'

export const DEFAULT_SIZES = [1000, 10_000, 50_000, 100_000]

/** The Node.js half, in a process of its own (its memory is this node's only). */
export async function runNodeSizes(sizes: number[], raws: string[]): Promise<SizeReading[]> {
  const dir = await mkdtemp(join(tmpdir(), 'pagenode-sizes-'))
  try {
    const file = join(dir, 'raws.json')
    await writeFile(file, JSON.stringify(raws))
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/chainSizesNode.ts', sizes.join(',')], {
      env: { ...process.env, BENCH_RAWS_FILE: file },
      maxBuffer: 1 << 24,
      timeout: 60 * 60 * 1000,
    })
    return stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as SizeReading)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Each reading's figures into the run's collector. */
export function collectSizes(collect: Collector, half: 'node' | 'chromium', readings: SizeReading[]): void {
  for (const r of readings) {
    const at = `at ${r.size} blocks:`
    collect(half, `${at} ERC-20 transfer one by one, median`, r.medianMs, 'ms', 1)
    collect(half, `${at} ERC-20 transfer one by one, mean`, r.meanMs, 'ms', 1)
    collect(half, `${at} eth_call (balanceOf) p50`, r.callP50, 'ms', 1)
    collect(half, `${at} eth_getBalance p50`, r.balanceP50, 'ms', 1)
    collect(half, `${at} eth_getLogs over the last 1,000 blocks (${r.logs} logs) p50`, r.logsP50, 'ms', 1)
    collect(half, `${at} growing, 50 in flight`, r.growTxPerSecond, 'tx/s', 1)
    if (half === 'node') {
      collect(half, `${at} RSS above the empty node, per block`, r.rssBytesPerBlock, 'B', 1)
      collect(half, `${at} JS heap and array buffers above the empty node, per block`, r.heapBytesPerBlock + r.buffersBytesPerBlock, 'B', 1)
      collect(half, `${at} RSS`, r.rssMB, 'MB', 1)
    } else {
      collect(half, `${at} page + node worker memory (JS heaps and their buffers, after GC)`, r.pageAndWorkerMB, 'MB', 1)
      collect(half, `${at} page + node worker memory above the empty chain, per block`, r.memoryBytesPerBlock, 'B', 1)
      collect(half, `${at} IndexedDB bytes per block`, r.idbBytesPerBlock, 'B', 1)
      collect(half, `${at} warm start: page script to first answer`, r.warmStartMs, 'ms', 1)
      collect(half, `${at} warm start: then the first state read`, r.firstStateReadMs, 'ms', 1)
      collect(half, `${at} warm start: then the first transaction (durable)`, r.firstTransactionMs, 'ms', 1)
    }
  }
}

/** Issue 21's targets on these figures. */
export function sizeRows(node: SizeReading[], chromium: SizeReading[]): Row[] {
  const rows: Row[] = []
  const at = (readings: SizeReading[], size: number) => readings.find((r) => r.size === size)
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`
  const x = (n: number) => `${n.toFixed(2)}×`
  const add = (workload: string, value: string, floor: string, ratio: string, target: string, met: boolean | undefined) => rows.push({ workload, value, floor, ratio, target, met })
  const node50 = at(node, 50_000)
  if (node50) add('Node, memory at 50k blocks: RSS above the empty node, per block', kb(node50.rssBytesPerBlock), '', '', '≤ 4 KB', node50.rssBytesPerBlock <= 4096)
  const chrome50 = at(chromium, 50_000)
  if (chrome50) add('Chromium, memory at 50k blocks: page + worker above the empty chain, per block', kb(chrome50.memoryBytesPerBlock), '', '', '≤ 4 KB', chrome50.memoryBytesPerBlock <= 4096)
  const chrome100 = at(chromium, 100_000)
  if (chrome100) add('Chromium, page + worker memory at 100k blocks', `${chrome100.pageAndWorkerMB.toFixed(1)} MB`, '', '', '≤ 250 MB', chrome100.pageAndWorkerMB <= 250)
  const chrome1 = at(chromium, 1000)
  if (chrome1 && chrome50) {
    const warm = chrome50.warmStartMs / chrome1.warmStartMs
    add('Chromium, warm start at 50k blocks (page script to first answer)', `${chrome50.warmStartMs.toFixed(0)} ms`, `${chrome1.warmStartMs.toFixed(0)} ms (at 1k blocks)`, x(warm), '≤ 1.2× the 1k figure', warm <= 1.2)
    const read = chrome50.firstStateReadMs / chrome1.firstStateReadMs
    add('Chromium, first state read after that start at 50k blocks', `${chrome50.firstStateReadMs.toFixed(1)} ms`, `${chrome1.firstStateReadMs.toFixed(1)} ms (at 1k blocks)`, x(read), '≤ 1.2× the 1k figure', read <= 1.2)
    const sent = chrome50.firstTransactionMs / chrome1.firstTransactionMs
    add('Chromium, then the first transaction (durable) at 50k blocks', `${chrome50.firstTransactionMs.toFixed(1)} ms`, `${chrome1.firstTransactionMs.toFixed(1)} ms (at 1k blocks)`, x(sent), 'flat (no target)', undefined)
  }
  for (const [half, readings] of [['Node', node], ['Chromium', chromium]] as const) {
    const first = readings[0]
    const last = readings[readings.length - 1]
    if (!first || !last || first === last) continue
    add(`${half}, ERC-20 transfer one by one: median at ${last.size} blocks vs ${first.size}`, `${last.medianMs.toFixed(2)} ms`, `${first.medianMs.toFixed(2)} ms (at ${first.size} blocks)`, x(last.medianMs / first.medianMs), 'flat (no target)', undefined)
    const tail = Math.max(...readings.map((r) => r.meanMs / r.medianMs))
    add(`${half}, ERC-20 transfer one by one: mean / median, worst size`, x(tail), '', '', '≤ 1.3×', tail <= 1.3)
  }
  return rows
}

/** A table of the sizes, a column each: what docs/benchmarks.md shows. */
export function sizeTable(node: SizeReading[], chromium: SizeReading[]): string {
  const sizes = [...new Set([...node, ...chromium].map((r) => r.size))].sort((a, b) => a - b)
  const line = (label: string, readings: SizeReading[], value: (r: SizeReading) => string) =>
    `| ${label} | ${sizes.map((size) => { const r = readings.find((x) => x.size === size); return r ? value(r) : '–' }).join(' | ')} |`
  const ms = (n: number) => `${n.toFixed(n < 1 ? 3 : 2)} ms`
  const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`
  return [
    `| figure | ${sizes.map((s) => `${s.toLocaleString('en')} blocks`).join(' | ')} |`,
    `|---|${sizes.map(() => '---').join('|')}|`,
    line('Node: ERC-20 transfer one by one, median / mean', node, (r) => `${ms(r.medianMs)} / ${ms(r.meanMs)}`),
    line('Node: eth_call (balanceOf) p50', node, (r) => ms(r.callP50)),
    line('Node: eth_getBalance p50', node, (r) => ms(r.balanceP50)),
    line('Node: eth_getLogs, last 1,000 blocks, p50', node, (r) => ms(r.logsP50)),
    line('Node: RSS / above empty per block', node, (r) => `${r.rssMB.toFixed(0)} MB / ${kb(r.rssBytesPerBlock)}`),
    line('Node: JS heap + buffers above empty per block', node, (r) => kb(r.heapBytesPerBlock + r.buffersBytesPerBlock)),
    line('Chromium: transfer one by one (durable), median / mean', chromium, (r) => `${ms(r.medianMs)} / ${ms(r.meanMs)}`),
    line('Chromium: eth_call (balanceOf) p50', chromium, (r) => ms(r.callP50)),
    line('Chromium: eth_getBalance p50', chromium, (r) => ms(r.balanceP50)),
    line('Chromium: eth_getLogs, last 1,000 blocks, p50', chromium, (r) => ms(r.logsP50)),
    line('Chromium: page + worker memory / above empty per block', chromium, (r) => `${r.pageAndWorkerMB.toFixed(0)} MB / ${kb(r.memoryBytesPerBlock)}`),
    line('Chromium: IndexedDB bytes per block', chromium, (r) => `${r.idbBytesPerBlock.toFixed(0)} B`),
    line('Chromium: warm start to first answer / then first state read', chromium, (r) => `${r.warmStartMs.toFixed(0)} ms / ${r.firstStateReadMs.toFixed(1)} ms`),
    line('Chromium: then the first transaction (durable)', chromium, (r) => ms(r.firstTransactionMs)),
  ].join('\n')
}

/** The README's short table: the figures issue 21 set targets on, per size, with the targets. */
export function readmeSizeTable(node: SizeReading[], chromium: SizeReading[]): string {
  const sizes = [...new Set([...node, ...chromium].map((r) => r.size))].sort((a, b) => a - b)
  const cell = (readings: SizeReading[], size: number, value: (r: SizeReading) => string) => {
    const r = readings.find((x) => x.size === size)
    return r ? value(r) : '–'
  }
  const row = (label: string, target: string, readings: SizeReading[], value: (r: SizeReading) => string) =>
    `| ${label} | ${sizes.map((size) => cell(readings, size, value)).join(' | ')} | ${target} |`
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
  return [
    `| | ${sizes.map((s) => `${s / 1000}k blocks`).join(' | ')} | target |`,
    `|---|${sizes.map(() => '---').join('|')}|---|`,
    row('Node: memory above an empty node, per block (RSS)', '≤ 4 KB at 50k', node, (r) => kb(r.rssBytesPerBlock)),
    row('Chromium: page + worker memory', '≤ 250 MB at 100k', chromium, (r) => `${r.pageAndWorkerMB.toFixed(0)} MB`),
    row('Chromium: … above an empty chain, per block', '≤ 4 KB at 50k', chromium, (r) => kb(r.memoryBytesPerBlock)),
    row('Chromium: warm start to first answer', '50k ≤ 1.2× 1k', chromium, (r) => `${r.warmStartMs.toFixed(0)} ms`),
    row('Chromium: then the first state read', '50k ≤ 1.2× 1k', chromium, (r) => `${r.firstStateReadMs.toFixed(1)} ms`),
    row('Node: ERC-20 transfer, median / mean', 'mean ≤ 1.3× median', node, (r) => `${r.medianMs.toFixed(2)} / ${r.meanMs.toFixed(2)} ms`),
    row('Chromium: durable ERC-20 transfer, median / mean', 'mean ≤ 1.3× median', chromium, (r) => `${r.medianMs.toFixed(2)} / ${r.meanMs.toFixed(2)} ms`),
    row('Chromium: eth_call / eth_getBalance p50', '', chromium, (r) => `${r.callP50.toFixed(2)} / ${r.balanceP50.toFixed(2)} ms`),
    row('Chromium: eth_getLogs, last 1,000 blocks', '', chromium, (r) => `${r.logsP50.toFixed(1)} ms`),
  ].join('\n')
}
