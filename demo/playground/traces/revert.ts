/**
 * What a revert says: Solidity's `Error(string)` (require/revert with a message), `Panic(uint256)`
 * (assert, overflow, division by zero… with the compiler's code), or a custom error, whose
 * selector is shown raw (the playground does not know the contract's ABI here).
 */
import { decodeErrorResult, parseAbi, type Hex } from 'viem'

/** The standard errors every Solidity contract can raise. */
const STANDARD_ERRORS = parseAbi(['error Error(string message)', 'error Panic(uint256 code)'])

/** Solidity's panic codes (docs: "Panic via assert and Error via require"). */
export const PANIC_MEANINGS: Record<number, string> = {
  0x00: 'generic compiler-inserted panic',
  0x01: 'assert(false): an assertion failed',
  0x11: 'arithmetic overflow or underflow outside an unchecked block',
  0x12: 'division or modulo by zero',
  0x21: 'conversion to an enum from a value out of range',
  0x22: 'access to an incorrectly encoded storage byte array',
  0x31: '.pop() on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'too much memory allocated, or an array too large',
  0x51: 'call to a zero-initialized internal function variable',
}

export type Revert =
  | { kind: 'error'; message: string }
  | { kind: 'panic'; code: bigint; meaning: string }
  | { kind: 'custom'; selector: Hex; data: Hex }
  | { kind: 'empty' }
  /** Bytes too short for a selector, or an Error/Panic selector whose arguments do not decode. */
  | { kind: 'raw'; data: Hex }

export function decodeRevert(data: string | null | undefined): Revert {
  if (data === null || data === undefined || data === '0x' || data === '') return { kind: 'empty' }
  const hex = data.toLowerCase() as Hex
  if (!/^0x[0-9a-f]*$/.test(hex) || hex.length < 10) return { kind: 'raw', data: hex }
  try {
    const decoded = decodeErrorResult({ abi: STANDARD_ERRORS, data: hex })
    if (decoded.errorName === 'Error') return { kind: 'error', message: String(decoded.args[0]) }
    if (decoded.errorName === 'Panic') {
      const code = decoded.args[0] as bigint
      return { kind: 'panic', code, meaning: PANIC_MEANINGS[Number(code)] ?? 'unknown panic code' }
    }
  } catch {
    // Not Error or Panic (or their arguments are malformed): told apart below.
  }
  const selector = hex.slice(0, 10) as Hex
  if (selector === '0x08c379a0' || selector === '0x4e487b71') return { kind: 'raw', data: hex }
  return { kind: 'custom', selector, data: hex }
}

/** One line for a revert: `Error("nope")`, `Panic(0x11): arithmetic overflow…`, `custom error 0x…`. */
export function revertText(revert: Revert): string {
  switch (revert.kind) {
    case 'error':
      return `Error(${JSON.stringify(revert.message)})`
    case 'panic':
      return `Panic(0x${revert.code.toString(16).padStart(2, '0')}): ${revert.meaning}`
    case 'custom':
      return `custom error ${revert.selector} (${(revert.data.length - 10) / 2} bytes of arguments)`
    case 'empty':
      return 'no revert data'
    case 'raw':
      return `undecodable revert data (${(revert.data.length - 2) / 2} bytes)`
  }
}
