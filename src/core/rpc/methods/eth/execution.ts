import { bigIntToHex } from '@ethereumjs/util'
import { bytesToHex } from '../../../hexText.ts'
import { assertSuccess, applyStateOverrides, replacesStorage, runCall, type CallRequest, type StateOverrides } from '../../../exec/call.ts'
import { isPending, type BlockRef } from '../../../chain/chain.ts'
import { estimateGas } from '../../../exec/estimateGas.ts'
import type { Node } from '../../../node.ts'
import { stateRootOf, type BlockRecord } from '../../../chain/records.ts'
import { callRequest, stateOverrides } from '../../callObject.ts'
import { method, type MethodTable } from '../../method.ts'
import { blockOrLatest, optional } from '../../params.ts'

/** geth caps a call's gas at RPCGasCap instead of refusing it. */
function callGas(node: Node, request: CallRequest): bigint {
  const cap = node.config.limits.callGasCap
  return request.gas !== undefined && request.gas < cap ? request.gas : cap
}

async function sandboxFor(node: Node, block: BlockRecord, overrides?: Parameters<typeof replacesStorage>[0]) {
  // Replacing a whole storage leaves the state manager's storage tries out of step with its
  // caches after the revert, so such calls get a sandbox of their own.
  return replacesStorage(overrides) ? node.state.freshSandbox(stateRootOf(block)) : node.sandbox(block)
}

/** eth_estimateGas's answer (zks_estimateFee and zks_estimateGasL1ToL2 give the same). */
export async function estimateGasAt(node: Node, request: CallRequest, ref: BlockRef, overrides: StateOverrides | undefined): Promise<bigint> {
  const block = node.block(ref)
  const sandbox = await sandboxFor(node, block, overrides)
  return sandbox.run(async (vm) => {
    if (overrides) await applyStateOverrides(vm, overrides)
    return estimateGas(vm, node.callContext(block, isPending(ref)), request, node.config.limits.callGasCap)
  })
}

export const executionMethods: MethodTable = {
  eth_call: method([callRequest('call'), blockOrLatest(), optional(stateOverrides('stateOverrides'))], async (node, [request, ref, overrides]) => {
    const block = node.block(ref)
    const sandbox = await sandboxFor(node, block, overrides)
    const result = await sandbox.run(async (vm) => {
      if (overrides) await applyStateOverrides(vm, overrides)
      return runCall(vm, node.callContext(block, isPending(ref)), request, callGas(node, request))
    })
    assertSuccess(result)
    return bytesToHex(result.execResult.returnValue)
  }),

  eth_estimateGas: method([callRequest('call'), blockOrLatest(), optional(stateOverrides('stateOverrides'))], async (node, [request, ref, overrides]) =>
    bigIntToHex(await estimateGasAt(node, request, ref, overrides)),
  ),
}
