/**
 * Why a mined transaction failed: its receipt says only "status 0", so the reason comes from
 * replaying it (debug_traceTransaction's callTracer): the top frame's revert data, decoded
 * (`Error("…")`, a panic's meaning, a custom error's selector), or the engine's error (out of gas).
 */
import type { Hex, Session } from '../session.ts'
import { abiLibrary } from '../decoding/abiLibrary.ts'
import { decodeError } from '../decoding/decode.ts'
import { decodeRevert, revertText } from './revert.ts'

interface TopFrame {
  to?: Hex
  output?: Hex
  error?: string
}

export async function failureReason(session: Session, hash: Hex): Promise<string | undefined> {
  const frame = await session.request<TopFrame | null>('debug_traceTransaction', [hash, { tracer: 'callTracer' }])
  if (!frame) return undefined
  const revert = decodeRevert(frame.output)
  if (revert.kind === 'custom') return decodeError(abiLibrary.abisFor(frame.to), revert.data)?.text ?? revertText(revert)
  if (revert.kind !== 'empty') return revertText(revert)
  return frame.error
}
