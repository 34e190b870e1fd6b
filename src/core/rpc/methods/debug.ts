import type { Node } from '../../node.ts'
import type { Tracer } from '../../trace/tracer.ts'
import { callRequest } from '../callObject.ts'
import { method, type MethodTable } from '../method.ts'
import { blockOrLatest, blockRef, hash, optional } from '../params.ts'
import { traceCallConfig, traceConfig, tracerOptions, type TraceConfig } from '../traceConfig.ts'

/**
 * The tracers and the replay load on the first debug_ call (onDemand.ts: a lazy chunk in the
 * worker's bundle): a page that never traces never downloads them.
 */
const replay = () => import('./onDemand.ts')

async function tracerFor(node: Node, config: TraceConfig | undefined): Promise<Tracer> {
  const { createTracer } = await import('./onDemand.ts')
  return createTracer(tracerOptions(config, node.config.tracing), node.config.tracing, node.config.limits.maxTraceBytes)
}

/** The trace config's `timeout` (geth's tracer timeout), else the node's execution time limit. */
function timeoutOf(node: Node, config: TraceConfig | undefined): number {
  return config?.timeoutMs ?? node.config.limits.evmTimeoutMs
}

/**
 * debug_ tracing. Nothing is traced at mining time: a mined transaction is re-executed on
 * demand, its block replayed on the parent's state (trace/replay.ts).
 */
export const debugMethods: MethodTable = {
  debug_traceTransaction: method([hash('transactionHash'), optional(traceConfig('config'))], async (node, [txHash, config]) => {
    const tx = node.chain.transaction(txHash)
    if (!tx) return null
    const { traceTransaction } = await replay()
    return traceTransaction(node, tx, await tracerFor(node, config), timeoutOf(node, config))
  }),

  debug_traceCall: method(
    [callRequest('call'), blockOrLatest(), optional(traceCallConfig('config'))],
    async (node, [request, ref, config]) => {
      const { traceCall } = await replay()
      return traceCall(node, ref, request, config?.stateOverrides, await tracerFor(node, config), timeoutOf(node, config))
    },
  ),

  debug_traceBlockByNumber: method([blockRef('block'), optional(traceConfig('config'))], async (node, [ref, config]) => {
    const { traceBlock } = await replay()
    const tracer = await tracerFor(node, config)
    // No pending block is built here (pending state is the head's): nothing to trace, as on ZKsync.
    if (ref.kind === 'tag' && ref.tag === 'pending') return []
    return traceBlock(node, node.block(ref), tracer, timeoutOf(node, config))
  }),

  debug_traceBlockByHash: method([hash('blockHash'), optional(traceConfig('config'))], async (node, [blockHash, config]) => {
    const { traceBlock } = await replay()
    return traceBlock(node, node.block({ kind: 'hash', hash: blockHash, requireCanonical: false }), await tracerFor(node, config), timeoutOf(node, config))
  }),
}
