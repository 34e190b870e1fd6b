import { custom, describe, optionalField, ParamError, parseObject, uintOf, wordOf } from './params.ts'

/**
 * Parameters of the dev-node methods. anvil and Hardhat read their numbers as U256 from either a
 * hex string or a JSON number (viem sends hex for most, plain numbers for intervals), so these
 * take both; everything else is as strict as the eth_ methods.
 */

/** A non-negative integer: a JSON number or 0x-prefixed hex (leading zeros allowed). */
export function parseUint(value: unknown): bigint {
  const uint = uintOf(value)
  if (uint === undefined) throw new ParamError(`expected a non-negative integer (a JSON number or 0x-prefixed hex), got ${describe(value)}`)
  return uint
}

/** A storage slot or value: hex of at most 32 bytes, left-padded to 32 (odd lengths allowed). */
export function parseWord(value: unknown): Uint8Array {
  const word = wordOf(value)
  if (word === undefined) throw new ParamError(`expected 0x-prefixed hex of at most 32 bytes, got ${describe(value)}`)
  return word
}

/** A snapshot id as evm_snapshot returned it (hex); a JSON number is taken too. */
export function parseSnapshotId(value: unknown): bigint {
  const id = uintOf(value)
  if (id === undefined) throw new ParamError(`expected a snapshot id as evm_snapshot returned it (hex, like "0x1"), got ${describe(value)}`)
  return id
}

/** evm_mine's argument: a timestamp, or anvil's {timestamp?, blocks?}. */
export function parseMineOptions(value: unknown): { timestamp?: bigint; blocks?: bigint } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { timestamp: parseUint(value) }
  const object = parseObject(value)
  return { timestamp: optionalField(object, 'timestamp', parseUint), blocks: optionalField(object, 'blocks', parseUint) }
}

/** Where anvil_reset / hardhat_reset moves a fork: another upstream URL, another block, or both. */
export interface ResetForking {
  url?: string
  blockNumber?: bigint
}

/**
 * anvil_reset's / hardhat_reset's argument: `{forking: {jsonRpcUrl?, blockNumber?}}` forks (the
 * chain's own upstream when no URL is given); without it the chain resets to a fresh genesis, or
 * to its fork point if it is a fork. viem sends `{forking: {blockNumber, jsonRpcUrl}}` even without
 * a fork (both then undefined, the number NaN: null in JSON), which means "no fork".
 */
export function parseResetOptions(value: unknown): ResetForking | undefined {
  const object = parseObject(value)
  if (object.forking === undefined || object.forking === null) return undefined
  const forking = parseObject(object.forking)
  const url = forking.jsonRpcUrl === undefined || forking.jsonRpcUrl === null ? undefined : parseUpstreamUrl(forking.jsonRpcUrl, 'forking.jsonRpcUrl')
  const absent = forking.blockNumber === undefined || forking.blockNumber === null || Number.isNaN(forking.blockNumber)
  const blockNumber = absent ? undefined : parseUint(forking.blockNumber)
  return url === undefined && blockNumber === undefined ? undefined : { url, blockNumber }
}

/** A fork's upstream URL: http: or https:. */
export function parseUpstreamUrl(value: unknown, name = 'url'): string {
  let protocol: string | undefined
  try {
    protocol = typeof value === 'string' ? new URL(value).protocol : undefined
  } catch {
    protocol = undefined
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new ParamError(`${name}: expected an http: or https: URL, got ${describe(value)}`)
  return value as string
}

export const uint = (name: string) => custom(name, parseUint)
export const word = (name: string) => custom(name, parseWord)
