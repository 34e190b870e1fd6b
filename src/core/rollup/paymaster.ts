import type { SignedTransaction } from '../exec/rawTransaction.ts'
import { TransactionRejectedError } from '../errors.ts'

/**
 * Paymasters are EraVM accounts whose validation the bootloader runs before a transaction; an
 * EVM node has neither, so a transaction that names one is refused rather than run as if it
 * paid for itself.
 */
export function checkPaymaster(signed: SignedTransaction): void {
  const paymaster = signed.eip712?.paymaster
  if (!paymaster) return
  throw new TransactionRejectedError(
    `paymaster ${paymaster.address} cannot pay here: paymasters are EraVM contracts and this node runs the EVM; send the transaction without paymasterParams`,
  )
}
