/**
 * Collects every figure of a bench run, with its runs, and writes bench/results/<date>.json and
 * bench/RESULTS.md: each workload beside its floor (measured in the same run) and its target.
 */
import { readFileSync, writeFileSync } from 'node:fs'

export type Half = 'chromium' | 'node' | 'bundle'
export type Unit = 'ms' | 'tx/s' | 'KB' | 'MB' | 'B' | '×'

export interface Figure {
  half: Half
  name: string
  unit: Unit
  median: number
  runs: number[]
  /** Raw samples behind a single-run figure, when kept (start times). */
  samples?: number[]
}

export type Collector = (half: Half, name: string, value: number, unit: Unit, expectedRuns?: number, samples?: number[]) => void

export const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
export const p50 = median

export function createCollector(): { collect: Collector; figures: Map<string, Figure> } {
  const figures = new Map<string, Figure>()
  const collect: Collector = (half, name, value, unit, _expectedRuns, samples) => {
    const key = `${half}: ${name}`
    const figure = figures.get(key) ?? { half, name, unit, median: 0, runs: [] }
    figure.runs.push(value)
    figure.median = median(figure.runs)
    if (samples) figure.samples = samples
    figures.set(key, figure)
    console.log(`  ${key}: ${format(value, unit)}`)
  }
  return { collect, figures }
}

export function format(value: number, unit: Unit): string {
  if (unit === 'tx/s') return `${value.toFixed(0)} tx/s`
  if (unit === 'ms') return `${value < 1 ? value.toFixed(3) : value < 100 ? value.toFixed(2) : value.toFixed(0)} ms`
  if (unit === 'KB') return `${value.toFixed(1)} KB`
  if (unit === 'MB') return `${value.toFixed(1)} MB`
  if (unit === '×') return `${value.toFixed(2)}×`
  return `${value.toFixed(0)} B`
}

/** One row of the summary table: a workload, its floor, the ratio and the target's verdict. */
export interface Row {
  workload: string
  value: string
  floor: string
  ratio: string
  target: string
  met: boolean | undefined
}

export function writeReport(options: {
  date: string
  machine: string
  runs: number
  figures: Map<string, Figure>
  rows: Row[]
  seconds: number
  /** More markdown after the summary table (the chain-size table). */
  more?: string
}): void {
  const { date, machine, runs, figures, rows, seconds, more } = options
  const json = { date, machine, runs, seconds: Math.round(seconds), rows, figures: Object.fromEntries(figures) }
  writeFileSync(new URL(`./results/${date}.json`, import.meta.url), JSON.stringify(json, null, 2) + '\n')
  const table = rows.map((r) => `| ${r.workload} | ${r.value} | ${r.floor} | ${r.ratio} | ${r.target} | ${r.met === undefined ? '–' : r.met ? 'met' : '**missed**'} |`)
  const all = [...figures.values()].map((f) => `| ${f.half} | ${f.name} | ${format(f.median, f.unit)} | ${f.runs.map((v) => format(v, f.unit)).join(' · ')} |`)
  writeFileSync(
    new URL('./RESULTS.md', import.meta.url),
    `# Benchmark results

${date} · ${machine} · medians of ${runs} runs (start times: of the samples shown) · \`npm run bench\` (${Math.round(seconds)} s)

Each figure stands beside its floor, measured in the same run on the same machine: ratios hold on
a noisy machine where absolute numbers do not. Targets are issue 9's, and issue 21's where it raised them.

| workload | median | floor (same run) | ratio | target | |
|---|---|---|---|---|---|
${table.join('\n')}
${more ? `\n${more}\n` : ''}
## Every figure

| half | figure | median | runs |
|---|---|---|---|
${all.join('\n')}
`,
  )
}

const BENCHMARKS_PAGE = new URL('../docs/benchmarks.md', import.meta.url)
const START = '<!-- bench:start -->'
const END = '<!-- bench:end -->'

/** Replaces the results table of docs/benchmarks.md (between the bench markers) with this run's. */
export function updateBenchmarksPage(date: string, machine: string, rows: Row[], more?: string): void {
  const page = readFileSync(BENCHMARKS_PAGE, 'utf8')
  const from = page.indexOf(START)
  const to = page.indexOf(END)
  if (from < 0 || to < from) return
  const table = rows.map((r) => `| ${r.workload} | ${r.value} | ${r.floor || '–'} | ${r.ratio || '–'} | ${r.target} | ${r.met === undefined ? '–' : r.met ? 'met' : '**missed**'} |`)
  const section = `${START}
${date} · ${machine} · medians (\`npm run bench\`; every figure and run: [bench/RESULTS.md](../bench/RESULTS.md))

| workload | median | floor (same run) | ratio | target | |
|---|---|---|---|---|---|
${table.join('\n')}
${more ? `\n${more}\n` : ''}`
  writeFileSync(BENCHMARKS_PAGE, page.slice(0, from) + section + page.slice(to))
}

const README = new URL('../README.md', import.meta.url)

/**
 * Replaces a README section this run writes (between `<!-- <name>:start -->` and
 * `<!-- <name>:end -->`: `sizes`, the chain-size table; `targets`, issue 21's throughput targets).
 */
export function updateReadmeSection(name: string, date: string, table: string): void {
  const [start, end] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`]
  const readme = readFileSync(README, 'utf8')
  const from = readme.indexOf(start)
  const to = readme.indexOf(end)
  if (from < 0 || to < from) return
  writeFileSync(README, `${readme.slice(0, from)}${start}\n${date}, this repository's 2-core VM:\n\n${table}\n${readme.slice(to)}`)
}
