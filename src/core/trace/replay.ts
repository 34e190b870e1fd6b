import { createBlock, type Block } from '@ethereumjs/block'
import { isAccessList2930Tx, isEOACode7702Tx, isFeeMarket1559Tx, type TypedTransaction } from '@ethereumjs/tx'
import { eoaCode7702RecoverAuthority, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { runTx, type RunTxResult } from '@ethereumjs/vm'
import { captureConsole } from '../exec/console/capture.ts'
import { stateRootOf, type BlockRecord, type TransactionRecord } from '../chain/records.ts'
import type { BlockRef } from '../chain/chain.ts'
import { isPriced, runCall, type CallRequest, type StateOverrides } from '../exec/call.ts'
import { inCallSandbox } from '../exec/callSandbox.ts'
import { runFromAnySender } from '../exec/senderCode.ts'
import { runAsBootloader } from '../exec/bootloaderEntry.ts'
import type { Node } from '../node.ts'
import { InternalError } from '../errors.ts'
import type { Tracer, TraceTarget } from './tracer.ts'

const ZERO_ADDRESS: PrefixedHexString = `0x${'00'.repeat(20)}`

/** One traced transaction of a block, as debug_traceBlock* lists them. */
export interface BlockTraceEntry {
  txHash: PrefixedHexString
  result: unknown
}

/**
 * Traces every transaction of a mined block: the block is replayed on its parent's state, each
 * transaction after the ones before it, under the tracer.
 */
export async function traceBlock(node: Node, block: BlockRecord, tracer: Tracer, timeoutMs: number): Promise<BlockTraceEntry[]> {
  if (block.transactions.length === 0) return []
  return replay(node, block, block.transactions.length - 1, () => true, tracer, timeoutMs)
}

/** Traces a mined transaction: its block's earlier transactions replayed untraced first. */
export async function traceTransaction(node: Node, tx: TransactionRecord, tracer: Tracer, timeoutMs: number): Promise<unknown> {
  const block = node.chain.byNumber(tx.blockNumber)!
  const [entry] = await replay(node, block, tx.index, (index) => index === tx.index, tracer, timeoutMs)
  return entry.result
}

/**
 * Traces a call as eth_call runs it (inCallSandbox): on the state after the block `ref` names, in
 * the context of a call at that block, with geth's state overrides applied first. Like every
 * trace, it stops after `timeoutMs` (the trace config's `timeout`, else limits.evmTimeoutMs).
 */
export async function traceCall(
  node: Node,
  ref: BlockRef,
  request: CallRequest,
  overrides: StateOverrides | undefined,
  tracer: Tracer,
  timeoutMs: number,
): Promise<unknown> {
  return inCallSandbox(node, ref, request, overrides, async ({ vm, context, gas }) => {
    const target: TraceTarget = {
      gasLimit: gas,
      hash: undefined,
      index: 0,
      blockNumber: context.header.number,
      blockHash: undefined,
      from: request.from ?? ZERO_ADDRESS,
      to: request.to,
      coinbase: context.header.coinbase.toString(),
      accessList: request.accessList ?? [],
      authorities: () => [],
      lentGasPrice: isPriced(request) ? undefined : (context.header.baseFeePerGas ?? 0n),
    }
    const { value, lines } = await captureConsole(vm, () => tracer.run(vm, () => runCall(vm, context, request, gas), target, false))
    node.callPrinted('debug_traceCall', lines)
    return value.trace
  }, { ms: timeoutMs, wording: 'trace' })
}

/**
 * Replays `block` on its parent's state through transaction `last`, tracing those `traced`
 * picks. Each transaction runs in the block's own context (its number, time, base fee,
 * coinbase, PREVRANDAO), so a replay computes exactly what mining did; a gas figure that
 * differs from the receipt's means it did not, and is reported rather than served.
 */
async function replay(
  node: Node,
  block: BlockRecord,
  last: number,
  traced: (index: number) => boolean,
  tracer: Tracer,
  timeoutMs: number,
): Promise<BlockTraceEntry[]> {
  const parent = node.chain.byNumber(block.number - 1n)!
  const context = createBlock({ header: block.header.toJSON() }, { common: node.common })
  // The parent's state as the block was built on it: with the edits made while it was the head.
  const sandbox = await node.state.sandbox(stateRootOf(parent))
  // The whole replay within the time limit, as geth's tracer timeout covers a transaction's.
  return sandbox.runTimed(timeoutMs, 'trace', async (vm) => {
    const entries: BlockTraceEntry[] = []
    let blockGasUsed = 0n
    for (const record of block.transactions.slice(0, last + 1)) {
      const gasBefore = blockGasUsed
      const run = (tx: TypedTransaction) =>
        runFromAnySender(vm, tx.getSenderAddress(), () => runTx(vm, { tx, block: context, blockGasUsed: gasBefore, skipHardForkValidation: true }))
      // A paymaster's steps run around the traced transaction (exec/bootloader.ts): the trace is
      // of the transaction itself, its gas figure the receipt's.
      const execute = traced(record.index)
        ? async (tx: TypedTransaction) => {
            const traceRun = await tracer.run(vm, () => run(tx), minedTarget(record, block, context), record.index < last)
            entries.push({ txHash: record.hash, result: traceRun.trace })
            return traceRun.result
          }
        : run
      const result: RunTxResult = await runAsBootloader(vm, context, record, execute)
      if (result.totalGasSpent !== record.receipt.gasUsed) {
        throw new InternalError(
          `replaying block ${block.number} diverged at transaction ${record.hash}: it used ${result.totalGasSpent} gas, the receipt says ${record.receipt.gasUsed}`,
        )
      }
      blockGasUsed += result.totalGasSpent
    }
    return entries
  })
}

function minedTarget(record: TransactionRecord, block: BlockRecord, context: Block): TraceTarget {
  const tx = record.tx
  return {
    gasLimit: tx.gasLimit,
    hash: record.hash,
    index: record.index,
    blockNumber: block.number,
    blockHash: block.hash,
    from: record.from,
    to: tx.to?.toString(),
    coinbase: context.header.coinbase.toString(),
    accessList: accessListOf(tx),
    authorities: () => authoritiesOf(tx),
  }
}

function accessListOf(tx: TypedTransaction): TraceTarget['accessList'] {
  if (!isAccessList2930Tx(tx) && !isFeeMarket1559Tx(tx) && !isEOACode7702Tx(tx)) return []
  return tx.accessList.map(([address, keys]) => ({ address: bytesToHex(address), storageKeys: keys.map((key) => bytesToHex(key)) }))
}

function authoritiesOf(tx: TypedTransaction): PrefixedHexString[] {
  if (!isEOACode7702Tx(tx)) return []
  const authorities: PrefixedHexString[] = []
  for (const authorization of tx.authorizationList) {
    try {
      authorities.push(eoaCode7702RecoverAuthority(authorization).toString())
    } catch {
      // An invalid signature authorizes nothing; runTx skips it too.
    }
  }
  return authorities
}
