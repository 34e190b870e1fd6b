import { bigIntToHex, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import { isCreate, type CallFrame } from './callFrame.ts'
import { recordCalls } from './callRecorder.ts'
import { ZKSYNC_CALL_TYPES } from './callTracer.ts'
import type { TracedRun, TraceStyle, Tracer, TraceTarget } from './tracer.ts'

const ZERO_HASH: PrefixedHexString = `0x${'00'.repeat(32)}`

/** ZKsync's DebugCallFlat (core/lib/types/src/debug_flat_call.rs). */
export interface ZksyncFlatCall {
  action: {
    callType: string
    from: PrefixedHexString
    to: PrefixedHexString
    gas: PrefixedHexString
    value: PrefixedHexString
    input: PrefixedHexString
  }
  result: { output: PrefixedHexString; gasUsed: PrefixedHexString } | null
  subtraces: number
  error: string | null
  traceAddress: number[]
  transactionPosition: number
  transactionHash: PrefixedHexString
  blockNumber: number
  blockHash: PrefixedHexString
  type: 'call'
}

/** geth's flatCallTracer entry (eth/tracers/native/call_flat.go), parity's trace format. */
export interface GethFlatCall {
  action: Record<string, PrefixedHexString | string>
  blockHash: PrefixedHexString | null
  blockNumber: number
  error?: string
  result?: Record<string, PrefixedHexString>
  subtraces: number
  traceAddress: number[]
  transactionHash: PrefixedHexString | null
  transactionPosition: number
  type: 'call' | 'create' | 'suicide'
}

export interface FlatCallTracerOptions {
  onlyTopCall: boolean
  /** geth: keep CALL/STATICCALL frames into precompiles, which parity traces leave out. */
  includePrecompiles: boolean
  /** geth: spell errors as parity does ("Reverted", "Out of gas", …). */
  convertParityErrors: boolean
}

/**
 * ZKsync's flattening (api_server web3/namespaces/debug.rs `flatten_call`): every entry is of
 * type "call" with the frame kind in `callType`; a failed frame has `result: null` and the
 * revert reason (or else the error) in `error`; trace addresses start with the transaction's
 * position in its block.
 */
function flattenZksync(frame: CallFrame, target: TraceTarget, traceAddress: number[], out: ZksyncFlatCall[]): void {
  const failure = frame.revertReason ?? frame.error
  out.push({
    action: {
      callType: ZKSYNC_CALL_TYPES[frame.kind],
      from: frame.from,
      to: frame.to,
      gas: bigIntToHex(frame.gas),
      value: bigIntToHex(frame.value ?? 0n),
      input: bytesToHex(frame.input),
    },
    result: failure === undefined ? { output: bytesToHex(frame.output), gasUsed: bigIntToHex(frame.gasUsed) } : null,
    subtraces: frame.calls.length,
    error: failure ?? null,
    traceAddress,
    transactionPosition: target.index,
    transactionHash: target.hash ?? ZERO_HASH,
    blockNumber: Number(target.blockNumber),
    blockHash: target.blockHash ?? ZERO_HASH,
    type: 'call',
  })
  frame.calls.forEach((child, i) => flattenZksync(child, target, [...traceAddress, i], out))
}

/** geth's `parityErrorMapping`. */
const PARITY_ERRORS: Record<string, string> = {
  'contract creation code storage out of gas': 'Out of gas',
  'out of gas': 'Out of gas',
  'gas uint64 overflow': 'Out of gas',
  'max code size exceeded': 'Out of gas',
  'invalid jump destination': 'Bad jump destination',
  'execution reverted': 'Reverted',
  'return data out of bounds': 'Out of bounds',
  'stack limit reached 1024 (1023)': 'Out of stack',
  'precompiled failed': 'Built-in failed',
  'invalid input length': 'Built-in failed',
}

function parityError(error: string): string {
  if (error in PARITY_ERRORS) return PARITY_ERRORS[error]
  if (error.startsWith('invalid opcode')) return 'Bad instruction'
  if (error.startsWith('stack underflow')) return 'Stack underflow'
  return error
}

function flattenGeth(frame: CallFrame, target: TraceTarget, traceAddress: number[], options: FlatCallTracerOptions, out: GethFlatCall[]): void {
  const children = options.includePrecompiles
    ? frame.calls
    : frame.calls.filter((call) => !(call.precompile && (call.kind === 'CALL' || call.kind === 'STATICCALL')))
  let type: GethFlatCall['type']
  let action: GethFlatCall['action']
  let result: GethFlatCall['result']
  const value = bigIntToHex(frame.value ?? 0n)
  if (isCreate(frame.kind)) {
    type = 'create'
    action = { creationMethod: frame.kind.toLowerCase(), from: frame.from, gas: bigIntToHex(frame.gas), init: bytesToHex(frame.input), value }
    result = {
      ...(frame.error === undefined ? { address: frame.to } : {}),
      code: bytesToHex(frame.output),
      gasUsed: bigIntToHex(frame.gasUsed),
    }
  } else if (frame.kind === 'SELFDESTRUCT') {
    type = 'suicide'
    action = { address: frame.from, balance: value, refundAddress: frame.to }
  } else {
    type = 'call'
    action = { callType: frame.kind.toLowerCase(), from: frame.from, gas: bigIntToHex(frame.gas), input: bytesToHex(frame.input), to: frame.to, value }
    result = { gasUsed: bigIntToHex(frame.gasUsed), output: bytesToHex(frame.output) }
  }
  // A revert's output is its reason; any other failure has no result worth showing.
  if (frame.error !== undefined && frame.error !== 'execution reverted') result = undefined
  const error = frame.error === undefined ? undefined : options.convertParityErrors ? parityError(frame.error) : frame.error
  out.push({
    action,
    blockHash: target.blockHash ?? null,
    blockNumber: Number(target.blockNumber),
    ...(error !== undefined ? { error } : {}),
    ...(result !== undefined ? { result } : {}),
    subtraces: children.length,
    traceAddress,
    transactionHash: target.hash ?? null,
    transactionPosition: target.index,
    type,
  })
  children.forEach((child, i) => flattenGeth(child, target, [...traceAddress, i], options, out))
}

/** The call tree as a flat, parity-style list: ZKsync's shape or geth's. */
export class FlatCallTracer implements Tracer {
  constructor(
    private readonly options: FlatCallTracerOptions,
    private readonly style: TraceStyle,
  ) {}

  async run(vm: VM, execute: () => Promise<RunTxResult>, target: TraceTarget): Promise<TracedRun> {
    const { result, root } = await recordCalls(vm, { onlyTopCall: this.options.onlyTopCall, withLog: false }, execute, target.gasLimit)
    if (this.style === 'geth') {
      const flat: GethFlatCall[] = []
      flattenGeth(root, target, [], this.options, flat)
      return { result, trace: flat }
    }
    const flat: ZksyncFlatCall[] = []
    flattenZksync(root, target, [target.index], flat)
    return { result, trace: flat }
  }
}
