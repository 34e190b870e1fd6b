/**
 * Node.js benchmarks of the core (the browser half arrives with the worker runtime). Each
 * workload runs RUNS times on a fresh node; the table reports medians, each beside the floor
 * measured in the same run (a bare ethereumjs runTx of the same signed transactions), so ratios
 * hold on a noisy machine.
 *
 *   npm run bench            # writes bench/results/<date>.json and bench/RESULTS.md
 */
import { writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { createTxFromRLP } from '@ethereumjs/tx'
import { Account, createAddressFromString, hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { runTx } from '@ethereumjs/vm'
import { createBlock } from '@ethereumjs/block'
import { Interface, Transaction, Wallet } from 'ethers'
import { createNode, type Node } from '../src/core/index.ts'
import { createChainCommon } from '../src/core/exec/chainCommon.ts'
import { StateMachine } from '../src/core/exec/stateMachine.ts'
import { TrieNodeStore } from '../src/core/exec/trieNodeStore.ts'
import artifacts from '../test/contracts/artifacts.json' with { type: 'json' }

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const GAS_PRICE = 45_250_000n
const wallet = new Wallet(KEY)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]

/** Signed raw transactions, made before timing starts (signing is the client's cost, not ours). */
async function signAll(count: number, make: (nonce: number) => Partial<Transaction> & Record<string, unknown>, firstNonce = 0) {
  const raws: string[] = []
  for (let i = 0; i < count; i++) {
    raws.push(await wallet.signTransaction({ type: 2, chainId: 260, maxFeePerGas: GAS_PRICE, maxPriorityFeePerGas: 0n, nonce: firstNonce + i, ...make(firstNonce + i) } as never))
  }
  return raws
}

const transfer = (i: number) => ({ to: `0x${(0x1000 + i).toString(16).padStart(40, '0')}`, value: 1n, gasLimit: 21_000n })

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await work()
  return performance.now() - start
}

/** Floor: a bare VM running the same transactions one by one, senders already recovered. */
async function floorRunTx(raws: string[]): Promise<number> {
  const common = createChainCommon(260)
  const state = await StateMachine.create(common, new TrieNodeStore(), () => undefined)
  await state.vm.stateManager.putAccount(createAddressFromString(FROM), new Account(0n, 10n ** 24n))
  const block = createBlock({ header: { number: 1n, baseFeePerGas: GAS_PRICE, gasLimit: 1n << 50n, timestamp: 1n } }, { common })
  const txs = raws.map((raw) => createTxFromRLP(hexToBytes(raw as PrefixedHexString), { common }))
  for (const tx of txs) tx.getSenderAddress()
  const ms = await timed(async () => {
    for (const tx of txs) await runTx(state.vm, { tx, block, skipHardForkValidation: true })
  })
  return (txs.length / ms) * 1000
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

async function deployToken(node: Node): Promise<string> {
  const raw = await wallet.signTransaction({
    type: 2, chainId: 260, nonce: 0, maxFeePerGas: GAS_PRICE, maxPriorityFeePerGas: 0n, gasLimit: 2_000_000n,
    data: artifacts.Token.bytecode + new Interface(artifacts.Token.abi).encodeDeploy(['Bench', 'B', 10n ** 30n]).slice(2),
  })
  const hash = await send(node, raw)
  const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: string }
  return receipt.contractAddress
}

const token = new Interface(artifacts.Token.abi)

