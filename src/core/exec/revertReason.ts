import { bytesToBigInt, bytesToUtf8, hexToBytes, intToBytes, setLengthLeft, utf8ToBytes } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'

const ERROR_SELECTOR = '0x08c379a0'
const PANIC_SELECTOR = '0x4e487b71'

/** Solidity's panic codes, worded as geth words them. */
const PANIC_REASONS: Record<string, string> = {
  '0': 'generic panic',
  '1': 'assert(false)',
  '17': 'arithmetic underflow or overflow',
  '18': 'division or modulo by zero',
  '33': 'enum overflow',
  '34': 'invalid encoded storage byte array accessed',
  '49': 'out-of-bounds array access; popping on an empty array',
  '50': 'out-of-bounds access of an array or bytesN',
  '65': 'out of memory',
  '81': 'uninitialized function',
}

/**
 * The human reason inside revert data: Error(string) gives its message, Panic(uint256) its
 * meaning; custom errors and bare reverts give undefined (their raw bytes stay in `data`).
 */
export function decodeRevertReason(data: Uint8Array): string | undefined {
  const message = errorStringOf(data)
  if (message !== undefined) return message
  const code = panicCodeOf(data)
  return code === undefined ? undefined : (PANIC_REASONS[code.toString()] ?? `unknown panic code: 0x${code.toString(16)}`)
}

/** The message of Error(string) revert data; undefined for anything else or a malformed one. */
export function errorStringOf(data: Uint8Array): string | undefined {
  if (data.length < 4 + 64 || bytesToHex(data.subarray(0, 4)) !== ERROR_SELECTOR) return undefined
  try {
    const start = 4 + Number(bytesToBigInt(data.subarray(4, 36)))
    const length = Number(bytesToBigInt(data.subarray(start, start + 32)))
    if (start + 32 + length > data.length) return undefined
    return bytesToUtf8(data.subarray(start + 32, start + 32 + length))
  } catch {
    return undefined
  }
}

/** The code of Panic(uint256) revert data; undefined for anything else. */
export function panicCodeOf(data: Uint8Array): bigint | undefined {
  if (data.length !== 4 + 32 || bytesToHex(data.subarray(0, 4)) !== PANIC_SELECTOR) return undefined
  return bytesToBigInt(data.subarray(4))
}

/** Error(string) revert data for `message`, as Solidity's revert("…") encodes it (errorStringOf reads it). */
export function errorStringData(message: string): Uint8Array {
  const text = utf8ToBytes(message)
  const padded = Math.ceil(text.length / 32) * 32
  const data = new Uint8Array(4 + 64 + padded)
  data.set(hexToBytes(ERROR_SELECTOR), 0)
  data.set(setLengthLeft(intToBytes(32), 32), 4)
  data.set(setLengthLeft(intToBytes(text.length), 32), 36)
  data.set(text, 68)
  return data
}
