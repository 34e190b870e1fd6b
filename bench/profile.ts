/**
 * `npm run bench:profile -- <workload>`: a CPU profile of the node worker (and the page) while
 * one Chromium workload runs, on the same built site, persistent profile and transactions as
 * `npm run bench`. Prints where the worker's time went (self time by function and by package,
 * idle included: time spent waiting on IndexedDB or the page) and writes .cpuprofile files that
 * Chrome DevTools opens.
 *
 * The worker is reached through the page's CDP session: Target.setAutoAttach (not flattened)
 * attaches to the page's dedicated workers, and Target.sendMessageToTarget carries the
 * Profiler commands to the node worker's session.
 *
 *   workloads: one (1,000 transfers one by one), flight (50 in flight), erc20 (300 one by one),
 *              erc20-flight (the same, 50 in flight), mine (2,000 into one block), call (eth_call balanceOf),
 *              warm (a warm start: a chain of PROFILE_WARM_BLOCKS ERC-20 blocks, default 10,000, loaded
 *              by a new node worker, profiled from its first line to its first answer),
 *              logs (eth_getLogs by address over such a chain, one log per block)
 *   PROFILE_NOBUILD=1   reuse the last profile build
 *   PROFILE_MEMORY=1    the chain in memory (persist: false): what the IndexedDB store costs is the difference
 *   PROFILE_OUT=dir     where the .cpuprofile files go (default: a temp folder)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type BrowserContext, type Page } from 'playwright'
import { build, preview } from 'vite'
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts'
import type { BenchApi } from './browser/main.ts'
import { attachToWorker } from './workerDebugger.ts'
import { FROM } from './floors.ts'
import { median, p50 } from './report.ts'
import { token, tokenDeployment, tokenTransfers, transfers } from './transactions.ts'

const CONFIG = fileURLToPath(new URL('./browser/vite.config.ts', import.meta.url))
// Its own build, not minified (function names in the profile), beside the bench's.
const BUILD = { outDir: join(tmpdir(), 'pagenode-profile-build'), minify: false, emptyOutDir: true }
const workload = process.argv[2] ?? 'one'
const out = process.env.PROFILE_OUT ?? mkdtempSync(join(tmpdir(), 'pagenode-profile-'))

type Call = <K extends keyof BenchApi>(name: K, ...args: Parameters<BenchApi[K]>) => Promise<Awaited<ReturnType<BenchApi[K]>>>

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

/** Self time (ms) per function and per package, idle and GC included. */
function summarize(profile: Profile, label: string): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<number, number>()
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = (profile.timeDeltas[i + 1] ?? 0) / 1000
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + delta)
  }
  const total = (profile.endTime - profile.startTime) / 1000
  const byFunction = new Map<string, number>()
  const byPackage = new Map<string, number>()
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame
    const file = url.replace(/^.*\/(node_modules\/)?/, '').replace(/\?.*$/, '')
    const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms)
    byPackage.set(packageOf(functionName, url), (byPackage.get(packageOf(functionName, url)) ?? 0) + ms)
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, ms]) => `${ms.toFixed(1).padStart(9)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
  console.log(`\n== ${label}: ${total.toFixed(0)} ms profiled ==\n-- by package (self) --\n${top(byPackage, 25).join('\n')}`)
  console.log(`-- by function (self) --\n${top(byFunction, 60).join('\n')}`)
}

/** Which package (or runtime bucket) a frame belongs to, from the built chunk's URL or name. */
function packageOf(functionName: string, url: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : `native ${functionName}`
  return url.replace(/^.*\/assets\//, '').replace(/-[\w-]{8}\.js$/, '')
}

async function main() {
  if (!process.env.PROFILE_NOBUILD) await build({ configFile: CONFIG, logLevel: 'warn', build: BUILD })
  const server = await preview({ configFile: CONFIG, logLevel: 'warn', build: BUILD, preview: { port: 0 } })
  const origin = server.resolvedUrls!.local[0].replace(/\/$/, '')
  const profileDir = mkdtempSync(join(tmpdir(), 'pagenode-profile-chrome-'))
  const context = await chromium.launchPersistentContext(profileDir, { executablePath: chromiumPath, headless: true, args: chromiumArgs })
  try {
    const page = await context.newPage()
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`))
    page.on('console', (message) => console.log(`page: ${message.text()}`))
    await page.goto(`${origin}/`)
    await page.waitForFunction(() => 'bench' in window)
    const call: Call = (name, ...args) =>
      page.evaluate(([name, args]) => (window.bench[name] as (...a: unknown[]) => unknown)(...args), [name, args] as const) as never

    const deployment = tokenDeployment()
    const erc20 = tokenTransfers(300, deployment.address)
    const raws = transfers(2000)
    // Warm-up, untimed, as in the bench: a node worker's JIT.
    await call('start', { name: 'profile-warmup', persist: false, serviceWorker: false })
    await call('sendInFlight', raws.slice(0, 300), 1)
    await call('stop')

    if (workload === 'warm') return await profileWarmStart(context, page, call, deployment)
    if (workload === 'logs') return await profileLogs(context, page, call, deployment)

    const name = `profile-${workload}`
    await call('deleteDb', name)
    await call('start', { name, serviceWorker: false, persist: process.env.PROFILE_MEMORY ? false : undefined, mining: workload === 'mine' ? { mode: 'manual' } : undefined })
    if (workload.startsWith('erc20') || workload === 'call') await call('request', 'eth_sendRawTransaction', [deployment.raw])
    const balanceOf = { to: deployment.address, data: token.encodeFunctionData('balanceOf', [FROM]) }
    // As in the bench: eth_call on the chain the 300 ERC-20 transfers built (a token with 300 holders).
    if (workload === 'call') await call('sendOneByOne', erc20)
    if (workload === 'call') await call('latency', 'eth_call', [balanceOf, 'latest'], 200)

    if (process.env.PROFILE_OFF) {
      const nodeWorker = page.workers().find((w) => w.url().includes('nodeWorker'))!
      await nodeWorker.evaluate(() => ((globalThis as { __probes?: unknown }).__probes = {}))
      console.log(`${workload} (no profiler): ${await run(call, workload, raws, erc20, balanceOf)}`)
      const probes = (await nodeWorker.evaluate(() => (globalThis as { __probes?: unknown }).__probes)) as Record<string, [number, number]>
      for (const [k, [ms, n]] of Object.entries(probes ?? {})) console.log(`${(ms / n).toFixed(3).padStart(8)} ms × ${String(n).padStart(5)} = ${ms.toFixed(0).padStart(6)} ms  ${k}`)
      return
    }
    await profiled(context, page, workload, async () => console.log(`${workload}: ${await run(call, workload, raws, erc20, balanceOf)}`))
    await call('stop')
  } finally {
    await context.close()
    await server.close()
    rmSync(profileDir, { recursive: true, force: true })
  }
}

