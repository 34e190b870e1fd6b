import { hexToBytes, setLengthLeft, type PrefixedHexString } from '@ethereumjs/util'
import { custom, ParamError, parseObject } from './params.ts'

/**
 * Parameters of the dev-node methods. anvil and Hardhat read their numbers as U256 from either a
 * hex string or a JSON number (viem sends hex for most, plain numbers for intervals), so these
 * take both; everything else is as strict as the eth_ methods.
 */

function describe(value: unknown): string {
  const json = JSON.stringify(value)
  return json === undefined ? String(value) : json.length > 80 ? `${json.slice(0, 77)}...` : json
}

/** A non-negative integer: a JSON number or 0x-prefixed hex (leading zeros allowed). */
export function parseUint(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) return BigInt(value)
  throw new ParamError(`expected a non-negative integer (a JSON number or 0x-prefixed hex), got ${describe(value)}`)
}

/** A storage slot or value: hex of at most 32 bytes, left-padded to 32 (odd lengths allowed). */
export function parseWord(value: unknown): Uint8Array {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    return setLengthLeft(hexToBytes((value.length % 2 === 0 ? value : `0x0${value.slice(2)}`) as PrefixedHexString), 32)
  }
  throw new ParamError(`expected 0x-prefixed hex of at most 32 bytes, got ${describe(value)}`)
}

/** A snapshot id as evm_snapshot returned it (hex); a JSON number is taken too. */
export function parseSnapshotId(value: unknown): bigint {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) return BigInt(value)
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  throw new ParamError(`expected a snapshot id as evm_snapshot returned it (hex, like "0x1"), got ${describe(value)}`)
}

/** evm_mine's argument: a timestamp, or anvil's {timestamp?, blocks?}. */
export function parseMineOptions(value: unknown): { timestamp?: bigint; blocks?: bigint } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { timestamp: parseUint(value) }
  const object = parseObject(value)
  const at = (key: string) => {
    if (object[key] === undefined || object[key] === null) return undefined
    try {
      return parseUint(object[key])
    } catch (error) {
      if (error instanceof ParamError) throw new ParamError(`${key}: ${error.message}`)
      throw error
    }
  }
  return { timestamp: at('timestamp'), blocks: at('blocks') }
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
