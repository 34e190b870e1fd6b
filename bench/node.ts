/**
 * The Node.js half of `npm run bench`: the core (createNode on the memory store) beside the
 * engine floor, a bare ethereumjs runTx of the same signed transactions, measured in the same run.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createNode, type Node } from '../src/core/node.ts'
import { bareRunTx, bareRunTxTimes, FROM } from './floors.ts'
import { median, p50, type Collector } from './report.ts'
import { token } from './transactions.ts'

export interface Lists {
  transfers: string[]
  deployment: { raw: string; address: string }
  erc20: string[]
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await work()
  return performance.now() - start
}

async function withNode<T>(work: (node: Node) => Promise<T>, config = {}): Promise<T> {
  const node = await createNode(config)
  try {
    return await work(node)
  } finally {
    await node.close()
  }
}

const send = (node: Node, raw: string) => node.request({ method: 'eth_sendRawTransaction', params: [raw] })

/** The milliseconds of each of `raws`, sent one by one, each awaited. */
async function sendEach(node: Node, raws: string[]): Promise<number[]> {
  const times: number[] = []
  for (const raw of raws) {
    const start = performance.now()
    await send(node, raw)
    times.push(performance.now() - start)
  }
  return times
}

const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length

async function sendWindowed(node: Node, raws: string[], inFlight: number): Promise<number> {
  return timed(async () => {
    let next = 0
    const lane = async () => {
      while (next < raws.length) await send(node, raws[next++])
    }
    await Promise.all(Array.from({ length: Math.min(inFlight, raws.length) }, lane))
  })
}

/** The package built from this tree, once per bench (scripts/build.ts): what the cold caller imports. */
let packageBuilt: Promise<unknown> | undefined

/**
 * tx/s of bench/coldCaller.mjs in a fresh process, on the package as built by this bench:
 * createNode, then `raws` awaited one by one.
 */
async function coldCaller(raws: string[]): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'pagenode-bench-'))
  try {
    await (packageBuilt ??= promisify(execFile)(process.execPath, ['--import', 'tsx', new URL('../scripts/build.ts', import.meta.url).pathname]))
    await writeFile(join(dir, 'raws.json'), JSON.stringify(raws))
    const script = new URL('./coldCaller.mjs', import.meta.url).pathname
    const { stdout } = await promisify(execFile)(process.execPath, [script, join(dir, 'raws.json')])
    return (JSON.parse(stdout) as { txPerSecond: number }).txPerSecond
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function samples(count: number, work: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 50; i++) await work()
  const times: number[] = []
  for (let i = 0; i < count; i++) times.push(await timed(work))
  return times
}

export async function runNodeBench(runs: number, collect: Collector, { transfers, deployment, erc20 }: Lists): Promise<void> {
  const thousand = transfers.slice(0, 1000)
  const rate = (count: number, ms: number) => (count / ms) * 1000
  for (let run = 0; run < runs; run++) {
    console.log(`node run ${run + 1}/${runs}`)
    const floorTimes = await bareRunTxTimes([], thousand, { preRecovered: false, crypto: 'node' })
    collect('node', 'floor: bare runTx of the 1,000 signed transfers', rate(1000, floorTimes.reduce((sum, ms) => sum + ms, 0)), 'tx/s')
    collect('node', 'floor: the same, per transfer: median', median(floorTimes), 'ms')
    collect('node', 'floor: bare runTx, the same 1,000 with senders pre-recovered', rate(1000, await bareRunTx([], thousand, { preRecovered: true, crypto: 'node' })), 'tx/s')
    collect('node', 'reference: bare runTx of the 1,000, ethereumjs default crypto (pure-JS noble)', rate(1000, await bareRunTx([], thousand, { preRecovered: false, crypto: 'default' })), 'tx/s')
    const erc20Floor = (tracing: 'absent' | 'untraced' | 'traced') =>
      bareRunTx([deployment.raw], erc20, { preRecovered: true, crypto: 'node', tracing }).then((ms) => rate(erc20.length, ms))
    // The two are compared with each other (a ≤ 5% target), and one 300-transaction pass lasts
    // ~0.3 s, within reach of one GC or one busy moment of the VM: one pass each read anywhere
    // from −35% to +29%. So: an untimed pass first (the JIT, the garbage of the floors above),
    // then five of each, alternated, and the median of each.
    await erc20Floor('absent')
    const absent: number[] = []
    const untraced: number[] = []
    for (let i = 0; i < 5; i++) {
      absent.push(await erc20Floor('absent'))
      untraced.push(await erc20Floor('untraced'))
    }
    collect('node', 'floor: bare runTx of the 300 ERC-20 transfers (senders pre-recovered), tracing code absent', median(absent), 'tx/s')
    collect('node', 'the same, untraced after the callTracer traced one (tracing code loaded and detached)', median(untraced), 'tx/s')
    collect('node', 'the same, every transaction under the callTracer', await erc20Floor('traced'), 'tx/s')

    collect('node', 'createNode (10 funded dev accounts, genesis)', await timed(async () => (await createNode()).close()), 'ms')
    // Everything above ran in this process, where the WebAssembly crypto was loaded first.
    collect('node', 'a cold process: createNode, then the 1,000 transfers awaited one by one', await coldCaller(thousand), 'tx/s')
    await withNode(async (node) => {
      // Each transfer timed: the tail (GC pauses, a commit's or a batch's extra work) shows as
      // the mean above the median.
      const times = await sendEach(node, thousand)
      collect('node', 'Node core, memory store, 1,000 transfers one by one', rate(1000, times.reduce((sum, ms) => sum + ms, 0)), 'tx/s')
      collect('node', 'the same, per transfer: median', median(times), 'ms')
      collect('node', 'the same, per transfer: mean', mean(times), 'ms')
      collect('node', 'the same, per transfer: mean / median', mean(times) / median(times), '×')
      collect('node', 'eth_getBalance p50', p50(await samples(2000, () => node.request({ method: 'eth_getBalance', params: [FROM, 'latest'] }))), 'ms')
    })
    await withNode(async (node) => {
      collect('node', '1,000 transfers, 50 in flight', rate(1000, await sendWindowed(node, thousand, 50)), 'tx/s')
    })
    await withNode(async (node) => {
      await send(node, deployment.raw)
      collect('node', '300 ERC-20 transfers, one by one', rate(erc20.length, await sendWindowed(node, erc20, 1)), 'tx/s')
      const call = { to: deployment.address, data: token.encodeFunctionData('balanceOf', [FROM]) }
      collect('node', 'eth_call ERC-20 balanceOf p50', p50(await samples(1000, () => node.request({ method: 'eth_call', params: [call, 'latest'] }))), 'ms')
    })
    await withNode(
      async (node) => {
        const ms = await timed(async () => {
          for (const raw of transfers) await send(node, raw)
          await node.miner.mine()
        })
        collect('node', '2,000 transfers into one block (manual mining)', rate(transfers.length, ms), 'tx/s')
      },
      { mining: { mode: 'manual' } },
    )
  }
}
