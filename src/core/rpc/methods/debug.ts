import type { Node } from '../../node.ts'
import { createTracer } from '../../trace/createTracer.ts'
import { traceBlock, traceCall, traceTransaction } from '../../trace/replay.ts'
import type { Tracer } from '../../trace/tracer.ts'
import { callRequest } from '../callObject.ts'
import { method, type MethodTable } from '../method.ts'
import { blockOrLatest, blockRef, hash, optional } from '../params.ts'
import { traceCallConfig, traceConfig, tracerOptions, type TraceConfig } from '../traceConfig.ts'

function tracerFor(node: Node, config: TraceConfig | undefined): Tracer {
  return createTracer(tracerOptions(config, node.config.tracing), node.config.tracing, node.config.limits.maxTraceBytes)
}

/** The trace config's `timeout` (geth's tracer timeout), else the node's execution time limit. */
function timeoutOf(node: Node, config: TraceConfig | undefined): number {
  return config?.timeoutMs ?? node.config.limits.evmTimeoutMs
}

/**
 * debug_ tracing. Nothing is traced at mining time: a mined transaction is re-executed on
 * demand, its block replayed on the parent's state (trace/replay.ts). Loaded on the first call
 * of one of them (onDemand.ts): a page that never traces never downloads the tracers.
 */
export const debugMethods = {
  debug_traceTransaction: method([hash('transactionHash'), optional(traceConfig('config'))], (node, [txHash, config]) => {
    const tx = node.chain.transaction(txHash)
    if (!tx) return null
    return traceTransaction(node, tx, tracerFor(node, config), timeoutOf(node, config))
  }),

  debug_traceCall: method(
    [callRequest('call'), blockOrLatest(), optional(traceCallConfig('config'))],
    (node, [request, ref, config]) => traceCall(node, ref, request, config?.stateOverrides, tracerFor(node, config), timeoutOf(node, config)),
  ),

  debug_traceBlockByNumber: method([blockRef('block'), optional(traceConfig('config'))], (node, [ref, config]) => {
    const tracer = tracerFor(node, config)
    // No pending block is built here (pending state is the head's): nothing to trace, as on ZKsync.
    if (ref.kind === 'tag' && ref.tag === 'pending') return []
    return traceBlock(node, node.block(ref), tracer, timeoutOf(node, config))
  }),

  debug_traceBlockByHash: method([hash('blockHash'), optional(traceConfig('config'))], (node, [blockHash, config]) =>
    traceBlock(node, node.block({ kind: 'hash', hash: blockHash, requireCanonical: false }), tracerFor(node, config), timeoutOf(node, config)),
  ),
} satisfies MethodTable
