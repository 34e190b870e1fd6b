import type { SignedTransaction } from '../exec/rawTransaction.ts'
import { TransactionRejectedError } from '../errors.ts'

/**
 * EraVM bytecode (zksolc's output) is whole 32-byte words, an odd number of them, and its first
 * instruction begins with a zero byte. Sent as EVM init code, that zero is STOP: the creation
 * "succeeds" at once and leaves an empty contract, gas paid. No EVM init code starts with STOP
 * for a reason (it can only deploy nothing), so a creation whose code has EraVM's shape and
 * starts with 0x00 is zksolc output sent to the wrong VM, and is refused before it runs.
 */
export function isEraVmBytecode(code: Uint8Array): boolean {
  return code.length >= 32 && code.length % 32 === 0 && (code.length / 32) % 2 === 1 && code[0] === 0
}

export const ERAVM_REFUSAL =
  'EraVM bytecode (zksolc output) cannot run on this node, which runs EVM bytecode only: compile the contract with solc and deploy its EVM bytecode'

/** Refuses a contract creation whose init code is EraVM bytecode (docs/zksync.md, "System contracts"). */
export function checkCreationBytecode(signed: SignedTransaction): void {
  if (signed.tx.to !== undefined || !isEraVmBytecode(signed.tx.data)) return
  throw new TransactionRejectedError(`${ERAVM_REFUSAL} (this creation's ${signed.tx.data.length}-byte code is EraVM-shaped: whole 32-byte words, an odd number, starting with 0x00)`)
}
