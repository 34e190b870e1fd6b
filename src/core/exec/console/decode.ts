import { bytesToHex } from '../../hexText.ts'
import { consoleTypesOf, type ConsoleType } from './signatures.ts'

const WORD = 32

/**
 * A console call's calldata as the strings Hardhat makes of its arguments (numbers in decimal,
 * booleans as `true`/`false`, addresses and bytes as lowercase hex, strings as UTF-8), or
 * undefined when the selector is none of console.sol's or the arguments do not decode.
 */
export function decodeConsoleCall(calldata: Uint8Array): string[] | undefined {
  if (calldata.length < 4) return undefined
  const selector = ((calldata[0] << 24) | (calldata[1] << 16) | (calldata[2] << 8) | calldata[3]) >>> 0
  const types = consoleTypesOf(selector)
  if (!types) return undefined
  const data = calldata.subarray(4)
  if (data.length < types.length * WORD) return undefined
  const values: string[] = []
  for (const [i, type] of types.entries()) {
    const value = decodeArgument(data, i * WORD, type)
    if (value === undefined) return undefined
    values.push(value)
  }
  return values
}

function decodeArgument(data: Uint8Array, at: number, type: ConsoleType): string | undefined {
  const word = data.subarray(at, at + WORD)
  switch (type) {
    case 'uint256':
      return wordToBigInt(word).toString()
    case 'int256': {
      const unsigned = wordToBigInt(word)
      return (unsigned >= 1n << 255n ? unsigned - (1n << 256n) : unsigned).toString()
    }
    case 'bool':
      return word[31] !== 0 ? 'true' : 'false'
    case 'address':
      return bytesToHex(word.subarray(12))
    case 'string':
    case 'bytes': {
      const bytes = dynamic(data, word)
      if (!bytes) return undefined
      return type === 'string' ? new TextDecoder().decode(bytes) : bytesToHex(bytes)
    }
    default:
      return bytesToHex(word.subarray(0, Number(type.slice(5))))
  }
}

/** A `string`/`bytes` argument: its head word is the offset of its length and bytes. */
function dynamic(data: Uint8Array, head: Uint8Array): Uint8Array | undefined {
  const offset = wordToBigInt(head)
  if (offset + BigInt(WORD) > BigInt(data.length)) return undefined
  const start = Number(offset)
  const length = wordToBigInt(data.subarray(start, start + WORD))
  if (BigInt(start + WORD) + length > BigInt(data.length)) return undefined
  return data.subarray(start + WORD, start + WORD + Number(length))
}

function wordToBigInt(word: Uint8Array): bigint {
  let value = 0n
  for (const byte of word) value = (value << 8n) | BigInt(byte)
  return value
}
