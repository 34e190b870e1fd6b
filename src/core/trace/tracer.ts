import type { PrefixedHexString } from '@ethereumjs/util'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import type { StructLoggerOptions } from './structLogger.ts'

/**
 * Which output the call tracers speak: ZKsync's DebugCall (every key present, lowercase camel
 * types) or geth's callTracer (uppercase types, empty keys omitted). With 'geth' a config
 * without `tracer` also gets geth's default, the struct logger.
 */
export type { TraceStyle } from '../config.ts'

export const TRACER_NAMES = ['callTracer', 'flatCallTracer', 'prestateTracer', '4byteTracer', 'noopTracer', 'muxTracer', 'structLogger'] as const
export type TracerName = (typeof TRACER_NAMES)[number]

/** The options of one tracer that a muxTracer may combine (any but another mux). */
export type SingleTracerOptions =
  | { tracer: 'callTracer'; onlyTopCall: boolean; withLog: boolean }
  | { tracer: 'flatCallTracer'; onlyTopCall: boolean; includePrecompiles: boolean; convertParityErrors: boolean }
  | { tracer: 'prestateTracer'; diffMode: boolean; disableCode: boolean; disableStorage: boolean }
  | { tracer: '4byteTracer' }
  | { tracer: 'noopTracer' }
  | ({ tracer: 'structLogger' } & StructLoggerOptions)

export type TracerOptions = SingleTracerOptions | { tracer: 'muxTracer'; tracers: SingleTracerOptions[] }

/** The transaction being traced and where it sits. A traced call has no hash and no block hash. */
export interface TraceTarget {
  /** The transaction's gas limit: the top frame's `gas`. */
  gasLimit: bigint
  hash: PrefixedHexString | undefined
  index: number
  blockNumber: bigint
  blockHash: PrefixedHexString | undefined
  from: PrefixedHexString
  to: PrefixedHexString | undefined
  coinbase: PrefixedHexString
  /** The transaction's EIP-2930 access list (those accounts count as touched). */
  accessList: { address: PrefixedHexString; storageKeys: PrefixedHexString[] }[]
  /** EIP-7702 authorities whose accounts the transaction changes (recovered on demand: ecrecover). */
  authorities(): PrefixedHexString[]
  /**
   * Set for an unpriced call: the node lent the sender its gas money at this price and the
   * unspent part came back as a refund (exec/call.ts), which is no balance change of the call's.
   */
  lentGasPrice?: bigint
}

export interface TracedRun {
  result: RunTxResult
  trace: unknown
}

/** One way of tracing a transaction. A tracer instance may trace many, one after the other. */
export interface Tracer {
  /**
   * Runs one transaction (`execute`, which may be called more than once) on `vm` under this
   * tracer. When `more` is set, transactions follow and the VM must afterwards hold the state
   * after this one, as if it had run untraced.
   */
  run(vm: VM, execute: () => Promise<RunTxResult>, target: TraceTarget, more: boolean): Promise<TracedRun>
}
