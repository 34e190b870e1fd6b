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
 */
import type { Block } from '@ethereumjs/block'
import type { EVMResult } from '@ethereumjs/evm'
import { Account, createAddressFromString, equalsBytes, hexToBytes, type Address } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { Bloom, type RunTxResult, type VM } from '@ethereumjs/vm'
import { TransactionRejectedError } from '../errors.ts'
import {
  approveCalldata,
  decodeValidationResult,
  paymasterFlow,
  postTransactionCalldata,
  VALIDATE_AND_PAY_SELECTOR,
  validateAndPayCalldata,
  type BootloaderTransaction,
} from '../rollup/bootloaderTransaction.ts'
import { executableTransaction, readEip712Transaction, type DecodedFields } from '../rollup/eip712Transaction.ts'
import { minimumGasLimit } from '../chain/admission.ts'
import { decodeRevertReason } from './revertReason.ts'
import type { SignedTransaction } from './rawTransaction.ts'

export const BOOTLOADER_ADDRESS = createAddressFromString('0x0000000000000000000000000000000000008001')

/** Runs the transaction itself (runTx, or a tracer around it). */
export type ExecuteTransaction = (tx: SignedTransaction['tx']) => Promise<RunTxResult>

type Log = RunTxResult['receipt']['logs'][number]

/** What ZKsync's API answers when a paymaster refuses or fails: the node's error text. */
function paymasterRefusal(reason: string): TransactionRejectedError {
  return new TransactionRejectedError(`failed to validate the transaction. reason: Validation revert: Paymaster validation error: ${reason}`)
}

function failureReason(result: EVMResult): string {
  const error = result.execResult.exceptionError
  if (!error) return ''
  return decodeRevertReason(result.execResult.returnValue) ?? (error.error === 'revert' ? 'execution reverted' : error.error)
}

/** What the bootloader passes a paymaster about a transaction. */
export interface PaymasterView {
  transaction: BootloaderTransaction
  txHash: Uint8Array
  /** The EIP-712 digest the account signed (IPaymaster's `suggestedSignedHash`). */
  signedHash: Uint8Array
  paymaster: Address
}

/** The bootloader's view of a 0x71 transaction with a paymaster; undefined when it names none. */
export function bootloaderView(signed: SignedTransaction): (PaymasterView & { fields: DecodedFields }) | undefined {
  const paymaster = signed.eip712?.paymaster
  if (!signed.eip712 || !paymaster) return undefined
  const reading = readEip712Transaction(signed.eip712.raw)
  const { fields } = reading
  const transaction: BootloaderTransaction = { ...reading.signed, signature: reading.signature }
  return { transaction, fields, txHash: hexToBytes(signed.hash), signedHash: reading.digest, paymaster: createAddressFromString(paymaster.address) }
}

interface StepRun {
  gasUsed: bigint
  logs: Log[]
}

/** A call from the bootloader (or, for the approval, from the account) that never touches nonces. */
async function call(vm: VM, block: Block, caller: Address, to: Address, data: Uint8Array, gasLimit: bigint): Promise<EVMResult> {
  return vm.evm.runCall({ caller, origin: caller, to, data, gasLimit, block, skipNonceIncrement: true })
}

async function balanceOf(vm: VM, address: Address): Promise<bigint> {
  return (await vm.stateManager.getAccount(address))?.balance ?? 0n
}

async function addBalance(vm: VM, address: Address, delta: bigint): Promise<void> {
  const account = (await vm.stateManager.getAccount(address)) ?? new Account()
  account.balance += delta
  if (account.balance < 0n) throw new Error(`bootloader: ${address.toString()} cannot give ${-delta} wei`)
  await vm.evm.journal.putAccount(address, account)
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

  const required = transaction.gasLimit * transaction.maxFeePerGas
  const before = await balanceOf(vm, BOOTLOADER_ADDRESS)
  const validation = await call(vm, block, BOOTLOADER_ADDRESS, paymaster, validateAndPayCalldata(view.txHash, view.signedHash, transaction), gasLeft)
  if (validation.execResult.exceptionError) throw paymasterRefusal(failureReason(validation))
  const decoded = decodeValidationResult(validation.execResult.returnValue)
  if (!decoded || !equalsBytes(decoded.magic, VALIDATE_AND_PAY_SELECTOR)) {
    throw paymasterRefusal('Paymaster validation returned invalid magic value. Please refer to the documentation of the paymaster for more details')
  }
  const received = (await balanceOf(vm, BOOTLOADER_ADDRESS)) - before
  if (received < required) {
    throw paymasterRefusal(`Paymaster did not pay enough for the transaction: it paid ${received} wei, gasLimit × maxFeePerGas is ${required}`)
  }
  gasLeft -= validation.execResult.executionGasUsed
  logs.push(...(validation.execResult.logs ?? []))
  return { gasUsed: gasLimit - gasLeft, logs, context: decoded.context }
}

/** Step 4, `postTransaction`: its gas, and its logs unless it failed (a failure changes nothing else). */
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
  const baseFee = block.header.baseFeePerGas ?? 0n

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

    // Step 5: the steps' gas is paid at the run's price (its base fee burned, its tip to the
    // coinbase, as runTx pays the run's), and the rest of what the paymaster paid goes back.
    const stepsGas = validation.gasUsed + postGas
    const price = result.totalGasSpent > 0n ? result.amountSpent / result.totalGasSpent : baseFee
    const stepsFee = stepsGas * price
    const tip = stepsGas * (price > baseFee ? price - baseFee : 0n)
    if (tip > 0n) await addBalance(vm, block.header.coinbase, tip)
    const spent = result.amountSpent + stepsFee
    await addBalance(vm, BOOTLOADER_ADDRESS, -(paid - result.amountSpent))
    await addBalance(vm, paymaster, paid - spent)
    await vm.evm.journal.commit()
    return withSteps(vm, result, stepsGas, stepsFee, validation.logs, postLogs)
  } catch (error) {
    await vm.evm.journal.revert()
    throw error
  }
}

/** The run's result as the receipt shows the whole transaction: every step's gas, fee and logs. */
function withSteps(vm: VM, result: RunTxResult, stepsGas: bigint, stepsFee: bigint, before: Log[], after: Log[]): RunTxResult {
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

/**
 * Runs a transaction as the bootloader would: one with a paymaster through its steps, any other
 * as `execute` runs it. Mining, the trace replay and the detailed output all come through here,
 * so they compute the same.
 */
export function runAsBootloader(vm: VM, block: Block, signed: SignedTransaction, execute: ExecuteTransaction): Promise<RunTxResult> {
  return signed.eip712?.paymaster ? runPaymasterTransaction(vm, block, signed, execute) : execute(signed.tx)
}
