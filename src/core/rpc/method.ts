import type { Node } from '../node.ts'
import { parseParams, type Param, type ParamValues } from './params.ts'

/** One JSON-RPC method: its declared params and a handler that gets them parsed. */
export interface MethodSpec {
  call(node: Node, params: unknown): Promise<unknown>
}

export type MethodTable = Record<string, MethodSpec>

export function method<const P extends readonly Param<unknown>[]>(
  params: P,
  handler: (node: Node, params: ParamValues<P>) => unknown,
): MethodSpec {
  return {
    call: async (node, raw) => handler(node, parseParams(params, raw)),
  }
}

/** A method that answers a constant the node is configured with. */
export function constant(value: (node: Node) => unknown): MethodSpec {
  return method([], (node) => value(node))
}

/**
 * Methods whose specs live in a module loaded on the first call of any of them (core/onDemand.ts, a
 * lazy chunk of the worker's bundle): the table names them at start, and their params are
 * parsed and their handler run once `load` resolved, so a first call only waits for the load.
 * A failed load (a chunk the page could not fetch) is tried again on the next call.
 */
export function onDemandMethods<const K extends string>(names: readonly K[], load: () => Promise<Record<K, MethodSpec>>): Record<K, MethodSpec> {
  let table: Promise<Record<K, MethodSpec>> | undefined
  const loaded = () => {
    table ??= load().catch((error: unknown) => {
      table = undefined
      throw error
    })
    return table
  }
  return Object.fromEntries(names.map((name) => [name, { call: async (node, params) => (await loaded())[name].call(node, params) } satisfies MethodSpec])) as Record<
    K,
    MethodSpec
  >
}
