import { bigIntToHex } from '@ethereumjs/util'
import { bytesToHex } from '../../../hexText.ts'
import { createAccessList } from '../../../exec/accessList.ts'
import { assertSuccess, runCall } from '../../../exec/call.ts'
import { inCallSandbox } from '../../../exec/callSandbox.ts'
import { estimateGasAt } from '../../../exec/estimateGas.ts'
import { callRequest, stateOverrides } from '../../callObject.ts'
import { method, type MethodTable } from '../../method.ts'
import { blockOrLatest, optional } from '../../params.ts'

export const executionMethods: MethodTable = {
  eth_call: method([callRequest('call'), blockOrLatest(), optional(stateOverrides('stateOverrides'))], async (node, [request, ref, overrides]) => {
    const result = await inCallSandbox(node, ref, request, overrides, ({ vm, context, gas }) => runCall(vm, context, request, gas))
    assertSuccess(result)
    return bytesToHex(result.execResult.returnValue)
  }),

  // geth's: the list, the gas used with it, and the failure (a revert too) as `error`, not a refusal.
  eth_createAccessList: method([callRequest('call'), blockOrLatest(), optional(stateOverrides('stateOverrides'))], (node, [request, ref, overrides]) =>
    inCallSandbox(node, ref, request, overrides, ({ vm, context, gas }) => createAccessList(vm, context, request, gas)),
  ),

  eth_estimateGas: method([callRequest('call'), blockOrLatest(), optional(stateOverrides('stateOverrides'))], async (node, [request, ref, overrides]) =>
    bigIntToHex(await estimateGasAt(node, request, ref, overrides)),
  ),
}
