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

/**
 * anvil_reset's / hardhat_reset's argument. Without a fork URL it resets to a fresh genesis; this
 * node cannot fork, so a URL is refused. viem sends `{forking: {blockNumber, jsonRpcUrl}}` even
 * without one (both then undefined, the number NaN), which means "no fork".
 */
export function parseResetOptions(value: unknown): void {
  const object = parseObject(value)
  if (object.forking === undefined || object.forking === null) return
  const forking = parseObject(object.forking)
  if (forking.jsonRpcUrl !== undefined && forking.jsonRpcUrl !== null) {
    throw new ParamError(`forking: this node cannot fork another chain (jsonRpcUrl ${describe(forking.jsonRpcUrl)}); reset without it for a fresh genesis`)
  }
}

export const uint = (name: string) => custom(name, parseUint)
export const word = (name: string) => custom(name, parseWord)
