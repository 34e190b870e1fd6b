import { hexToBytes, setLengthLeft, type PrefixedHexString } from '@ethereumjs/util'
import { BLOCK_TAGS, type BlockRef, type BlockTag } from '../chain/blockRef.ts'
import { InvalidParamsError } from '../errors.ts'

/**
 * Declared parameter schemas. Each method lists its positional params once; `parseParams`
 * validates them in one place so the same bad input gets the same -32602 everywhere, naming
 * the argument and what was expected.
 */
export interface Param<T> {
  name: string
  optional: boolean
  /** Throws a ParamError (a plain message) when `value` does not fit. */
  parse(value: unknown): T
}

/** A failed check inside a schema; parseParams adds the position and the name. */
export class ParamError extends Error {}

export type ParamValues<P extends readonly Param<unknown>[]> = { [K in keyof P]: P[K] extends Param<infer T> ? T : never }

/**
 * How deeply params may nest (docs/json-rpc.md, "Limits"). The deepest a method takes is a few
 * levels (log topics, state overrides, EIP-712 typed data a dozen); JSON.parse itself reads a
 * million, but the code after it (a value described in an error message, a log line, a structured
 * clone to a worker) recurses, and overflowed the stack at ~6,000.
 */
export const MAX_PARAMS_DEPTH = 100

/** Whether `value` nests arrays and objects deeper than `max` levels: a walk without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (typeof item !== 'object' || item === null) continue
    if (depth > max) return true
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1])
    }
  }
  return false
}

export function parseParams<P extends readonly Param<unknown>[]>(schema: P, params: unknown): ParamValues<P> {
  if (params === undefined || params === null) params = []
  if (!Array.isArray(params)) throw new InvalidParamsError('invalid params: expected an array of positional parameters')
  if (nestsDeeperThan(params, MAX_PARAMS_DEPTH)) throw new InvalidParamsError(`invalid params: nested deeper than ${MAX_PARAMS_DEPTH} levels`)
  if (params.length > schema.length) {
    throw new InvalidParamsError(`too many arguments, want at most ${schema.length}`)
  }
  return schema.map((param, i) => {
    const value = params[i]
    if (value === undefined || (value === null && param.optional)) {
      if (param.optional) return param.parse(undefined)
      throw new InvalidParamsError(`missing value for required argument ${i} (${param.name})`)
    }
    try {
      return param.parse(value)
    } catch (error) {
      if (error instanceof ParamError) throw new InvalidParamsError(`invalid argument ${i} (${param.name}): ${error.message}`)
      throw error
    }
  }) as ParamValues<P>
}

/** Parses one field of an object parameter, naming the field in the message. */
export function field<T>(object: Record<string, unknown>, key: string, parse: (value: unknown) => T): T {
  try {
    return parse(object[key])
  } catch (error) {
    if (error instanceof ParamError) throw new ParamError(`${key}: ${error.message}`)
    throw error
  }
}

/** An optional field of an object parameter: undefined when absent or null, else as `field`. */
export function optionalField<T>(object: Record<string, unknown>, key: string, parse: (value: unknown) => T): T | undefined {
  return object[key] === undefined || object[key] === null ? undefined : field(object, key, parse)
}

const HEX_RE = /^0x[0-9a-fA-F]*$/
const QUANTITY_RE = /^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/
const SHORT_HEX_RE = /^0x[0-9a-fA-F]{1,64}$/

/** A value as an error message shows it: its JSON, cut at 80 characters. */
export function describe(value: unknown): string {
  const json = JSON.stringify(value)
  return json === undefined ? String(value) : json.length > 80 ? `${json.slice(0, 77)}...` : json
}

// ---- checks shared by parsers that word their own errors ----

/** A non-negative integer as a JSON number (a safe integer). */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}

/**
 * 0x and 1 to 64 hex digits, leading zeros and odd lengths allowed: at most 32 bytes, as geth
 * takes a storage slot ("0x0") and anvil a number.
 */
export function isShortHex(value: unknown): value is string {
  return typeof value === 'string' && SHORT_HEX_RE.test(value)
}

/** A JSON number or short hex (isShortHex) as a non-negative integer (anvil's U256); else undefined. */
export function uintOf(value: unknown): bigint | undefined {
  return isCount(value) || isShortHex(value) ? BigInt(value) : undefined
}

/** Short hex (isShortHex) as a 32-byte word, left-padded (a storage slot or value); else undefined. */
export function wordOf(value: unknown): Uint8Array | undefined {
  if (!isShortHex(value)) return undefined
  return setLengthLeft(hexToBytes((value.length % 2 === 0 ? value : `0x0${value.slice(2)}`) as PrefixedHexString), 32)
}

// ---- scalar parsers (usable on their own for object fields) ----

export function parseQuantity(value: unknown): bigint {
  if (typeof value !== 'string' || !QUANTITY_RE.test(value)) {
    throw new ParamError(`expected a hex quantity like "0x1a" (0x-prefixed, no leading zeros), got ${describe(value)}`)
  }
  return BigInt(value)
}