const workloads: Record<string, () => Promise<{ value: number; unit: string }>> = {
  'createNode (10 funded dev accounts, genesis)': async () => {
    const ms = await timed(async () => (await createNode()).close())
    return { value: ms, unit: 'ms' }
  },
  '1,000 signed transfers, one by one, automine': async () => {
    const raws = await signAll(1000, transfer)
    return withNode(async (node) => {
      const ms = await timed(async () => { for (const raw of raws) await send(node, raw) })
      return { value: (raws.length / ms) * 1000, unit: 'tx/s' }
    })
  },
  '1,000 signed transfers, 50 in flight, automine': async () => {
    const raws = await signAll(1000, transfer)
    return withNode(async (node) => {
      const ms = await timed(async () => {
        for (let i = 0; i < raws.length; i += 50) await Promise.all(raws.slice(i, i + 50).map((raw) => send(node, raw)))
      })
      return { value: (raws.length / ms) * 1000, unit: 'tx/s' }
    })
  },
  '300 ERC-20 transfers, one by one, automine': async () =>
    withNode(async (node) => {
      const address = await deployToken(node)
      const raws = await signAll(300, (i) => ({ to: address, gasLimit: 100_000n, data: token.encodeFunctionData('transfer', [`0x${(0x2000 + i).toString(16).padStart(40, '0')}`, 1n]) }), 1)
      const ms = await timed(async () => { for (const raw of raws) await send(node, raw) })
      return { value: (raws.length / ms) * 1000, unit: 'tx/s' }
    }),
  '2,000 transfers into one block (manual mining)': async () => {
    const raws = await signAll(2000, transfer)
    return withNode(async (node) => {
      const ms = await timed(async () => {
        for (const raw of raws) await send(node, raw)
        await node.miner.mine()
      })
      return { value: (raws.length / ms) * 1000, unit: 'tx/s' }
    }, { mining: { mode: 'manual' } })
  },
  'eth_getBalance p50': async () =>
    withNode(async (node) => {
      const samples: number[] = []
      for (let i = 0; i < 2000; i++) samples.push(await timed(() => node.request({ method: 'eth_getBalance', params: [FROM, 'latest'] })))
      return { value: percentile(samples, 50), unit: 'ms' }
    }),
  'eth_call ERC-20 balanceOf p50': async () =>
    withNode(async (node) => {
      const address = await deployToken(node)
      const data = token.encodeFunctionData('balanceOf', [FROM])
      const samples: number[] = []
      for (let i = 0; i < 1000; i++) samples.push(await timed(() => node.request({ method: 'eth_call', params: [{ to: address, data }, 'latest'] })))
      return { value: percentile(samples, 50), unit: 'ms' }
    }),
}

const results: Record<string, { median: number; unit: string; runs: number[] }> = {}
const floors: number[] = []
for (let run = 0; run < RUNS; run++) floors.push(await floorRunTx(await signAll(1000, transfer)))
results['floor: bare runTx of 1,000 signed transfers (senders pre-recovered)'] = { median: median(floors), unit: 'tx/s', runs: floors }
for (const [name, workload] of Object.entries(workloads)) {
  const runs: number[] = []
  let unit = ''
  for (let run = 0; run < RUNS; run++) {
    const outcome = await workload()
    runs.push(outcome.value)
    unit = outcome.unit
  }
  results[name] = { median: median(runs), unit, runs }
  console.log(`${name}: ${median(runs).toFixed(2)} ${unit}`)
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`
const date = new Date().toISOString().slice(0, 10)
writeFileSync(new URL(`./results/${date}.json`, import.meta.url), JSON.stringify({ date, machine, runs: RUNS, results }, null, 2) + '\n')
const floor = results['floor: bare runTx of 1,000 signed transfers (senders pre-recovered)'].median
const rows = Object.entries(results).map(([name, r]) => {
  const ratio = r.unit === 'tx/s' ? ` (${((r.median / floor) * 100).toFixed(0)}% of floor)` : ''
  return `| ${name} | ${r.median.toFixed(r.unit === 'ms' ? 3 : 0)} ${r.unit}${ratio} |`
})
writeFileSync(
  new URL('./RESULTS.md', import.meta.url),
  `# Benchmark results\n\n${date} · ${machine} · median of ${RUNS} runs · \`npm run bench\`\n\n| workload (Node.js, core) | median |\n|---|---|\n${rows.join('\n')}\n`,
)
console.log(`floor: ${floor.toFixed(0)} tx/s; wrote bench/results/${date}.json and bench/RESULTS.md`)
