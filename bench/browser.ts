/**
 * The Chromium half of `npm run bench`: builds bench/browser/ (an app using pagenode through the
 * pagenode/vite plugin), serves it with `vite preview`, and drives headless system Chromium with
 * a persistent profile (real on-disk IndexedDB) through Playwright. All timing happens in the page.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright'
import { preview, type PreviewServer } from 'vite'
import type { BenchApi } from './browser/main.ts'
import type { Collector } from './report.ts'
import { median, p50 } from './report.ts'
import { token } from './transactions.ts'
import { FROM } from './floors.ts'
import type { Lists } from './node.ts'
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts'
import { attachToWorkers } from './workerDebugger.ts'
import { chainSizesInChromium } from './chainSizesBrowser.ts'
import { BENCH_SITE_CONFIG, bundleSizes, buildBenchSite } from './bundleSize.ts'
import type { SizeReading } from './chainSizeWorkload.ts'

type Call = <K extends keyof BenchApi>(name: K, ...args: Parameters<BenchApi[K]>) => Promise<Awaited<ReturnType<BenchApi[K]>>>

export async function runBrowserBench(
  runs: number,
  collect: Collector,
  lists: Lists & { warm: string[] },
  sizes?: { sizes: number[]; raws: string[] },
): Promise<{ chromium: string; sizes: SizeReading[] }> {
  await buildBenchSite()
  collectBundleSizes(collect)

  const server: PreviewServer = await preview({ configFile: BENCH_SITE_CONFIG, logLevel: 'warn', preview: { port: 0 } })
  const origin = server.resolvedUrls!.local[0].replace(/\/$/, '')
  const profile = mkdtempSync(join(tmpdir(), 'pagenode-bench-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
  })
  try {
    const version = context.browser()?.version() ?? (await versionOf(context))
    const page = await context.newPage()
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`))
    await page.goto(`${origin}/`)
    await page.waitForFunction(() => 'bench' in window)
    const call: Call = (name, ...args) =>
      page.evaluate(([name, args]) => (window.bench[name] as (...a: unknown[]) => unknown)(...args), [name, args] as const) as never

    const { transfers, deployment, erc20, warm } = lists
    // Warm-up, untimed: the JIT of the floor worker and of a node worker, as a page that has run a while.
    await call('runTxFloor', [deployment.raw], erc20, false, 'node')
    await call('runTxFloor', [], transfers.slice(0, 500), false, 'default')
    await call('start', { name: 'bench-warmup', persist: false, serviceWorker: false })
    await call('sendInFlight', transfers.slice(0, 300), 1)
    await call('stop')
    for (let run = 0; run < runs; run++) {
      console.log(`chromium run ${run + 1}/${runs}`)
      await runOnce(call, collect, transfers, deployment, erc20)
    }
    await warmChain(page, call, collect, deployment, warm)
    await startTimes(page, origin, runs, collect)
    const sizeReadings = sizes ? await chainSizesInChromium(page, origin, deployment, sizes.raws, sizes.sizes) : []
    return { chromium: version, sizes: sizeReadings }
  } finally {
    await context.close()
    await server.close()
    rmSync(profile, { recursive: true, force: true })
  }
}

async function versionOf(context: BrowserContext): Promise<string> {
  const page = await context.newPage()
  const agent = await page.evaluate(() => navigator.userAgent)
  await page.close()
  return agent.match(/Chrome\/([\d.]+)/)?.[1] ?? agent
}

async function runOnce(
  call: Call,
  collect: Collector,
  raws: string[],
  deployment: { raw: string; address: string },
  erc20: string[],
) {
  const oneByOne = raws.slice(0, 1000)
  // ---- floors, in this run (the two round-trip floors are sampled with their workloads, below) ----
  collect('chromium', 'floor: empty IndexedDB readwrite commit (one tiny put, relaxed), p50', p50(await call('idbFloor', 200, 'relaxed')), 'ms')
  const floorTransfers = await call('runTxFloor', [], oneByOne, false, 'node')
  collect('chromium', 'floor: bare runTx of the 1,000 signed transfers', (1000 / floorTransfers) * 1000, 'tx/s')
  const floorPre = await call('runTxFloor', [], oneByOne, true, 'node')
  collect('chromium', 'floor: bare runTx, the same 1,000 with senders pre-recovered', (1000 / floorPre) * 1000, 'tx/s')
  const floorDefault = await call('runTxFloor', [], oneByOne, false, 'default')
  collect('chromium', 'reference: bare runTx of the 1,000, ethereumjs default crypto (pure-JS noble)', (1000 / floorDefault) * 1000, 'tx/s')
  const floorErc20 = await call('runTxFloor', [deployment.raw], erc20, false, 'node')
  collect('chromium', 'floor: bare runTx of the 300 signed ERC-20 transfers', (erc20.length / floorErc20) * 1000, 'tx/s')

  // ---- 1,000 transfers one by one, durable; then the latency workloads on that chain ----
  const name = (what: string) => `bench-${what}`
  await fresh(call, name('t1'))
  await call('start', { name: name('t1'), baseUrls: ['/rpc'] })
  const genesisBytes = total(await call('dbBytes', name('t1')))
  const oneByOneMs = await call('sendOneByOne', oneByOne)
  collect('chromium', '1,000 signed transfers, one by one, automine, durable ack', (1000 / oneByOneMs) * 1000, 'tx/s')
  collect('chromium', 'IndexedDB bytes per transfer', (total(await call('dbBytes', name('t1'))) - genesisBytes) / 1000, 'B')
  // Each round trip alternates with its floor, call by call: both see the same machine state.
  const rtt = await call('latencyVersusPing', 'eth_blockNumber', [], 1000)
  collect('chromium', 'floor: postMessage round trip to the node worker (a ping it answers before any node code), p50', p50(rtt.floor), 'ms')
  collect('chromium', 'provider round trip, eth_blockNumber p50', p50(rtt.work), 'ms')
  // The same against a worker of its own: a wake-up of another thread, which may cost 3×
  // (bench/README.md, "Floors, measured in the same run").
  const apart = await call('latencyVersusEcho', 'eth_blockNumber', [], 1000)
  collect('chromium', 'reference: postMessage round trip to an echo worker of its own, p50', p50(apart.floor), 'ms')
  collect('chromium', 'reference: the provider round trip sampled beside that worker, p50', p50(apart.work), 'ms')
  const http = await call('httpVersusFloor', 300)
  collect('chromium', 'floor: service worker answering a constant, p50', p50(http.floor), 'ms')
  collect('chromium', 'HTTP through the service worker, eth_blockNumber p50', p50(http.work), 'ms')
  collect('chromium', 'provider eth_getBalance p50', p50(await call('latency', 'eth_getBalance', [FROM, 'latest'], 1000)), 'ms')
  await call('stop')

  // ---- 50 in flight (group commit) ----
  await fresh(call, name('t2'))
  await call('start', { name: name('t2'), serviceWorker: false })
  collect('chromium', 'the same with 50 in flight (group commit)', (1000 / (await call('sendInFlight', oneByOne, 50))) * 1000, 'tx/s')
  await call('stop')

  // ---- ERC-20 ----
  await fresh(call, name('erc20'))
  await call('start', { name: name('erc20'), serviceWorker: false })
  await call('request', 'eth_sendRawTransaction', [deployment.raw])
  collect('chromium', '300 ERC-20 transfers, one by one, durable', (erc20.length / (await call('sendOneByOne', erc20))) * 1000, 'tx/s')
  const balanceOf = { to: deployment.address, data: token.encodeFunctionData('balanceOf', [FROM]) }
  collect('chromium', 'provider eth_call (ERC-20 balanceOf) p50', p50(await call('latency', 'eth_call', [balanceOf, 'latest'], 500)), 'ms')
  await call('stop')

  // ---- 2,000 transfers into one block ----
  await fresh(call, name('mine'))
  await call('start', { name: name('mine'), serviceWorker: false, mining: { mode: 'manual' } })
  try {
    const mined = await call('sendThenMine', raws, 50)
    if (mined.transactions !== raws.length) throw new Error(`the block holds ${mined.transactions} of ${raws.length} transactions`)
    collect('chromium', 'interval mining: 2,000 transfers into one block', (raws.length / mined.ms) * 1000, 'tx/s')
    collect('chromium', '… of which admission of the 2,000 (50 in flight)', mined.admitMs, 'ms')
  } catch (error) {
    console.warn(`2,000 transfers into one block: ${(error as Error).message}`)
  }
  await call('stop')
}

/** A chain of `erc20.length` blocks, one ERC-20 transfer (one log) each, on disk: heap, bytes, logs, trace. */
async function warmChain(page: Page, call: Call, collect: Collector, deployment: { raw: string; address: string }, erc20: string[]) {
  const name = 'bench-warm'
  console.log(`chromium: building a chain of ${erc20.length} blocks`)
  await fresh(call, name)
  await call('start', { name, serviceWorker: false })
  await call('request', 'eth_sendRawTransaction', [deployment.raw])
  const before = total(await call('dbBytes', name))
  const ms = await call('sendInFlight', erc20, 50)
  collect('chromium', `(setup) ${erc20.length} ERC-20 transfers, 50 in flight, durable`, (erc20.length / ms) * 1000, 'tx/s', 1)
  collect('chromium', 'IndexedDB bytes per ERC-20 transfer', (total(await call('dbBytes', name)) - before) / erc20.length, 'B', 1)

  const heap = await nodeWorkerHeap(page)
  collect('chromium', `JS heap of the node worker after ${erc20.length} transfers (after GC)`, heap / 2 ** 20, 'MB', 1)

  // Block 1 is the deployment; blocks 2… hold one transfer (one Transfer log) each.
  const filter = { fromBlock: '0x2', toBlock: `0x${(erc20.length + 1).toString(16)}`, address: deployment.address }
  const logs = (await call('request', 'eth_getLogs', [filter])) as unknown[]
  if (logs.length !== erc20.length) throw new Error(`eth_getLogs found ${logs.length} logs, not ${erc20.length}`)
  collect('chromium', `eth_getLogs over ${erc20.length} blocks by address (${logs.length} logs), p50`, p50(await call('latency', 'eth_getLogs', [filter], 20)), 'ms', 1)
  const block = (await call('request', 'eth_getBlockByNumber', [`0x${Math.floor(erc20.length / 2).toString(16)}`, false])) as { transactions: string[] }
  const trace = [block.transactions[0], { tracer: 'callTracer' }]
  collect('chromium', 'debug_traceTransaction (callTracer) of an ERC-20 transfer, p50', p50(await call('latency', 'debug_traceTransaction', trace, 50)), 'ms', 1)
  await call('stop')
}

