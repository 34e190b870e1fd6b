import type { Block } from '@ethereumjs/block'
import type { VM } from '@ethereumjs/vm'
import { isPending, type BlockRef } from '../chain/chain.ts'
import { stateRootOf, type BlockRecord } from '../chain/records.ts'
import { applyStateOverrides, replacesStorage, type CallRequest, type StateOverrides } from './call.ts'
import type { StateMachine } from './stateMachine.ts'
import type { TimeoutWording } from './executionTimeLimit.ts'
import { InvalidParamsError } from '../errors.ts'
import { createAddressFromString, createZeroAddress } from '@ethereumjs/util'
import { prepareForkedExecution } from '../fork/forkedStateManager.ts'

/** What running a call at a block needs of the node (`Node` has it). */
export interface CallHost {
  readonly state: StateMachine
  readonly chainId: bigint
  readonly config: { readonly limits: { readonly callGasCap: bigint; readonly evmTimeoutMs: number } }
  /** The block a parameter names (throws geth's "header not found"). */
  block(ref: BlockRef): BlockRecord
  /** The block a call at `block` runs in (Node.callContext). */
  callContext(block: BlockRecord, pending?: boolean): Block
}

/** Where a call runs, handed to the work done in its sandbox. */
export interface CallScope {
  /** The sandbox's VM: the state after the block, with the state overrides applied. */
  vm: VM
  /** The block the call runs in. */
  context: Block
  /** The call's gas: what it asks for, capped at callGasCap (callGas). */
  gas: bigint
}

/** geth caps a call's gas at RPCGasCap (limits.callGasCap) instead of refusing it. */
export function callGas(request: CallRequest, cap: bigint): bigint {
  return request.gas !== undefined && request.gas < cap ? request.gas : cap
}

/** How long a call may run, and how running out of time is worded (a trace's own `timeout`). */
export interface CallTimeLimit {
  ms: number
  wording: TimeoutWording
}

/**
 * What parsing a call object cannot check alone (-32602, naming the call object as parseParams
 * does): a chainId other than the node's, and gas · price past 256 bits (ethereumjs would refuse
 * to build the transaction; geth computes it in big integers, but no account could pay it).
 */
function checkCallRequest(request: CallRequest, chainId: bigint, gas: bigint): void {
  const refuse = (problem: string) => {
    throw new InvalidParamsError(`invalid argument 0 (call): ${problem}`)
  }
  if (request.chainId !== undefined && request.chainId !== chainId) refuse(`chainId does not match node's (have=${request.chainId}, want=${chainId})`)
  const [name, price] = request.gasPrice !== undefined ? ['gasPrice', request.gasPrice] : ['maxFeePerGas', request.maxFeePerGas ?? 0n]
  if (gas * price > MAX_UINT256) refuse(`${name}: gas * ${name} exceeds 2^256-1 (gas ${gas})`)
}

const MAX_UINT256 = (1n << 256n) - 1n

/**
 * Runs `work` as eth_call, eth_estimateGas, debug_traceCall and the zks estimates run a call at
 * `ref`: in a sandbox holding the state after that block, with geth's state `overrides` applied
 * first, in the block context of a call at that block (`pending`: the next block's), with the
 * call's gas capped; every change is reverted afterwards.
 *
 * Overrides that replace a whole storage leave a reused sandbox's storage tries out of step with
 * its caches after the revert, so such a call gets a fresh sandbox of its own
 * (StateMachine.freshSandbox).
 */
export async function inCallSandbox<T>(
  host: CallHost,
  ref: BlockRef,
  request: CallRequest,
  overrides: StateOverrides | undefined,
  work: (scope: CallScope) => Promise<T>,
  timeLimit: CallTimeLimit = { ms: host.config.limits.evmTimeoutMs, wording: 'call' },
): Promise<T> {
  checkCallRequest(request, host.chainId, callGas(request, host.config.limits.callGasCap))
  const block = host.block(ref)
  const root = stateRootOf(block)
  const sandbox = replacesStorage(overrides) ? await host.state.freshSandbox(root) : await host.state.sandbox(root)
  return sandbox.runTimed(timeLimit.ms, timeLimit.wording, async (vm) => {
    // On a fork: the caller and the callee in one upstream round trip, and no EraVM callee.
    await prepareForkedExecution(vm.stateManager, request.from ? createAddressFromString(request.from) : createZeroAddress(), request.to && createAddressFromString(request.to))
    if (overrides) await applyStateOverrides(vm, overrides)
    const context = host.callContext(block, isPending(ref))
    return work({ vm, context, gas: callGas(request, host.config.limits.callGasCap) })
  })
}
