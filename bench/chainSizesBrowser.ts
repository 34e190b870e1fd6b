/**
 * The Chromium half of the chain-size bench (issue 21): a durable chain in the page (startNode,
 * IndexedDB on disk, the node worker), grown to each size in turn by the page itself
 * (chainSizeWorkload.ts), and at each size: the workload's figures, the page's and the node
 * worker's memory after a full GC (DevTools), IndexedDB bytes per block, and a warm start — the
 * tab reloaded on the chain (bench/browser/start.ts: page script to first answer, then the first
 * state read of an account untouched since genesis).
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
      await page.goto(`${origin}/start.html?name=${NAME}`)
      const start = await page.evaluate(() => window.__start!)
      if (Number(start.blockNumber) !== size) throw new Error(`the restarted chain is at ${start.blockNumber}, not ${size}`)
      if (i > 0) starts.push(start)
    }
    readings.push({
      size,
      ...figures,
      pageAndWorkerMB: used / 2 ** 20,
      memoryBytesPerBlock: (used - empty) / size,
      idbBytesPerBlock: (db - emptyDb) / size,
      warmStartMs: median(starts.map((s) => s.toFirstAnswer)),
      firstStateReadMs: median(starts.map((s) => s.firstStateRead)),
    })
    console.log(JSON.stringify(readings[readings.length - 1]))
    if (size !== sizes[sizes.length - 1]) await harness()
  }
  return readings
}
