/**
 * Methods whose specs load on their first call (onDemandMethods): what the table knows before the
 * load, when the load happens, how a failed load is retried, and that every spec the lazy module
 * holds is one the node serves.
 */
import { expect, test } from 'vitest'
import { method, onDemandMethods, type MethodSpec } from '../../../src/core/rpc/method.ts'
import { methods } from '../../../src/core/rpc/methods/index.ts'
import { rareMethods } from '../../../src/core/onDemand.ts'
import { quantity } from '../../../src/core/rpc/params.ts'
import type { Node } from '../../../src/core/node.ts'
import { rpc, startNode } from '../../support/chain.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { ErrorCode } from '../../../src/core/errors.ts'

const node = {} as Node

/** A table of two methods whose loader counts its calls and fails while `failing` is set. */
function counted() {
  const state = { loads: 0, failing: false }
  const table: Record<'double' | 'name', MethodSpec> = {
    double: method([quantity('n')], (_node, [n]) => n * 2n),
    name: method([], () => 'loaded'),
  }
  const specs = onDemandMethods(['double', 'name'], async () => {
    state.loads++
    if (state.failing) throw new Error('chunk not fetched')
    return table
  })
  return { state, specs }
}

test('the names are known before anything loads; the first call loads the specs, once for all of them', async () => {
  const { state, specs } = counted()
  expect(Object.keys(specs)).toEqual(['double', 'name'])
  expect(state.loads).toBe(0)
  const [a, b] = await Promise.all([specs.double.call(node, ['0x2']), specs.name.call(node, [])])
  expect([a, b]).toEqual([4n, 'loaded'])
  await specs.double.call(node, ['0x3'])
  expect(state.loads).toBe(1)
})

test('params are parsed by the loaded spec: a bad one is -32602, naming the param', async () => {
  const { specs } = counted()
  await expectRpcError(specs.double.call(node, ['ten']), ErrorCode.invalidParams, /^invalid argument 0 \(n\)/)
})

test('a failed load fails the call with its error and is tried again on the next call', async () => {
  const { state, specs } = counted()
  state.failing = true
  await expect(specs.name.call(node, [])).rejects.toThrow('chunk not fetched')
  state.failing = false
  expect(await specs.name.call(node, [])).toBe('loaded')
  expect(state.loads).toBe(2)
})

test('every spec core/onDemand.ts holds is a method the node serves (none left out of the names)', () => {
  const served = new Set(Object.keys(methods))
  expect(Object.keys(rareMethods).filter((name) => !served.has(name))).toEqual([])
})

test('through a node: a rare method answers on its first call, and its bad params are -32602', async () => {
  const call = rpc(await startNode())
  expect(await call('txpool_status')).toEqual({ pending: '0x0', queued: '0x0' })
  await expectRpcError(call('debug_getRawHeader', 'nope'), ErrorCode.invalidParams, /nope/)
})
