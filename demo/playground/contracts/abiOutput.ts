/**
 * ABI values back to text: function results, event arguments and revert reasons, decoded with
 * the contract's ABI (plus the system contracts' events a transaction may emit).
 */
import { decodeErrorResult, decodeEventLog, type Abi, type AbiParameter, type Hex } from 'viem'

/** ZKsync's L1Messenger (0x…8008) event: what a `sendToL1` leaves in the receipt's logs. */
export const SYSTEM_EVENTS: Abi = [
  {
    type: 'event',
    name: 'L1MessageSent',
    inputs: [
      { name: '_sender', type: 'address', indexed: true },
      { name: '_hash', type: 'bytes32', indexed: true },
      { name: '_message', type: 'bytes', indexed: false },
    ],
  },
]

/** Solidity's Panic(uint256) codes (the language documentation's list). */
const PANIC_REASONS: Record<number, string> = {
  0x01: 'assertion failed',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division or modulo by zero',
  0x21: 'conversion to an enum out of range',
  0x22: 'incorrectly encoded storage byte array',
  0x31: 'pop() on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'too much memory allocated',
  0x51: 'call to a zero-initialised internal function',
}

/** A decoded value as text: integers in decimal, nested values as JSON (bigints as strings). */
export function formatValue(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return String(value)
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
}

export interface NamedValue {
  name: string
  type: string
  value: string
}

/** viem returns one output bare and several as an array: both as a list of named values. */
export function namedOutputs(outputs: readonly AbiParameter[], decoded: unknown): NamedValue[] {
  const values = outputs.length === 1 ? [decoded] : (decoded as unknown[])
  return outputs.map((output, index) => ({ name: output.name || (outputs.length === 1 ? '' : `[${index}]`), type: output.type, value: formatValue(values[index]) }))
}

export interface DecodedEvent {
  address: string
  /** `Transfer(from: 0x…, to: 0x…, value: 5)`, or undefined when no ABI knows the event. */
  text?: string
  name?: string
  topics: Hex[]
  data: Hex
}

export function decodeLog(abi: Abi, log: { address: string; topics: Hex[]; data: Hex }): DecodedEvent {
  for (const candidate of [abi, SYSTEM_EVENTS]) {
    try {
      const event = decodeEventLog({ abi: candidate, topics: log.topics as [Hex, ...Hex[]], data: log.data })
      const item = candidate.find((entry) => entry.type === 'event' && entry.name === event.eventName)
      const inputs = item && item.type === 'event' ? item.inputs : []
      const name = event.eventName ?? 'event'
      return { ...log, name, text: call(name, inputs, event.args) }
    } catch {
      // not this ABI's event: try the next, else show it raw
    }
  }
  return log
}

/**
 * Why a call reverted, from its revert data: Error(string)'s reason, Panic(code)'s meaning, or a
 * custom error of the ABI with its arguments. Undefined when there is no data to decode.
 */
export function revertReason(abi: Abi, data: unknown): string | undefined {
  if (typeof data !== 'string' || !data.startsWith('0x')) return undefined
  if (data === '0x') return 'reverted without a reason'
  try {
    const decoded = decodeErrorResult({ abi, data: data as Hex })
    if (decoded.errorName === 'Error') return String(decoded.args?.[0])
    if (decoded.errorName === 'Panic') {
      const code = Number(decoded.args?.[0])
      return `Panic(0x${code.toString(16).padStart(2, '0')}): ${PANIC_REASONS[code] ?? 'unknown panic code'}`
    }
    const inputs = decoded.abiItem && decoded.abiItem.type === 'error' ? decoded.abiItem.inputs : []
    return call(decoded.errorName, inputs, decoded.args)
  } catch {
    return `unknown error ${data.slice(0, 10)} (its selector is in no ABI the playground has)`
  }
}

/** `Name(a: 1, b: 0x…)`, from named or positional arguments. */
export function call(name: string, inputs: readonly AbiParameter[], args: unknown): string {
  const list = Array.isArray(args) ? args : inputs.map((input) => (args as Record<string, unknown> | undefined)?.[input.name ?? ''])
  const parts = inputs.map((input, index) => `${input.name ? `${input.name}: ` : ''}${formatValue(list[index])}`)
  return `${name}(${parts.join(', ')})`
}
