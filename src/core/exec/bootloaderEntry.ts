/**
 * Where the node hands a transaction to ZKsync's bootloader flows (exec/bootloader.ts: contract
 * accounts, paymasters). Only a 0x71 transaction can need them, so they load on the first one (a
 * lazy chunk of the worker's bundle: the worker starts without them); any other transaction runs
 * at once, as `execute` runs it. Mining, admission, the trace replay and the detailed output all
 * come through here.
 */
import type { Block } from '@ethereumjs/block'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import type { SignedTransaction } from './rawTransaction.ts'
import type { ExecuteTransaction } from './bootloaderSteps.ts'

const bootloader = () => import('../onDemand.ts')

/** bootloader.ts's runAsBootloader, loaded for a 0x71 transaction only. */
export async function runAsBootloader(
  vm: VM,
  block: Block,
  signed: SignedTransaction,
  execute: ExecuteTransaction,
  options: { checkNonce?: boolean } = {},
): Promise<RunTxResult> {
  if (!signed.eip712) return execute(signed.tx)
  return (await bootloader()).runAsBootloader(vm, block, signed, execute, options)
}

/** bootloader.ts's validateForAdmission: nothing to check but for a 0x71 transaction. */
export async function validateForAdmission(vm: VM, block: Block, signed: SignedTransaction): Promise<void> {
  if (!signed.eip712) return
  await (await bootloader()).validateForAdmission(vm, block, signed)
}