/** Profiles the node worker and the page while `work` runs; writes both profiles and prints their summaries. */
async function profiled(context: BrowserContext, page: Page, label: string, work: () => Promise<void>): Promise<void> {
  const session = await context.newCDPSession(page)
  const worker = await attachToWorker(session, 'nodeWorker')
  await worker.send('Profiler.enable')
  await worker.send('Profiler.setSamplingInterval', { interval: 100 })
  await session.send('Profiler.enable')
  await session.send('Profiler.setSamplingInterval', { interval: 100 })
  await worker.send('Profiler.start')
  await session.send('Profiler.start')
  await work()
  const { profile } = await worker.send<{ profile: Profile }>('Profiler.stop')
  const { profile: pageProfile } = (await session.send('Profiler.stop')) as unknown as { profile: Profile }
  writeFileSync(join(out, `${label}-worker.cpuprofile`), JSON.stringify(profile))
  writeFileSync(join(out, `${label}-page.cpuprofile`), JSON.stringify(pageProfile))
  summarize(profile, 'node worker')
  summarize(pageProfile, 'page')
  console.log(`\nprofiles: ${out}`)
}

/** A started node on a new chain of PROFILE_WARM_BLOCKS blocks: the token's deployment, then one transfer (one log) each. */
async function buildErc20Chain(call: Call, deployment: { raw: string; address: string }): Promise<{ name: string; blocks: number }> {
  const blocks = Number(process.env.PROFILE_WARM_BLOCKS ?? 10_000)
  const name = `profile-warm-${blocks}`
  console.log(`building a chain of ${blocks} ERC-20 blocks…`)
  await call('deleteDb', name)
  await call('start', { name, serviceWorker: false })
  await call('request', 'eth_sendRawTransaction', [deployment.raw])
  await call('sendInFlight', tokenTransfers(blocks, deployment.address), 50)
  return { name, blocks }
}

