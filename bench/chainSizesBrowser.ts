/**
 * The Chromium half of the chain-size bench (issue 21): a durable chain in the page (startNode,
 * IndexedDB on disk, the node worker), grown to each size in turn by the page itself
 * (chainSizeWorkload.ts), and at each size: the workload's figures, the page's and the node
 * worker's memory after a full GC (DevTools), IndexedDB bytes per block, and a warm start — the
 * tab reloaded on the chain (bench/browser/start.ts: page script to first answer, then the first
 * state read of an account untouched since genesis), and then the first transaction after such
 * a start (the workload's next transfer, to its durable acknowledgement) in starts of its own,
 * so that the warm starts timed follow a page that wrote nothing, as they did before (with the
 * transaction inside them, three of four starts at 50k and 100k were slower in two runs; not
 * isolated: docs/benchmarks.md). Each of those starts adds its block; the next size's growth goes
 * on from there.
 */
import type { Page } from 'playwright'
import type { BenchApi } from './browser/main.ts'
import { heapBytes, nodeWorkerMemory, pageMemory } from './browser.ts'
import type { SizeReading } from './chainSizeWorkload.ts'
import { median } from './report.ts'
import { FROM } from './floors.ts'
import { token } from './transactions.ts'

type Call = <K extends keyof BenchApi>(name: K, ...args: Parameters<BenchApi[K]>) => Promise<Awaited<ReturnType<BenchApi[K]>>>

const NAME = 'bench-sizes'
const CHUNK = 5000
const WARM_STARTS = 3
/** Starts at each size that send a transfer (past those the size takes: the list must hold them). */
export const FIRST_TRANSACTION_STARTS = WARM_STARTS

export async function chainSizesInChromium(page: Page, origin: string, deployment: { raw: string; address: string }, raws: string[], sizes: number[]): Promise<SizeReading[]> {
  const call: Call = (name, ...args) =>
    page.evaluate(([name, args]) => (window.bench[name] as (...a: unknown[]) => unknown)(...args), [name, args] as const) as never
  const harness = async () => {
    await page.goto(`${origin}/`)
    await page.waitForFunction(() => 'bench' in window)
    for (let at = 0; at < raws.length; at += CHUNK) await call('loadRaws', raws.slice(at, at + CHUNK), at === 0)
    await call('start', { name: NAME, serviceWorker: false })
  }
  const memory = async () => heapBytes(await pageMemory(page)) + heapBytes(await nodeWorkerMemory(page))
  /** The tab navigated to the start page on the chain, expected at `head`; `raw`: a transaction it then sends. */
  const warmStart = async (head: number, raw?: string) => {
    await page.goto(`${origin}/start.html?name=${NAME}${raw ? `&raw=${raw}` : ''}`)
    const start = await page.evaluate(() => window.__start!)
    if (Number(start.blockNumber) !== head) throw new Error(`the restarted chain is at ${start.blockNumber}, not ${head}`)
    return start
  }
  const dbTotal = async () => Object.values(await call('dbBytes', NAME)).reduce((a, b) => a + b, 0)

  await page.goto(`${origin}/`)
  await page.waitForFunction(() => 'bench' in window)
  await call('deleteDb', NAME)
  await harness()
  await call('request', 'eth_sendRawTransaction', [deployment.raw])
  const empty = await memory()
  const emptyDb = await dbTotal()
  const balanceOf = [{ to: deployment.address, data: token.encodeFunctionData('balanceOf', [FROM]) }, 'latest']
  const readings: SizeReading[] = []
  for (const size of sizes) {
    console.log(`chromium: a durable chain of ${size} blocks`)
    const figures = await call('sizeStep', size, deployment.address, balanceOf, FROM)
    const used = await memory()
    const db = await dbTotal()
    await call('stop')
    const starts: { toFirstAnswer: number; firstStateRead: number }[] = []
    // The first start moves the service worker to this chain: not counted.
    for (let i = 0; i <= WARM_STARTS; i++) {
      const start = await warmStart(size)
      if (i > 0) starts.push(start)
    }
    const firstTransactions: number[] = []
    for (let i = 0; i < FIRST_TRANSACTION_STARTS; i++) {
      // raws[n] is mined in block n + 2: the chain is at size + i, so the next is raws[size + i - 1].
      const raw = raws[size + i - 1]
      if (!raw) throw new Error(`no transfer left for start ${i} at ${size} blocks (${raws.length} signed)`)
      firstTransactions.push((await warmStart(size + i, raw)).firstTransaction!)
    }
    readings.push({
      size,
      ...figures,
      pageAndWorkerMB: used / 2 ** 20,
      memoryBytesPerBlock: (used - empty) / size,
      idbBytesPerBlock: (db - emptyDb) / size,
      warmStartMs: median(starts.map((s) => s.toFirstAnswer)),
      firstStateReadMs: median(starts.map((s) => s.firstStateRead)),
      firstTransactionMs: median(firstTransactions),
    })
    console.log(JSON.stringify(readings[readings.length - 1]))
    if (size !== sizes[sizes.length - 1]) await harness()
  }
  return readings
}
