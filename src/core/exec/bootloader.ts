/**
 * A 0x71 transaction with `paymasterParams`, run the way ZKsync's bootloader runs it for an EOA
 * (docs/zksync.md, "Paymasters"): every step is a real EVM call whose `msg.sender` is the
 * bootloader's address, 0x…8001.
 *
 * 1. For the `approvalBased` flow, the account approves the paymaster for `minAllowance` of the
 *    token (ZKsync's default account does this in `prepareForPaymaster`; the account's signature
 *    was already checked when the transaction was decoded).
 * 2. The paymaster's `validateAndPayForPaymasterTransaction(txHash, signedHash, transaction)`
 *    must return the magic (its own selector) and send the bootloader gasLimit × maxFeePerGas.
 * 3. The transaction runs as the account's own (runTx: its nonce, its value), with the gas the
 *    validation left. The EVM charges its sender for gas, so the bootloader lends the account
 *    the fee for the run and takes back what the run did not spend.
 * 4. The paymaster's `postTransaction(context, …, result, maxRefundedGas)`; its failure is
 *    ignored, as ZKsync ignores it.
 * 5. The paymaster gets back what the gas it paid for did not use.
 *
 * The receipt's gas and logs cover every step. A failed step 1 or 2 fails the whole transaction
 * before it runs: nothing of it stays, and it is refused with ZKsync's wording.
 *
 * A 0x71 transaction whose `from` is a contract account runs its own flow
 * (exec/accountTransaction.ts); `runAsBootloader` chooses.
 */
