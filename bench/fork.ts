/**
 * Forking a live chain (issue 23), in Node.js: part of `npm run bench` (its table goes into
 * docs/benchmarks.md), or alone: `npx tsx bench/fork.ts` (prints the table).
 *
 * The upstream is a pagenode CLI on loopback, seeded with an ERC-20, behind a counting proxy that
 * adds 50 ms to every answer (test/support/forkUpstream.ts): what a fork costs is upstream round
 * trips, and each one costs the latency. Figures: a first balanceOf on the forked token (round
 * trips, time), the same call warm beside a local call (a chain that deployed the token itself),
 * a forked transfer cold and warm, a block before the fork point cold and warm, and a restart on
 * the same store with the upstream down.
 */
import { pathToFileURL } from 'node:url'
import { Interface, type InterfaceAbi } from 'ethers'
import { createNode, type Node } from '../src/core/node.ts'
import { MemoryStore } from '../src/core/store/memoryStore.ts'
import artifacts from '../test/contracts/artifacts.json' with { type: 'json' }
import { DEV_ACCOUNTS } from '../test/support/accounts.ts'
import { startForkUpstream, type ForkUpstream } from '../test/support/forkUpstream.ts'

const LATENCY_MS = 50
const WARM_RUNS = 500
const TRANSFER_RUNS = 30
const token = new Interface(artifacts.Token.abi as InterfaceAbi)
const [holder, receiver, other] = [DEV_ACCOUNTS[1].address, DEV_ACCOUNTS[2].address, DEV_ACCOUNTS[3].address]

export interface ForkRow {
  figure: string
  time: string
  roundTrips: string
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now()
  const value = await work()
  return { ms: performance.now() - start, value }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const balanceOf = (node: Node, at: string, who: string) =>
  node.request({ method: 'eth_call', params: [{ to: at, data: token.encodeFunctionData('balanceOf', [who]) }, 'latest'] })

const transfer = (node: Node, at: string, to: string) =>
  node.request({ method: 'eth_sendTransaction', params: [{ from: holder, to: at, data: token.encodeFunctionData('transfer', [to, 1n]) }] })

/** The figures, in the order of the table. */
export async function runForkBench(): Promise<ForkRow[]> {
  const rows: ForkRow[] = []
  const record = (upstream: ForkUpstream, figure: string, ms: number) => {
    rows.push({ figure, time: `${ms.toFixed(ms < 10 ? 3 : 1)} ms`, roundTrips: `${upstream.requests} (${upstream.calls.length} calls)` })
    upstream.resetCounts()
  }
  const upstream = await startForkUpstream({ delayMs: LATENCY_MS })
  try {
    const store = new MemoryStore()
    upstream.resetCounts()
    const started = await timed(() => createNode({ fork: { url: upstream.url }, store }))
    const node = started.value
    record(upstream, 'createNode with a fork (chain id and fork block, the 30 funded accounts)', started.ms)

    record(upstream, 'first balanceOf on the forked token (cold)', (await timed(() => balanceOf(node, upstream.token, holder))).ms)

    // The local reference: the same token deployed on a chain of its own, same call, same run,
    // the two measured in turns so that the machine's noise falls on both alike.
    const local = await createNode()
    const deployed = (await local.request({
      method: 'eth_sendTransaction',
      params: [{ from: DEV_ACCOUNTS[0].address, data: `${artifacts.Token.bytecode}${token.encodeDeploy(['Local', 'LCL', 10n ** 24n]).slice(2)}` }],
    })) as string
    const { contractAddress } = (await local.request({ method: 'eth_getTransactionReceipt', params: [deployed] })) as { contractAddress: string }
    await balanceOf(local, contractAddress, DEV_ACCOUNTS[0].address)
    const forkedTimes: number[] = []
    const localTimes: number[] = []
    for (let i = 0; i < WARM_RUNS; i++) {
      forkedTimes.push((await timed(() => balanceOf(node, upstream.token, holder))).ms)
      localTimes.push((await timed(() => balanceOf(local, contractAddress, DEV_ACCOUNTS[0].address))).ms)
    }
    const [forkedWarm, localWarm] = [median(forkedTimes), median(localTimes)]
    record(upstream, `the same call warm (median of ${WARM_RUNS})`, forkedWarm)
    rows.push({ figure: `balanceOf on a locally deployed token (median of ${WARM_RUNS})`, time: `${localWarm.toFixed(3)} ms`, roundTrips: '(no upstream)' })
    rows.push({ figure: 'forked warm / local', time: `${(forkedWarm / localWarm).toFixed(2)}×`, roundTrips: '' })

    record(upstream, 'forked ERC-20 transfer, cold (recipient never read)', (await timed(() => transfer(node, upstream.token, receiver))).ms)
    record(upstream, 'forked ERC-20 transfer to a third account (one new slot)', (await timed(() => transfer(node, upstream.token, other))).ms)
    // Warm, beside the same transfer on the local token (eth_sendTransaction: its gas estimated, then mined), in turns.
    await (local.request({ method: 'eth_sendTransaction', params: [{ from: DEV_ACCOUNTS[0].address, to: contractAddress, data: token.encodeFunctionData('transfer', [receiver, 1n]) }] }))
    const forkedTransfers: number[] = []
    const localTransfers: number[] = []
    for (let i = 0; i < TRANSFER_RUNS; i++) {
      forkedTransfers.push((await timed(() => transfer(node, upstream.token, receiver))).ms)
      localTransfers.push(
        (await timed(() => local.request({ method: 'eth_sendTransaction', params: [{ from: DEV_ACCOUNTS[0].address, to: contractAddress, data: token.encodeFunctionData('transfer', [receiver, 1n]) }] }))).ms,
      )
    }
    record(upstream, `forked ERC-20 transfer, warm (same sender and recipient, median of ${TRANSFER_RUNS})`, median(forkedTransfers))
    rows.push({ figure: `the same transfer on the locally deployed token (median of ${TRANSFER_RUNS})`, time: `${median(localTransfers).toFixed(3)} ms`, roundTrips: '(no upstream)' })
    // History before the fork point: the upstream's block 1 (the Token's deployment) with its transactions.
    const block1 = () => node.request({ method: 'eth_getBlockByNumber', params: ['0x1', true] })
    record(upstream, 'a block before the fork point, with its transactions (cold)', (await timed(block1)).ms)
    record(upstream, 'the same block warm', (await timed(block1)).ms)
    await local.close()
    await node.close()

    upstream.down = true
    const restarted = await timed(async () => {
      const again = await createNode({ store })
      await balanceOf(again, upstream.token, holder)
      return again
    })
    record(upstream, 'restart on the same store, upstream down: createNode + first balanceOf', restarted.ms)
    await restarted.value.close()
  } finally {
    await upstream.close()
  }
  return rows
}

/** What the figures were measured against. */
export const FORK_SETTING = `Node.js ${process.version}, ${LATENCY_MS} ms added to each upstream answer (a pagenode CLI on loopback behind a counting proxy)`

/** The figures as a Markdown table. */
export function forkTable(rows: ForkRow[]): string {
  return ['| figure | time | upstream round trips (JSON-RPC calls) |', '|---|---|---|', ...rows.map(({ figure, time, roundTrips }) => `| ${figure} | ${time} | ${roundTrips} |`)].join('\n')
}

// Alone: prints the table.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const table = forkTable(await runForkBench())
  console.log(`${FORK_SETTING}\n\n${table}`)
}
