import type { Node } from '../../../node.ts'
import { method, type MethodSpec } from '../../method.ts'
import type { Param, ParamValues } from '../../params.ts'

/**
 * A dev-node operation with its declared params, served under several names (anvil_, hardhat_,
 * evm_). The names share the behaviour and differ only in what they answer: anvil answers null
 * where Hardhat answers true. Each answers once what it changed in the settings or the pool is
 * stored (ChainWriter.persist: nothing to store, nothing written).
 */
export interface DevAction<P extends readonly Param<unknown>[]> {
  params: P
  run(node: Node, params: ParamValues<P>): unknown
}

export function action<const P extends readonly Param<unknown>[]>(params: P, run: (node: Node, params: ParamValues<P>) => unknown): DevAction<P> {
  return { params, run }
}

/** The action as a method answering its own result. */
export function serve<P extends readonly Param<unknown>[]>(devAction: DevAction<P>): MethodSpec {
  return method(devAction.params, async (node, params) => {
    const mark = node.writer.failureMark
    const outcome = devAction.run(node, params)
    const result = await outcome
    await node.writer.persist()
    checkNotRolledBack(node, outcome, mark)
    return result
  })
}

/** The action as a method answering `answer` once it is done (anvil: null, Hardhat: true). */
export function serveAs<P extends readonly Param<unknown>[]>(devAction: DevAction<P>, answer: null | true): MethodSpec {
  return method(devAction.params, async (node, params) => {
    const mark = node.writer.failureMark
    const outcome = devAction.run(node, params)
    await outcome
    await node.writer.persist()
    checkNotRolledBack(node, outcome, mark)
    return answer
  })
}

/**
 * A setting changed at once (`run` did not return a promise) and then rolled back by another
 * commit's refusal before `persist` ran would find nothing to store and look stored: fails it
 * with that refusal (ChainWriter.failedSince). An action that returns a promise waits for its own
 * commit (state edits, snapshots: Miner.exclusive), so a refusal it saw is already its error.
 */
function checkNotRolledBack(node: Node, outcome: unknown, mark: number): void {
  if (!(outcome instanceof Promise)) node.writer.failedSince(mark)
}
