/**
 * Call data, event logs and revert data as names and arguments, with viem's ABI decoding, given
 * the ABIs to try in order (the address's own first, then every one the playground compiled, then
 * the well-known signatures). Each ABI is tried alone, so two that share a selector (ERC-20's and
 * ERC-721's Transfer) each get their turn.
 */
import { decodeErrorResult, decodeEventLog, decodeFunctionData, type Abi, type AbiParameter, type Hex } from 'viem'
import { call } from '../contracts/abiOutput.ts'

export interface Decoded {
  name: string
  /** `transfer(to: 0x…, value: 5)` */
  text: string
  /** Which ABI knew it: a contract's name, or a standard's. */
  source: string
}

export interface NamedAbi {
  name: string
  abi: Abi
}

const inputsOf = (abi: Abi, type: 'function' | 'event' | 'error', name: string): readonly AbiParameter[] => {
  const item = abi.find((entry) => entry.type === type && 'name' in entry && entry.name === name)
  return item && 'inputs' in item ? item.inputs : []
}

export function decodeCall(abis: readonly NamedAbi[], data: string | null | undefined): Decoded | undefined {
  if (!data || data.length < 10) return undefined
  for (const { name: source, abi } of abis) {
    try {
      const { functionName, args } = decodeFunctionData({ abi, data: data as Hex })
      return { name: functionName, text: call(functionName, inputsOf(abi, 'function', functionName), args ?? []), source }
    } catch {
      // not in this ABI (or its arguments do not fit it): the next one
    }
  }
  return undefined
}

export function decodeEvent(abis: readonly NamedAbi[], log: { topics: readonly Hex[]; data: Hex }): Decoded | undefined {
  if (log.topics.length === 0) return undefined
  for (const { name: source, abi } of abis) {
    try {
      const { eventName, args } = decodeEventLog({ abi, topics: log.topics as [Hex, ...Hex[]], data: log.data, strict: true })
      if (eventName === undefined) continue
      return { name: eventName, text: call(eventName, inputsOf(abi, 'event', eventName), args), source }
    } catch {
      // the next ABI
    }
  }
  return undefined
}

export function decodeError(abis: readonly NamedAbi[], data: string | null | undefined): Decoded | undefined {
  if (!data || data.length < 10) return undefined
  for (const { name: source, abi } of abis) {
    try {
      const { errorName, args, abiItem } = decodeErrorResult({ abi, data: data as Hex })
      // viem adds Error(string) and Panic(uint256) to any ABI: those are Solidity's, not the ABI's.
      const own = abi.includes(abiItem)
      return { name: errorName, text: call(errorName, 'inputs' in abiItem ? abiItem.inputs : [], args ?? []), source: own ? source : 'Solidity' }
    } catch {
      // the next ABI
    }
  }
  return undefined
}