import type { Block } from '@ethereumjs/block'
import { createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import { TransactionRejectedError } from '../errors.ts'
import { approveCalldata, paymasterFlow, type BootloaderTransaction } from '../rollup/bootloaderTransaction.ts'
import { executableTransaction, readEip712Transaction, type DecodedFields } from '../rollup/eip712Transaction.ts'
import { minimumGasLimit } from '../chain/admission.ts'
import type { SignedTransaction } from './rawTransaction.ts'
import { accountView, isContractAccount, runAccountTransaction, validateAccountTransaction } from './accountTransaction.ts'
import {
  addBalance,
  BOOTLOADER_ADDRESS,
  call,
  failureReason,
  paymasterRefusal,
  paymasterValidateAndPay,
  postTransaction,
  settleFee,
  withSteps,
  type ExecuteTransaction,
  type Log,
  type PaymasterView,
  type StepRun,
} from './bootloaderSteps.ts'

export { BOOTLOADER_ADDRESS, postTransaction, type ExecuteTransaction, type PaymasterView } from './bootloaderSteps.ts'

/** The bootloader's view of a 0x71 transaction with a paymaster; undefined when it names none. */
export function bootloaderView(signed: SignedTransaction): (PaymasterView & { fields: DecodedFields }) | undefined {
  const paymaster = signed.eip712?.paymaster
  if (!signed.eip712 || !paymaster) return undefined
  const reading = readEip712Transaction(signed.eip712.raw)
  const { fields } = reading
  const transaction: BootloaderTransaction = { ...reading.signed, signature: reading.signature }
  return { transaction, fields, txHash: hexToBytes(signed.hash), signedHash: reading.digest, paymaster: createAddressFromString(paymaster.address) }
}

/**
 * Steps 1 and 2: the approval (approvalBased) and the paymaster's validation and payment, within
 * `gasLimit` (the transaction's; an estimate's cap). Throws the refusal when a step fails; leaves
 * the state changed otherwise (the caller's checkpoint).
 */
export async function validatePaymaster(
  vm: VM,
  block: Block,
  view: PaymasterView,
  gasLimit = view.transaction.gasLimit,
): Promise<StepRun & { context: Uint8Array }> {
  const { transaction, paymaster } = view
  const from = createAddressFromString(bytesToHex(transaction.from))
  const flow = paymasterFlow(transaction.paymasterInput)
  if (flow.kind === 'invalid') throw paymasterRefusal(flow.reason)
  const paymasterCode = await vm.stateManager.getCode(paymaster)
  if (paymasterCode.length === 0) throw paymasterRefusal(`the paymaster ${paymaster.toString()} has no code`)

  let gasLeft = gasLimit
  const logs: Log[] = []
  if (flow.kind === 'approvalBased') {
    const token = createAddressFromString(bytesToHex(flow.token))
    const approval = await call(vm, block, from, token, approveCalldata(transaction.paymaster, flow.minAllowance), gasLeft)
    if (approval.execResult.exceptionError) {
      throw paymasterRefusal(`the approval of ${flow.minAllowance} of token ${token.toString()} to the paymaster failed: ${failureReason(approval)}`)
    }
    gasLeft -= approval.execResult.executionGasUsed
    logs.push(...(approval.execResult.logs ?? []))
  }

  const validation = await paymasterValidateAndPay(vm, block, view, gasLeft)
  gasLeft -= validation.gasUsed
  logs.push(...validation.logs)
  return { gasUsed: gasLimit - gasLeft, logs, context: validation.context }
}

/**
 * Runs a paymaster's transaction (steps 1 to 5 above) under its own checkpoint; `execute` runs
 * step 3's transaction (runTx, or a tracer around it). Returns the run's result with the gas,
 * fee and logs of every step.
 */
export async function runPaymasterTransaction(
  vm: VM,
  block: Block,
  signed: SignedTransaction,
  execute: ExecuteTransaction,
): Promise<RunTxResult> {
  const view = bootloaderView(signed)!
  const { transaction, fields, paymaster } = view
  const from = signed.tx.getSenderAddress()

  await vm.evm.journal.checkpoint()
  try {
    // The nonce is runTx's to check (step 3): a wrong one undoes the steps before it.
    const validation = await validatePaymaster(vm, block, view)
    const paid = transaction.gasLimit * transaction.maxFeePerGas

    // Step 3: the fee for the gas left is lent to the account for runTx's own accounting.
    const executionGasLimit = transaction.gasLimit - validation.gasUsed
    const tx = executableTransaction({ ...fields, gasLimit: executionGasLimit }, signed.from, vm.common)
    const needed = minimumGasLimit(tx)
    if (executionGasLimit < needed) {
      throw new TransactionRejectedError(
        `intrinsic gas too low: the paymaster's validation used ${validation.gasUsed} of the gas limit ${transaction.gasLimit}, leaving ${executionGasLimit}; the transaction itself needs at least ${needed}`,
      )
    }
    const lent = executionGasLimit * transaction.maxFeePerGas
    await addBalance(vm, BOOTLOADER_ADDRESS, -lent)
    await addBalance(vm, from, lent)
    const result = await execute(tx)
    await addBalance(vm, from, -(lent - result.amountSpent))
    await addBalance(vm, BOOTLOADER_ADDRESS, lent - result.amountSpent)

    // Step 4, with what is left of the gas limit.
    const gasLeft = executionGasLimit - result.totalGasSpent
    const { gasUsed: postGas, logs: postLogs } = await postTransaction(vm, block, view, validation.context, result.execResult.exceptionError === undefined, gasLeft)

    // Step 5: the steps' gas at the run's price, the rest of what the paymaster paid back to it.
    const stepsGas = validation.gasUsed + postGas
    const stepsFee = await settleFee(vm, block, result, stepsGas, paid, paymaster)
    await vm.evm.journal.commit()
    return withSteps(vm, result, stepsGas, stepsFee, validation.logs, postLogs)
  } catch (error) {
    await vm.evm.journal.revert()
    throw error
  }
}

/**
 * Runs a transaction as the bootloader would: a 0x71 transaction from a contract account through
 * the account's steps (exec/accountTransaction.ts), an EOA's with a paymaster through the steps
 * above, any other as `execute` runs it. Mining, the trace replay and the detailed output all
 * come through here, so they compute the same. `checkNonce: false` (the detailed output) leaves
 * a contract account's nonce unchecked, as `execute` then leaves an EOA's.
 */
export async function runAsBootloader(
  vm: VM,
  block: Block,
  signed: SignedTransaction,
  execute: ExecuteTransaction,
  { checkNonce = true }: { checkNonce?: boolean } = {},
): Promise<RunTxResult> {
  if (signed.eip712 && (await isContractAccount(vm, createAddressFromString(signed.from)))) {
    return runAccountTransaction(vm, block, signed, execute, checkNonce)
  }
  // Admitted as a contract account's, whose code is gone since: no one checked its signature.
  if (signed.eip712?.signatureRefusal !== undefined) throw new TransactionRejectedError(signed.eip712.signatureRefusal)
  return signed.eip712?.paymaster ? runPaymasterTransaction(vm, block, signed, execute) : execute(signed.tx)
}

/**
 * What ZKsync checks of a 0x71 transaction before it accepts it, run on the state `vm` holds
 * (the head's, in a sandbox): a contract account's validation and payment (or its paymaster's),
 * an EOA's paymaster's validation; and a signature that is not `from`'s own, from an address that
 * is no contract account, refused. Throws the refusal.
 */
export async function validateForAdmission(vm: VM, block: Block, signed: SignedTransaction): Promise<void> {
  if (!signed.eip712) return
  if (await isContractAccount(vm, createAddressFromString(signed.from))) {
    await validateAccountTransaction(vm, block, accountView(signed))
    return
  }
  if (signed.eip712.signatureRefusal !== undefined) throw new TransactionRejectedError(signed.eip712.signatureRefusal)
  if (signed.eip712.paymaster) await validatePaymaster(vm, block, bootloaderView(signed)!)
}