/** Page script to first answer: an empty chain (deleted before each run), then the warm chain. */
async function startTimes(page: Page, origin: string, runs: number, collect: Collector) {
  const startOnce = async (name: string) => {
    await page.goto(`${origin}/start.html?name=${name}`)
    const result = await page.evaluate(() => window.__start!)
    return result
  }
  const harness = async () => {
    await page.goto(`${origin}/`)
    await page.waitForFunction(() => 'bench' in window)
  }
  const call: Call = (name, ...args) =>
    page.evaluate(([name, args]) => (window.bench[name] as (...a: unknown[]) => unknown)(...args), [name, args] as const) as never
  const samples = Math.max(5, runs * 2)

  // Not alternated: the service worker is registered for one chain name, and moving it to the
  // other chain at every start would time the move. The first start of each moves it: not counted.
  const cold: number[] = []
  for (let i = 0; i <= samples; i++) {
    await harness()
    await fresh(call, 'bench-cold')
    const { toFirstAnswer, blockNumber } = await startOnce('bench-cold')
    if (blockNumber !== '0x0') throw new Error(`the cold chain is at ${blockNumber}`)
    if (i > 0) cold.push(toFirstAnswer)
  }
  const warm: number[] = []
  const stateRead: number[] = []
  let head = ''
  for (let i = 0; i <= samples; i++) {
    const { toFirstAnswer, blockNumber, firstStateRead } = await startOnce('bench-warm')
    head = blockNumber
    if (i === 0) continue
    warm.push(toFirstAnswer)
    stateRead.push(firstStateRead)
  }
  collect('chromium', 'cold start: page script to first answer (empty chain)', median(cold), 'ms', cold.length, cold)
  collect('chromium', `warm start with ${Number(head)} blocks persisted`, median(warm), 'ms', warm.length, warm)
  collect('chromium', '… then its first state read (eth_getBalance of an account untouched since genesis)', median(stateRead), 'ms', stateRead.length, stateRead)
  await harness()
}

