import { bigIntToHex, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import { isCreate, type CallFrame, type CallKind, type FrameLog } from './callFrame.ts'
import { recordCalls, type CallRecorderOptions } from './callRecorder.ts'
import type { TracedRun, TraceStyle, Tracer, TraceTarget } from './tracer.ts'

/**
 * ZKsync's DebugCallType spelling (lowercase camel). ZKsync itself only has call, delegateCall
 * and create (EraVM has no other kinds); an EVM node has all of them, spelled the same way.
 */
export const ZKSYNC_CALL_TYPES: Record<CallKind, string> = {
  CALL: 'call',
  STATICCALL: 'staticCall',
  DELEGATECALL: 'delegateCall',
  CALLCODE: 'callCode',
  CREATE: 'create',
  CREATE2: 'create2',
  SELFDESTRUCT: 'selfDestruct',
}

/** geth's callLog. */
export interface CallLogJson {
  address: PrefixedHexString
  topics: PrefixedHexString[]
  data: PrefixedHexString
  position: PrefixedHexString
}

/** ZKsync's DebugCall: every key present, `null`/`[]` when empty (`logs` only with withLog). */
export interface DebugCall {
  type: string
  from: PrefixedHexString
  to: PrefixedHexString
  gas: PrefixedHexString
  gasUsed: PrefixedHexString
  value: PrefixedHexString
  output: PrefixedHexString
  input: PrefixedHexString
  error: string | null
  revertReason: string | null
  calls: DebugCall[]
  logs?: CallLogJson[]
}

/** geth's callTracer frame (eth/tracers/native/call.go): empty keys left out. */
export interface GethCallFrame {
  from: PrefixedHexString
  gas: PrefixedHexString
  gasUsed: PrefixedHexString
  to?: PrefixedHexString
  input: PrefixedHexString
  output?: PrefixedHexString
  error?: string
  revertReason?: string
  calls?: GethCallFrame[]
  logs?: CallLogJson[]
  value?: PrefixedHexString
  type: CallKind
}

function formatLog(log: FrameLog): CallLogJson {
  return { address: log.address, topics: log.topics, data: bytesToHex(log.data), position: bigIntToHex(BigInt(log.position)) }
}

export function toDebugCall(frame: CallFrame, withLog: boolean): DebugCall {
  const call: DebugCall = {
    type: ZKSYNC_CALL_TYPES[frame.kind],
    from: frame.from,
    to: frame.to,
    gas: bigIntToHex(frame.gas),
    gasUsed: bigIntToHex(frame.gasUsed),
    value: bigIntToHex(frame.value ?? 0n),
    output: bytesToHex(frame.output),
    input: bytesToHex(frame.input),
    error: frame.error ?? null,
    revertReason: frame.revertReason ?? null,
    calls: frame.calls.map((child) => toDebugCall(child, withLog)),
  }
  if (withLog) call.logs = frame.logs.map(formatLog)
  return call
}

export function toGethCallFrame(frame: CallFrame): GethCallFrame {
  // A failed CREATE made no contract: geth leaves `to` out.
  const failedCreate = frame.error !== undefined && isCreate(frame.kind)
  // geth keeps the output of a success and of a revert (the reason data); other failures have none.
  const keepOutput = (frame.error === undefined || frame.error === 'execution reverted') && frame.output.length > 0
  // Keys in geth's order, `type` last.
  return {
    from: frame.from,
    gas: bigIntToHex(frame.gas),
    gasUsed: bigIntToHex(frame.gasUsed),
    ...(failedCreate ? {} : { to: frame.to }),
    input: bytesToHex(frame.input),
    ...(keepOutput ? { output: bytesToHex(frame.output) } : {}),
    ...(frame.error !== undefined ? { error: frame.error } : {}),
    ...(frame.revertReason !== undefined ? { revertReason: frame.revertReason } : {}),
    ...(frame.calls.length > 0 ? { calls: frame.calls.map(toGethCallFrame) } : {}),
    ...(frame.logs.length > 0 ? { logs: frame.logs.map(formatLog) } : {}),
    ...(frame.value !== undefined ? { value: bigIntToHex(frame.value) } : {}),
    type: frame.kind,
  }
}

/** The call tree of a transaction: ZKsync's DebugCall or geth's callTracer frame. */
export class CallTracer implements Tracer {
  constructor(
    private readonly options: CallRecorderOptions,
    private readonly style: TraceStyle,
  ) {}

  async run(vm: VM, execute: () => Promise<RunTxResult>, target: TraceTarget): Promise<TracedRun> {
    const { result, root } = await recordCalls(vm, this.options, execute, target.gasLimit)
    return { result, trace: this.style === 'geth' ? toGethCallFrame(root) : toDebugCall(root, this.options.withLog) }
  }
}
