/**
 * The steps ZKsync's bootloader runs around a transaction, shared by its two flows here: an EOA's
 * transaction with a paymaster (exec/bootloader.ts) and a contract account's transaction
 * (exec/accountTransaction.ts). Each step is a real EVM call whose `msg.sender` is the
 * bootloader's address, 0x…8001; the bootloader is paid in ETH and settles the fee afterwards.
 */
import type { Block } from '@ethereumjs/block'
import type { EVMResult } from '@ethereumjs/evm'
import { Account, createAddressFromString, equalsBytes, type Address } from '@ethereumjs/util'
import { Bloom, type RunTxResult, type VM } from '@ethereumjs/vm'
import { TransactionRejectedError } from '../errors.ts'
import {
  decodeValidationResult,
  postTransactionCalldata,
  VALIDATE_AND_PAY_SELECTOR,
  validateAndPayCalldata,
  type BootloaderTransaction,
} from '../rollup/bootloaderTransaction.ts'
import { decodeRevertReason } from './revertReason.ts'
import type { SignedTransaction } from './rawTransaction.ts'

export const BOOTLOADER_ADDRESS = createAddressFromString('0x0000000000000000000000000000000000008001')

/** Runs the transaction itself (runTx, or a tracer around it). */
export type ExecuteTransaction = (tx: SignedTransaction['tx']) => Promise<RunTxResult>

export type Log = RunTxResult['receipt']['logs'][number]

/**
 * A transaction the bootloader refuses during validation, in ZKsync's API wording: `halt` is the
 * VM's halt as zksync-era prints it ("Account validation error: …", "Paymaster validation error:
 * …", "Failed to pay for the transaction: …").
 */
export function validationRefusal(halt: string): TransactionRejectedError {
  return new TransactionRejectedError(`failed to validate the transaction. reason: Validation revert: ${halt}`)
}

/** What ZKsync's API answers when a paymaster refuses or fails. */
export function paymasterRefusal(reason: string): TransactionRejectedError {
  return validationRefusal(`Paymaster validation error: ${reason}`)
}

/** Why a step failed: its revert reason, or the EVM's error. */
export function failureReason(result: EVMResult): string {
  const error = result.execResult.exceptionError
  if (!error) return ''
  return decodeRevertReason(result.execResult.returnValue) ?? (error.error === 'revert' ? 'execution reverted' : error.error)
}

/** What the bootloader passes a paymaster (and an account) about a transaction. */
export interface PaymasterView {
  transaction: BootloaderTransaction
  txHash: Uint8Array
  /** The EIP-712 digest the account signed (IPaymaster's `suggestedSignedHash`). */
  signedHash: Uint8Array
  paymaster: Address
}

export interface StepRun {
  gasUsed: bigint
  logs: Log[]
}

/** A call from the bootloader (or, for an EOA's approval, from the account) that never touches nonces. */
export async function call(vm: VM, block: Block, caller: Address, to: Address, data: Uint8Array, gasLimit: bigint): Promise<EVMResult> {
  return vm.evm.runCall({ caller, origin: caller, to, data, gasLimit, block, skipNonceIncrement: true })
}

export async function balanceOf(vm: VM, address: Address): Promise<bigint> {
  return (await vm.stateManager.getAccount(address))?.balance ?? 0n
}

export async function addBalance(vm: VM, address: Address, delta: bigint): Promise<void> {
  const account = (await vm.stateManager.getAccount(address)) ?? new Account()
  account.balance += delta
  if (account.balance < 0n) throw new Error(`bootloader: ${address.toString()} cannot give ${-delta} wei`)
  await vm.evm.journal.putAccount(address, account)
}

/**
 * The paymaster's `validateAndPayForPaymasterTransaction`, within `gasLimit`: it must return the
 * magic (its own selector) and send the bootloader gasLimit × maxFeePerGas. Throws the refusal.
 */