/** Deletes a chain's database (its node was stopped, or its tab navigated away). */
async function fresh(call: Call, name: string) {
  await call('deleteDb', name)
}

const total = (sizes: Record<string, number>) => Object.values(sizes).reduce((a, b) => a + b, 0)

/** gzip -9 sizes of what the browser loads: the node worker (and its lazy chunks), the page client, the service worker (bundleSize.ts). */
function collectBundleSizes(collect: Collector) {
  const { startup, lazy, pageClientGzip, serviceWorkerGzip } = bundleSizes()
  const kb = (bytes: number) => bytes / 1024
  collect('bundle', `worker, gzip (startup chunk${startup.files.length > 1 ? `s: ${startup.files.length} files` : ''})`, kb(startup.gzip), 'KB', 1)
  collect('bundle', `worker, gzip, lazy chunks loaded after start or on first use (${lazy.names.join(', ') || 'none'})`, kb(lazy.gzip), 'KB', 1)
  collect('bundle', 'page client, gzip', kb(pageClientGzip), 'KB', 1)
  collect('bundle', 'service worker, gzip', kb(serviceWorkerGzip), 'KB', 1)
  collect('bundle', 'worker, minified (startup chunk)', kb(startup.minified), 'KB', 1)
}

/**
 * V8's own figure for the node worker's heap after a full GC, through the DevTools protocol
 * (performance.measureUserAgentSpecificMemory() after gc() hung in one full run out of a few).
 * A figure of the report's targets: never left out silently. An attempt that gets no answer
 * within 20 s (a command the browser dropped, a session that never attached) is made again on a
 * new session; if three fail, the run fails, saying so.
 */