/** eth_getLogs by address over the whole chain (as the bench asks it): unprofiled p50, then 5 calls profiled, page and worker. */
async function profileLogs(context: BrowserContext, page: Page, call: Call, deployment: { raw: string; address: string }) {
  const { blocks } = await buildErc20Chain(call, deployment)
  const filter = { fromBlock: '0x2', toBlock: `0x${(blocks + 1).toString(16)}`, address: deployment.address }
  console.log(`logs (no profiler): p50 ${p50(await call('latency', 'eth_getLogs', [filter], 20)).toFixed(2)} ms over ${blocks} blocks`)
  if (process.env.PROFILE_OFF) return await call('stop')
  await profiled(context, page, 'logs', async () =>
    console.log(`logs (profiled): p50 ${p50(await call('latency', 'eth_getLogs', [filter], 5)).toFixed(2)} ms`),
  )
  await call('stop')
}

/** Builds a chain of ERC-20 blocks, then profiles a new worker loading it. */
async function profileWarmStart(context: BrowserContext, page: Page, call: Call, deployment: { raw: string; address: string }) {
  const { name } = await buildErc20Chain(call, deployment)
  await call('stop')
  // Unprofiled first: starts of the warm chain and of an empty one, alternated (a noisy machine
  // shifts both), without the service worker; then one profiled warm start.
  const warm: number[] = []
  const empty: number[] = []
  for (let i = 0; i < 7; i++) {
    warm.push(await call('start', { name, serviceWorker: false }))
    await call('stop')
    await call('deleteDb', 'profile-warm-empty')
    empty.push(await call('start', { name: 'profile-warm-empty', serviceWorker: false }))
    await call('stop')
  }
  console.log(`unprofiled, median of 7: warm start ${median(warm).toFixed(0)} ms, empty chain ${median(empty).toFixed(0)} ms (${(median(warm) / median(empty)).toFixed(2)}×)`)
  const session = await context.newCDPSession(page)
  const attaching = attachToWorker(session, 'nodeWorker', true)
  const starting = call('start', { name, serviceWorker: false })
  const worker = await attaching
  await worker.send('Profiler.enable')
  await worker.send('Profiler.setSamplingInterval', { interval: 100 })
  await worker.send('Profiler.start')
  await worker.send('Runtime.runIfWaitingForDebugger')
  const ms = await starting
  const head = await call('request', 'eth_blockNumber', [])
  const { profile } = await worker.send<{ profile: Profile }>('Profiler.stop')
  console.log(`warm start (profiled, no service worker): ${ms.toFixed(0)} ms to a started node at block ${Number(head)}`)
  writeFileSync(join(out, 'warm-worker.cpuprofile'), JSON.stringify(profile))
  summarize(profile, 'node worker')
  console.log(`\nprofiles: ${out}`)
  await call('stop')
}

async function run(call: Call, what: string, raws: string[], erc20: string[], balanceOf: object): Promise<string> {
  const rate = (count: number, ms: number) => `${((count / ms) * 1000).toFixed(0)} tx/s (${(ms / count).toFixed(2)} ms/tx)`
  if (what === 'one') return rate(1000, await call('sendOneByOne', raws.slice(0, 1000)))
  if (what === 'flight') return rate(1000, await call('sendInFlight', raws.slice(0, 1000), 50))
  if (what === 'erc20') return rate(erc20.length, await call('sendOneByOne', erc20))
  if (what === 'erc20-flight') return rate(erc20.length, await call('sendInFlight', erc20, 50))
  if (what === 'mine') {
    const mined = await call('sendThenMine', raws, 50)
    return `${rate(raws.length, mined.ms)}, admission ${mined.admitMs.toFixed(0)} ms, ${mined.transactions} in the block`
  }
  if (what === 'call') return `p50 ${p50(await call('latency', 'eth_call', [balanceOf, 'latest'], 1000)).toFixed(3)} ms`
  throw new Error(`unknown workload ${what}`)
}

await main()
export type { Page }
