import { bigIntToHex } from '@ethereumjs/util'
import { bytesToHex } from '../../../hexText.ts'
import { assertSuccess, runCall } from '../../../exec/call.ts'
import { inCallSandbox } from '../../../exec/callSandbox.ts'
import { captureConsole } from '../../../exec/console/capture.ts'
import { estimateGasAt } from '../../../exec/estimateGas.ts'
import { callRequest, stateOverrides } from '../../callObject.ts'
import { method, type MethodTable } from '../../method.ts'
import { blockOrLatest, optional } from '../../params.ts'

export const executionMethods: MethodTable = {
  eth_call: method([callRequest('call'), blockOrLatest(), optional(stateOverrides('stateOverrides'))], async (node, [request, ref, overrides]) => {
    const { value: result, lines } = await inCallSandbox(node, ref, request, overrides, ({ vm, context, gas }) =>
      captureConsole(vm, () => runCall(vm, context, request, gas)),
    )
    // Printed for a call that reverts too, as Hardhat prints it.
    node.callPrinted('eth_call', lines)
    assertSuccess(result)
    return bytesToHex(result.execResult.returnValue)
  }),

  // geth's: the list, the gas used with it, and the failure (a revert too) as `error`, not a refusal.
  eth_createAccessList: method([callRequest('call'), blockOrLatest(), optional(stateOverrides('stateOverrides'))], async (node, [request, ref, overrides]) => {
    // Loaded on the first call (onDemand.ts: a lazy chunk in the worker's bundle).
    const { createAccessList } = await import('../../../onDemand.ts')
    return inCallSandbox(node, ref, request, overrides, ({ vm, context, gas }) => createAccessList(vm, context, request, gas))
  }),

  eth_estimateGas: method([callRequest('call'), blockOrLatest(), optional(stateOverrides('stateOverrides'))], async (node, [request, ref, overrides]) =>
    // No console.log output, as in Hardhat: wallets estimate before nearly every send, and each
    // transaction's lines would be told twice (and the search runs the call many times).
    bigIntToHex(await estimateGasAt(node, request, ref, overrides)),
  ),
}