export async function nodeWorkerHeap(page: Page): Promise<number> {
  return (await nodeWorkerMemory(page)).usedSize
}

/** V8's figures for a heap after a full GC (Runtime.getHeapUsage): the JS heap, and the array buffers' backing stores outside it. */
export interface HeapUsage {
  usedSize: number
  embedderHeapUsedSize?: number
  backingStorageSize?: number
}

/** JS heap plus what V8 holds beside it (array buffers, embedder objects): what a heap costs the tab. */
export const heapBytes = (usage: HeapUsage): number => usage.usedSize + (usage.embedderHeapUsedSize ?? 0) + (usage.backingStorageSize ?? 0)

/** The page's own heap after a full GC. */
export async function pageMemory(page: Page): Promise<HeapUsage> {
  const session = await page.context().newCDPSession(page)
  try {
    await session.send('HeapProfiler.collectGarbage')
    return (await session.send('Runtime.getHeapUsage')) as HeapUsage
  } finally {
    await session.detach().catch(() => {})
  }
}

/** The node worker's heap after a full GC (see nodeWorkerHeap). */
export async function nodeWorkerMemory(page: Page): Promise<HeapUsage> {
  const failures: string[] = []
  for (let attempt = 1; attempt <= 3; attempt++) {
    const session = await page.context().newCDPSession(page)
    try {
      const heap = await withinSeconds(20, `the node worker heap (attempt ${attempt} of 3)`, async () => {
        // Every node worker the page lists: one it terminated may still be listed, and never answers.
        const workers = await attachToWorkers(session, 'nodeWorker')
        const answers = await Promise.all(
          workers.map((worker) =>
            withinSeconds(10, 'a node worker of the page', async () => {
              await worker.send('HeapProfiler.collectGarbage')
              return await worker.send<HeapUsage>('Runtime.getHeapUsage')
            }, 'left out: it does not answer'),
          ),
        )
        const live = answers.filter((answer): answer is HeapUsage => answer !== undefined)
        // Node workers that answer are all the tab's memory (one, unless a stopped node's lingers).
        return live.length === 0
          ? undefined
          : live.reduce((sum, usage) => ({
              usedSize: sum.usedSize + usage.usedSize,
              embedderHeapUsedSize: (sum.embedderHeapUsedSize ?? 0) + (usage.embedderHeapUsedSize ?? 0),
              backingStorageSize: (sum.backingStorageSize ?? 0) + (usage.backingStorageSize ?? 0),
            }))
      }, attempt < 3 ? 'trying again' : 'giving up')
      if (heap !== undefined) return heap
      failures.push(`attempt ${attempt}: no answer within 20 s`)
    } catch (error) {
      failures.push(`attempt ${attempt}: ${(error as Error).message}`)
    } finally {
      // Not awaited past a few seconds: a detach that hangs must not hang the bench either.
      await withinSeconds(5, 'detaching the DevTools session', () => session.detach().catch(() => {}), 'going on')
    }
  }
  // Which workers the page runs, and the node's role there: a page whose node is a follower (another
  // page's worker still held the chain) runs no node worker to measure.
  const workers = page.workers().map((worker) => worker.url().replace(/^.*\//, ''))
  const role = await page.evaluate(() => window.bench.role()).catch((error: Error) => `unknown (${error.message})`)
  throw new Error(
    `the node worker's heap could not be measured (${failures.join('; ')}; the page's workers: ${workers.join(', ') || 'none'}; the node's role: ${role}): the bench fails rather than report it as n/a`,
  )
}

/** `work`'s result, or undefined (and a warning) if it takes longer than `seconds`. */
async function withinSeconds<T>(seconds: number, what: string, work: () => Promise<T>, then = 'left out of this run'): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`${what}: no answer within ${seconds} s, ${then}`)
      resolve(undefined)
    }, seconds * 1000)
  })
  try {
    return await Promise.race([work(), late])
  } finally {
    clearTimeout(timer)
  }
}