/**
 * A hex quantity of at most `bits` bits, as geth decodes its fixed-size numbers (hexutil.Big for
 * prices and values, hexutil.Uint64 for gas and nonces) and in its words.
 */
export function parseUint(bits: 64 | 256): (value: unknown) => bigint {
  const max = (1n << BigInt(bits)) - 1n
  return (value) => {
    const number = parseQuantity(value)
    if (number > max) throw new ParamError(`hex number > ${bits} bits`)
    return number
  }
}

export const parseUint64 = parseUint(64)
export const parseUint256 = parseUint(256)

const U32_MAX = 2 ** 32 - 1

/**
 * A ZKsync block or batch number (era's u32 newtypes, which travel as plain JSON integers), or a
 * hex quantity as every eth_ method takes it.
 */
export function parseNumberish(value: unknown): bigint {
  let number: bigint | undefined
  if (isCount(value)) number = BigInt(value)
  else if (typeof value === 'string' && value.startsWith('0x')) number = parseQuantity(value)
  if (number === undefined) throw new ParamError(`expected a non-negative integer (a JSON number, or hex like "0x1a"), got ${describe(value)}`)
  if (number > U32_MAX) throw new ParamError(`${number} is out of range: at most ${U32_MAX}`)
  return number
}

export function parseData(value: unknown): Uint8Array {
  if (typeof value !== 'string' || !HEX_RE.test(value) || value.length % 2 !== 0) {
    throw new ParamError(`expected 0x-prefixed hex bytes of even length, got ${describe(value)}`)
  }
  return hexToBytes(value as PrefixedHexString)
}

export function parseFixedHex(bytes: number, what: string) {
  return (value: unknown): PrefixedHexString => {
    if (typeof value !== 'string' || !HEX_RE.test(value) || value.length !== 2 + bytes * 2) {
      throw new ParamError(`expected ${what} (0x-prefixed, ${bytes * 2} hex digits), got ${describe(value)}`)
    }
    return value.toLowerCase() as PrefixedHexString
  }
}

export const parseAddress = parseFixedHex(20, 'a 20-byte address')
export const parseHash = parseFixedHex(32, 'a 32-byte hash')

export function parseBoolean(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new ParamError(`expected true or false, got ${describe(value)}`)
  return value
}

export function parseObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ParamError(`expected an object, got ${describe(value)}`)
  }
  return value as Record<string, unknown>
}

/** An array whose every item `parse` takes; `what` names the items in the error. */
export function parseArrayOf<T>(what: string, parse: (value: unknown) => T): (value: unknown) => T[] {
  return (value) => {
    if (!Array.isArray(value)) throw new ParamError(`expected an array of ${what}`)
    return value.map((item) => parse(item))
  }
}

/** A block parameter: a hex number, a tag, or an EIP-1898 object ({blockNumber} | {blockHash}). */
export function parseBlockRef(value: unknown): BlockRef {
  if (typeof value === 'string') {
    if ((BLOCK_TAGS as readonly string[]).includes(value)) return { kind: 'tag', tag: value as BlockTag }
    if (value.startsWith('0x')) return { kind: 'number', number: parseQuantity(value) }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>
    if ('blockHash' in object && 'blockNumber' in object) {
      throw new ParamError('an EIP-1898 block parameter takes blockHash or blockNumber, not both')
    }
    if ('blockHash' in object) {
      const requireCanonical = object.requireCanonical === undefined ? false : field(object, 'requireCanonical', parseBoolean)
      return { kind: 'hash', hash: field(object, 'blockHash', parseHash), requireCanonical }
    }
    if ('blockNumber' in object) return parseBlockRef(object.blockNumber)
  }
  throw new ParamError(
    `expected a block number (hex), one of ${BLOCK_TAGS.join(', ')}, or {blockHash} / {blockNumber}, got ${describe(value)}`,
  )
}

// ---- positional params ----

function param<T>(name: string, parse: (value: unknown) => T): Param<T> {
  return { name, optional: false, parse }
}

/** The param made optional: `fallback` when absent or null. */
export function optional<T>(inner: Param<T>, fallback: T): Param<T>
export function optional<T>(inner: Param<T>): Param<T | undefined>
export function optional<T>(inner: Param<T>, fallback?: T): Param<T | undefined> {
  return { name: inner.name, optional: true, parse: (value) => (value === undefined || value === null ? fallback : inner.parse(value)) }
}

export const quantity = (name: string) => param(name, parseQuantity)
export const numberish = (name: string) => param(name, parseNumberish)
export const data = (name: string) => param(name, parseData)
export const address = (name: string) => param(name, parseAddress)
export const hash = (name: string) => param(name, parseHash)
export const boolean = (name: string) => param(name, parseBoolean)
export const blockRef = (name = 'block') => param(name, parseBlockRef)
export const custom = <T>(name: string, parse: (value: unknown) => T) => param(name, parse)

/** The usual trailing block parameter, `latest` when absent. */
export const blockOrLatest = () => optional(blockRef('block'), { kind: 'tag', tag: 'latest' } as BlockRef)
