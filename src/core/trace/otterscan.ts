import { bigIntToHex, type PrefixedHexString } from '@ethereumjs/util'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import { bytesToHex } from '../hexText.ts'
import { isCreate, type CallFrame } from './callFrame.ts'
import { recordCalls } from './callRecorder.ts'
import type { TracedRun, Tracer, TraceTarget } from './tracer.ts'

/**
 * The Otterscan views of a transaction's call tree (ots_traceTransaction,
 * ots_getInternalOperations) and what the address index needs of it, each in anvil's shape.
 */

/** One entry of ots_traceTransaction: a call frame, depth first. */
export interface OtsTraceEntry {
  type: 'CALL' | 'STATICCALL' | 'DELEGATECALL' | 'CALLCODE'
  depth: number
  from: PrefixedHexString
  to: PrefixedHexString
  value: PrefixedHexString
  input: PrefixedHexString
  output: PrefixedHexString
}

/** ots_getInternalOperations' types (Otterscan's OperationType). */
export const OperationType = { transfer: 0, selfDestruct: 1, create: 2, create2: 3 } as const

export interface InternalOperation {
  type: (typeof OperationType)[keyof typeof OperationType]
  from: PrefixedHexString
  to: PrefixedHexString
  value: PrefixedHexString
}

/** What the address index keeps of a transaction: every address in its call tree, and the contracts it created. */
export interface TouchedAddresses {
  addresses: Set<PrefixedHexString>
  created: { address: PrefixedHexString; creator: PrefixedHexString }[]
}

function* walk(frame: CallFrame, depth = 0): Generator<[CallFrame, number]> {
  yield [frame, depth]
  for (const child of frame.calls) yield* walk(child, depth + 1)
}

/**
 * ots_traceTransaction as anvil answers it: the message calls (creations and self-destructs are
 * not listed), a DELEGATECALL with the value it inherits, a STATICCALL with 0.
 */
export function otsTraceEntries(root: CallFrame): OtsTraceEntry[] {
  const entries: OtsTraceEntry[] = []
  for (const [frame, depth] of walk(root)) {
    if (isCreate(frame.kind) || frame.kind === 'SELFDESTRUCT') continue
    entries.push({
      type: frame.kind,
      depth,
      from: frame.from,
      to: frame.to,
      value: bigIntToHex(frame.value ?? 0n),
      input: bytesToHex(frame.input),
      output: bytesToHex(frame.output),
    })
  }
  return entries
}

/**
 * ots_getInternalOperations as anvil answers it: value transfers by CALL, creations and
 * self-destructs anywhere in the tree, the top call included (a plain transfer is one).
 */
export function internalOperations(root: CallFrame): InternalOperation[] {
  const operations: InternalOperation[] = []
  for (const [frame] of walk(root)) {
    const value = frame.value ?? 0n
    let type: InternalOperation['type']
    if (frame.kind === 'SELFDESTRUCT') type = OperationType.selfDestruct
    else if (frame.kind === 'CREATE') type = OperationType.create
    else if (frame.kind === 'CREATE2') type = OperationType.create2
    else if (frame.kind === 'CALL' && value > 0n) type = OperationType.transfer
    else continue
    operations.push({ type, from: frame.from, to: frame.to, value: bigIntToHex(value) })
  }
  return operations
}

export function touchedAddresses(root: CallFrame): TouchedAddresses {
  const touched: TouchedAddresses = { addresses: new Set(), created: [] }
  for (const [frame] of walk(root)) {
    touched.addresses.add(frame.from)
    touched.addresses.add(frame.to)
    if (isCreate(frame.kind) && frame.error === undefined) touched.created.push({ address: frame.to, creator: frame.from })
  }
  return touched
}

/** A tracer answering `view` of the call tree. */
export class CallTreeView<T> implements Tracer {
  constructor(private readonly view: (root: CallFrame) => T) {}

  async run(vm: VM, execute: () => Promise<RunTxResult>, target: TraceTarget): Promise<TracedRun> {
    const { result, root } = await recordCalls(vm, { onlyTopCall: false, withLog: false }, execute, target.gasLimit)
    return { result, trace: this.view(root) }
  }
}

/** The return data of a failed transaction (ots_getTransactionError): its revert bytes. */
export class FailureOutput implements Tracer {
  async run(_vm: VM, execute: () => Promise<RunTxResult>): Promise<TracedRun> {
    const result = await execute()
    return { result, trace: result.execResult.exceptionError ? bytesToHex(result.execResult.returnValue) : '0x' }
  }
}
