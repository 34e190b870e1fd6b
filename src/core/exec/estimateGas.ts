import type { Block } from '@ethereumjs/block'
import { EVMError } from '@ethereumjs/evm'
import { createAddressFromString, KECCAK256_NULL, equalsBytes } from '@ethereumjs/util'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import type { BlockRef } from '../chain/chain.ts'
import { ExecutionError, GasLimitTooLowError } from '../errors.ts'
import { assertSuccess, runCall, type CallRequest, type StateOverrides } from './call.ts'
import { inCallSandbox, type CallHost } from './callSandbox.ts'

const TRANSFER_GAS = 21_000n
const CALL_STIPEND = 2_300n
/** geth stops bisecting once the window is within 1.5% of the answer. */
const ERROR_RATIO_PERMILLE = 15n

/**
 * eth_estimateGas's answer for a call at `ref` (zks_estimateFee, zks_estimateGasL1ToL2 and
 * eth_sendTransaction's missing gas are the same). Types other than 0x71 are estimated as geth
 * does; a 0x71 call object, or one with a paymaster, runs ZKsync's steps around it
 * (bootloaderEstimate.ts, loaded on the first such estimate, with the bootloader's flows).
 */
export function estimateGasAt(host: CallHost, request: CallRequest, ref: BlockRef, overrides: StateOverrides | undefined): Promise<bigint> {
  return inCallSandbox(host, ref, request, overrides, async ({ vm, context, gas }) => {
    if (!request.eip712 && !request.paymaster) return estimateGas(vm, context, request, gas)
    const { estimateWithBootloaderSteps } = await import('../onDemand.ts')
    return estimateWithBootloaderSteps(vm, context, request, gas)
  })
}

/**
 * geth's eth_estimateGas: run at the call's gas (`gas`, already capped: callGas), try the
 * optimistic (used + refund) · 64/63, then bisect. A single run's gasUsed is wrong whenever refunds or the 63/64 rule apply (a call that
 * clears storage needs more gas than it ends up using); the search finds the smallest limit at
 * which the call succeeds. Each attempt runs in its own reverted checkpoint.
 */
export async function estimateGas(vm: VM, context: Block, request: CallRequest, gas: bigint): Promise<bigint> {
  let hi = gas

  const feeCap = request.gasPrice || request.maxFeePerGas || 0n
  if (feeCap > 0n && request.from) {
    const balance = (await vm.stateManager.getAccount(createAddressFromString(request.from)))?.balance ?? 0n
    const available = balance - (request.value ?? 0n)
    const allowance = available > 0n ? available / feeCap : 0n
    if (allowance < hi) hi = allowance
  }

  const attempt = async (gas: bigint): Promise<{ ok: boolean; result?: RunTxResult }> => {
    await vm.evm.journal.checkpoint()
    try {
      const result = await runCall(vm, context, request, gas)
      return { ok: result.execResult.exceptionError === undefined, result }
    } catch (error) {
      // Below the intrinsic gas runTx refuses the transaction: that limit is simply too low.
      if (error instanceof GasLimitTooLowError) return { ok: false }
      throw error
    } finally {
      await vm.evm.journal.revert()
    }
  }

  // A plain transfer to an address without code costs exactly 21000 (geth's shortcut).
  if ((request.data?.length ?? 0) === 0 && request.to !== undefined && hi >= TRANSFER_GAS) {
    const target = await vm.stateManager.getAccount(createAddressFromString(request.to))
    if (!target || equalsBytes(target.codeHash, KECCAK256_NULL)) {
      if ((await attempt(TRANSFER_GAS)).ok) return TRANSFER_GAS
    }
  }

  const top = await attempt(hi)
  if (!top.ok) {
    // Running out of gas at the ceiling means the ceiling is the problem (geth's wording);
    // any other failure (a revert, an invalid opcode) fails at every limit and is reported.
    if (top.result && top.result.execResult.exceptionError?.error !== EVMError.errorMessages.OUT_OF_GAS) assertSuccess(top.result)
    throw new ExecutionError(`gas required exceeds allowance (${hi})`)
  }
  const used = top.result!.totalGasSpent
  let lo = used - 1n

  const optimistic = ((used + top.result!.gasRefund + CALL_STIPEND) * 64n) / 63n
  if (optimistic < hi) {
    if ((await attempt(optimistic)).ok) hi = optimistic
    else lo = optimistic
  }

  while (lo + 1n < hi) {
    if (((hi - lo) * 1000n) / hi < ERROR_RATIO_PERMILLE) break
    let mid = (hi + lo) / 2n
    if (mid > lo * 2n) mid = lo * 2n // the answer is usually close to `used`: probe near it first
    if ((await attempt(mid)).ok) hi = mid
    else lo = mid
  }
  return hi
}
