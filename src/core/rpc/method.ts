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
