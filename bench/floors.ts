/**
 * The engine floor, shared by the Node and the Chromium halves: a bare @ethereumjs/vm runTx of
 * the same signed transactions the node is sent, one at a time on one block, on a MerkleStateManager
 * with caches over an in-memory trie (the engine as the reference measured it, none of our code
 * around it). Decoding and sender recovery are timed unless `preRecovered`.
 */
import { createBlock } from '@ethereumjs/block'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { createTxFromRLP } from '@ethereumjs/tx'
import { Account, createAddressFromString, hexToBytes, MapDB, type PrefixedHexString } from '@ethereumjs/util'
import { createVM, runTx } from '@ethereumjs/vm'
import { createChainCommon } from '../src/core/exec/chainCommon.ts'
import { CallTracer } from '../src/core/trace/callTracer.ts'
import type { TraceTarget } from '../src/core/trace/tracer.ts'

export const CHAIN_ID = 260
/** The first dev account (the default mnemonic's): every benchmark transaction comes from it. */
export const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
export const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
export const GAS_PRICE = 45_250_000n

/** 'node': the Common the node uses (its crypto); 'default': ethereumjs' own (pure-JS noble). */
export type FloorCrypto = 'node' | 'default'

export interface FloorOptions {
  preRecovered: boolean
  crypto: FloorCrypto
  /**
   * 'absent' (default): no tracing code ever ran on the VM. 'untraced': the node's callTracer
   * traced the first transaction (untimed) and detached, the rest run untraced. 'traced': every
   * transaction runs under the callTracer.
   */
  tracing?: 'absent' | 'untraced' | 'traced'
}

/** Milliseconds to run `raws` (after `setup`, untimed) on a fresh bare VM. */
export async function bareRunTx(setup: string[], raws: string[], options: FloorOptions): Promise<number> {
  const times = await bareRunTxTimes(setup, raws, options)
  // 'untraced' leaves the first transaction out of the timing: scaled to the whole list.
  return (times.reduce((sum, ms) => sum + ms, 0) * raws.length) / times.length
}

/** The milliseconds of each transaction of `raws` (after `setup`, untimed) on a fresh bare VM. */
export async function bareRunTxTimes(setup: string[], raws: string[], { preRecovered, crypto, tracing = 'absent' }: FloorOptions): Promise<number[]> {
  const common = createChainCommon(CHAIN_ID, { crypto: crypto === 'node' ? 'fast' : 'default' })
  const trie = new MerklePatriciaTrie({ db: new MapDB(), useKeyHashing: true, common, valueEncoding: 'view' })
  const stateManager = new MerkleStateManager({ common, trie, caches: new Caches() })
  const vm = await createVM({ common, stateManager })
  await stateManager.putAccount(createAddressFromString(FROM), new Account(0n, 10n ** 24n))
  const block = createBlock({ header: { number: 1n, baseFeePerGas: GAS_PRICE, gasLimit: 1n << 50n, timestamp: 1n } }, { common })
  const decode = (raw: string) => createTxFromRLP(hexToBytes(raw as PrefixedHexString), { common })
  for (const raw of setup) await runTx(vm, { tx: decode(raw), block, skipHardForkValidation: true })
  const tracer = new CallTracer({ onlyTopCall: false, withLog: true }, 'zksync')
  const run = async (tx: ReturnType<typeof decode>) => {
    const execute = () => runTx(vm, { tx, block, skipHardForkValidation: true })
    if (tracing === 'traced') await tracer.run(vm, execute, traceTarget(tx))
    else await execute()
  }
  let txs = raws
  if (tracing === 'untraced') {
    const first = decode(raws[0])
    await tracer.run(vm, () => runTx(vm, { tx: first, block, skipHardForkValidation: true }), traceTarget(first))
    txs = raws.slice(1)
  }
  const times: number[] = []
  if (preRecovered) {
    const decoded = txs.map(decode)
    for (const tx of decoded) tx.getSenderAddress()
    for (const tx of decoded) {
      const start = performance.now()
      await run(tx)
      times.push(performance.now() - start)
    }
    return times
  }
  for (const raw of txs) {
    const start = performance.now()
    await run(decode(raw))
    times.push(performance.now() - start)
  }
  return times
}

function traceTarget(tx: { gasLimit: bigint; to?: { toString(): string }; getSenderAddress(): { toString(): string } }): TraceTarget {
  return {
    gasLimit: tx.gasLimit,
    hash: undefined,
    index: 0,
    blockNumber: 1n,
    blockHash: undefined,
    from: tx.getSenderAddress().toString() as PrefixedHexString,
    to: tx.to?.toString() as PrefixedHexString | undefined,
    coinbase: `0x${'00'.repeat(20)}`,
    accessList: [],
    authorities: () => [],
  }
}