export async function paymasterValidateAndPay(
  vm: VM,
  block: Block,
  view: PaymasterView,
  gasLimit: bigint,
): Promise<StepRun & { context: Uint8Array }> {
  const { transaction, paymaster } = view
  const required = transaction.gasLimit * transaction.maxFeePerGas
  const before = await balanceOf(vm, BOOTLOADER_ADDRESS)
  const validation = await call(vm, block, BOOTLOADER_ADDRESS, paymaster, validateAndPayCalldata(view.txHash, view.signedHash, transaction), gasLimit)
  if (validation.execResult.exceptionError) throw paymasterRefusal(failureReason(validation))
  const decoded = decodeValidationResult(validation.execResult.returnValue)
  if (!decoded || !equalsBytes(decoded.magic, VALIDATE_AND_PAY_SELECTOR)) {
    throw paymasterRefusal('Paymaster validation returned invalid magic value. Please refer to the documentation of the paymaster for more details')
  }
  const received = (await balanceOf(vm, BOOTLOADER_ADDRESS)) - before
  if (received < required) {
    throw paymasterRefusal(`Paymaster did not pay enough for the transaction: it paid ${received} wei, gasLimit × maxFeePerGas is ${required}`)
  }
  return { gasUsed: validation.execResult.executionGasUsed, logs: validation.execResult.logs ?? [], context: decoded.context }
}

/** `postTransaction`: its gas, and its logs unless it failed (a failure changes nothing else). */
export async function postTransaction(
  vm: VM,
  block: Block,
  view: PaymasterView,
  context: Uint8Array,
  success: boolean,
  gasLimit: bigint,
): Promise<StepRun> {
  const { transaction, txHash, signedHash, paymaster } = view
  const post = await call(vm, block, BOOTLOADER_ADDRESS, paymaster, postTransactionCalldata(context, transaction, txHash, signedHash, success, gasLimit), gasLimit)
  return { gasUsed: post.execResult.executionGasUsed, logs: post.execResult.exceptionError ? [] : (post.execResult.logs ?? []) }
}

/**
 * The last step: the gas of the steps around the run (`stepsGas`) is paid at the run's price, its
 * base fee burned and its tip to the coinbase, as runTx paid the run's; what the payer sent the
 * bootloader (`paid`) beyond that goes back to it. Returns the steps' fee.
 */
export async function settleFee(vm: VM, block: Block, run: RunTxResult, stepsGas: bigint, paid: bigint, payer: Address): Promise<bigint> {
  const baseFee = block.header.baseFeePerGas ?? 0n
  const price = run.totalGasSpent > 0n ? run.amountSpent / run.totalGasSpent : baseFee
  const stepsFee = stepsGas * price
  const tip = stepsGas * (price > baseFee ? price - baseFee : 0n)
  if (tip > 0n) await addBalance(vm, block.header.coinbase, tip)
  const spent = run.amountSpent + stepsFee
  await addBalance(vm, BOOTLOADER_ADDRESS, -(paid - run.amountSpent))
  await addBalance(vm, payer, paid - spent)
  return stepsFee
}

/** The run's result as the receipt shows the whole transaction: every step's gas, fee and logs. */
export function withSteps(vm: VM, result: RunTxResult, stepsGas: bigint, stepsFee: bigint, before: Log[], after: Log[]): RunTxResult {
  const logs = [...before, ...result.receipt.logs, ...after]
  const bloom = new Bloom(undefined, vm.common)
  for (const [address, topics] of logs) {
    bloom.add(address)
    for (const topic of topics) bloom.add(topic)
  }
  return {
    ...result,
    totalGasSpent: result.totalGasSpent + stepsGas,
    amountSpent: result.amountSpent + stepsFee,
    bloom,
    receipt: {
      ...result.receipt,
      cumulativeBlockGasUsed: result.receipt.cumulativeBlockGasUsed + stepsGas,
      bitvector: bloom.bitvector,
      logs,
    },
  }
}
