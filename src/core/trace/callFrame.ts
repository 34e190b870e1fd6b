import type { PrefixedHexString } from '@ethereumjs/util'

/** What the EVM did to open a frame, in geth's opcode names. */
export type CallKind = 'CALL' | 'STATICCALL' | 'DELEGATECALL' | 'CALLCODE' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT'

/** A log emitted by a frame; `position` is the number of sub-calls the frame had made before it. */
export interface FrameLog {
  address: PrefixedHexString
  topics: PrefixedHexString[]
  data: Uint8Array
  position: number
}

/**
 * One call frame as the EVM ran it, independent of how it is printed: the call tracers format
 * it as ZKsync's DebugCall, geth's callTracer frame or a flat parity list.
 *
 * `from`/`to` are already geth's: for DELEGATECALL and CALLCODE `from` is the contract whose
 * storage is used and `to` the contract whose code runs. For a CREATE that failed `to` is the
 * address it would have had.
 */
export interface CallFrame {
  kind: CallKind
  from: PrefixedHexString
  to: PrefixedHexString
  gas: bigint
  gasUsed: bigint
  /** Undefined for STATICCALL, which carries no value (geth omits it). */
  value: bigint | undefined
  input: Uint8Array
  output: Uint8Array
  /** geth's wording ("execution reverted", "out of gas", …). */
  error?: string
  /** Decoded Error(string) / Panic(uint256) of a revert. */
  revertReason?: string
  calls: CallFrame[]
  logs: FrameLog[]
  /** The callee is a precompile (parity-style flat traces leave such calls out). */
  precompile: boolean
}

export const isCreate = (kind: CallKind) => kind === 'CREATE' || kind === 'CREATE2'

/**
 * geth drops the logs of a failed frame and of everything under it: they never reached the
 * chain (`clearFailedLogs` in eth/tracers/native/call.go).
 */
export function clearFailedLogs(frame: CallFrame, parentFailed = false): void {
  const failed = parentFailed || frame.error !== undefined
  if (failed) frame.logs = []
  for (const call of frame.calls) clearFailedLogs(call, failed)
}
