/**
 * A 0x71 transaction whose `from` is a contract account (ZKsync's IAccount), run the way ZKsync's
 * bootloader runs it (docs/zksync.md, "Contract accounts"). The signature is the account's to
 * check: nothing here recovers it. Every step is a real EVM call from the bootloader's address,
 * 0x…8001, with the transaction as era-contracts' `Transaction` struct:
 *
 * 1. `validateTransaction(txHash, suggestedSignedHash, transaction)` must return one word, the
 *    magic `IAccount.validateTransaction.selector`. While it runs, NonceHolder's
 *    `incrementMinNonceIfEquals(nonce)` accepts the transaction's nonce (rollup/nonceHolder.ts);
 *    afterwards the account's nonce is incremented once, whether it called that or not.
 * 2. Without a paymaster, `payForTransaction`: the bootloader must then hold gasLimit ×
 *    maxFeePerGas more than before (more is sent back). With one, the account's
 *    `prepareForPaymaster`, then the paymaster's `validateAndPayForPaymasterTransaction`.
 * 3. `executeTransaction`, run as the bootloader's own transaction to the account (through
 *    `execute`: runTx, or a tracer around it), paid from what the bootloader received. Its revert
 *    is the transaction's: status 0, the fee still paid.
 * 4. With a paymaster, its `postTransaction` (its failure ignored, as ZKsync ignores it).
 * 5. The steps' gas is paid at the run's price; the payer gets back the rest.
 *
 * A failed step 1 or 2 refuses the transaction with ZKsync's wording, and nothing of it stays.
 */
import type { Block } from '@ethereumjs/block'
import { EVMError, type EVMResult } from '@ethereumjs/evm'
import { Account, Address, createAddressFromString, equalsBytes, hexToBytes } from '@ethereumjs/util'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import { TransactionRejectedError } from '../errors.ts'
import { minimumGasLimit } from '../chain/admission.ts'
import {
  EXECUTE_TRANSACTION_SELECTOR,
  isAccountMagic,
  PAY_FOR_TRANSACTION_SELECTOR,
  PREPARE_FOR_PAYMASTER_SELECTOR,
  transactionCalldata,
  VALIDATE_TRANSACTION_SELECTOR,
  type BootloaderTransaction,
} from '../rollup/bootloaderTransaction.ts'
import { executableTransaction, readEip712Transaction, type DecodedFields } from '../rollup/eip712Transaction.ts'
import { withNonceOpen } from '../rollup/nonceHolder.ts'
import {
  addBalance,
  balanceOf,
  BOOTLOADER_ADDRESS,
  call,
  failureReason,
  paymasterRefusal,
  paymasterValidateAndPay,
  postTransaction,
  settleFee,
  validationRefusal,
  withSteps,
  type ExecuteTransaction,
  type Log,
  type StepRun,
} from './bootloaderSteps.ts'
import type { SignedTransaction } from './rawTransaction.ts'
import { isDelegation } from './senderCode.ts'
import { CONTRACT_DEPLOYED } from './contractDeployerHook.ts'
import { CONTRACT_DEPLOYER_ADDRESS } from '../rollup/systemContracts.ts'

/** zksync-era's text for a `validateTransaction` that did not return the magic. */
export const INVALID_MAGIC = 'Account validation returned invalid magic value. Most often this means that the signature is incorrect'

/** Whether `address` holds a contract (an EIP-7702 delegation is still an EOA, which signs for itself). */
export async function isContractAccount(vm: VM, address: Address): Promise<boolean> {
  const code = await vm.stateManager.getCode(address)
  return code.length > 0 && !isDelegation(code)
}

/** What the bootloader passes a contract account about its transaction. */
export interface AccountView {
  account: Address
  transaction: BootloaderTransaction
  txHash: Uint8Array
  /** The EIP-712 digest of the transaction's fields (IAccount's `suggestedSignedHash`). */
  signedHash: Uint8Array
  paymaster: Address | undefined
}

/** The account's view of a 0x71 transaction, and its decoded fields. */
export function accountView(signed: SignedTransaction): AccountView & { fields: DecodedFields } {
  const reading = readEip712Transaction(signed.eip712!.raw)
  const paymaster = signed.eip712!.paymaster
  return {
    account: createAddressFromString(signed.from),
    transaction: { ...reading.signed, signature: reading.signature },
    fields: reading.fields,
    txHash: hexToBytes(signed.hash),
    signedHash: reading.digest,
    paymaster: paymaster ? createAddressFromString(paymaster.address) : undefined,
  }
}

export interface AccountValidation extends StepRun {
  /** Who paid the bootloader the fee: the account, or the paymaster. */
  payer: Address
  /** What it paid: gasLimit × maxFeePerGas. */
  paid: bigint
  /** The paymaster's context for its postTransaction. */
  context: Uint8Array
}

export interface ValidationMode {
  /** The gas the steps may use (the transaction's gas limit; an estimate's cap). */
  gasLimit?: bigint
  /**
   * Whether a wrong magic refuses the transaction. Fee estimation runs validation with a dummy
   * signature and does not, as ZKsync's bootloader does not in its estimation mode.
   */
  ensureMagic?: boolean
}

/**
 * Steps 1 and 2 above: the account's validation, its nonce used, and the fee paid to the
 * bootloader. Throws the refusal when a step fails; leaves the state changed otherwise (the
 * caller's checkpoint).
 */
export async function validateAccountTransaction(
  vm: VM,
  block: Block,
  view: AccountView,
  { gasLimit = view.transaction.gasLimit, ensureMagic = true }: ValidationMode = {},
): Promise<AccountValidation> {
  const { account, transaction, txHash, signedHash } = view
  let gasLeft = gasLimit
  const logs: Log[] = []
  const spend = (result: EVMResult) => {
    gasLeft -= result.execResult.executionGasUsed
    logs.push(...(result.execResult.logs ?? []))
  }
  const accountCall = (selector: Uint8Array) => call(vm, block, BOOTLOADER_ADDRESS, account, transactionCalldata(selector, txHash, signedHash, transaction), gasLeft)

  const { result: validation } = await withNonceOpen(vm.evm, transaction.nonce, () => accountCall(VALIDATE_TRANSACTION_SELECTOR))
  // A step that fails: out of gas in any of them is ZKsync's validation out of gas, else the step's own halt.
  const refusal = (halt: string, result: EVMResult) =>
    validationRefusal(
      result.execResult.exceptionError?.error === EVMError.errorMessages.OUT_OF_GAS
        ? `Account validation error: Not enough gas for transaction validation (${gasLeft} gas left of the gas limit ${transaction.gasLimit})`
        : `${halt}: ${failureReason(result)}`,
    )
  if (validation.execResult.exceptionError) throw refusal('Account validation error', validation)
  // One word whatever the mode; the magic itself only when it is enforced.
  const returned = validation.execResult.returnValue
  if (returned.length !== 32 || (ensureMagic && !isAccountMagic(returned))) throw validationRefusal(`Account validation error: ${INVALID_MAGIC}`)
  spend(validation)
  const state = (await vm.stateManager.getAccount(account)) ?? new Account()
  state.nonce += 1n
  await vm.evm.journal.putAccount(account, state)

  const required = transaction.gasLimit * transaction.maxFeePerGas
  if (!view.paymaster) {
    const before = await balanceOf(vm, BOOTLOADER_ADDRESS)
    const payment = await accountCall(PAY_FOR_TRANSACTION_SELECTOR)
    if (payment.execResult.exceptionError) throw refusal('Failed to pay for the transaction', payment)
    spend(payment)
    const received = (await balanceOf(vm, BOOTLOADER_ADDRESS)) - before
    if (received < required) {
      throw validationRefusal(`Failed to charge fee: the account sent the bootloader ${received} wei, gasLimit × maxFeePerGas is ${required}`)
    }
    // Anything beyond the fee goes straight back, as the bootloader returns it.
    if (received > required) {
      await addBalance(vm, BOOTLOADER_ADDRESS, required - received)
      await addBalance(vm, account, received - required)
    }
    return { gasUsed: gasLimit - gasLeft, logs, payer: account, paid: required, context: new Uint8Array() }
  }

  const paymaster = view.paymaster
  if ((await vm.stateManager.getCode(paymaster)).length === 0) throw paymasterRefusal(`the paymaster ${paymaster.toString()} has no code`)
  const preparation = await accountCall(PREPARE_FOR_PAYMASTER_SELECTOR)
  if (preparation.execResult.exceptionError) throw refusal('Pre-paymaster preparation error', preparation)
  spend(preparation)
  const paid = await paymasterValidateAndPay(vm, block, { transaction, txHash, signedHash, paymaster }, gasLeft)
  gasLeft -= paid.gasUsed
  logs.push(...paid.logs)
  return { gasUsed: gasLimit - gasLeft, logs, payer: paymaster, paid: required, context: paid.context }
}

/** `executeTransaction(txHash, suggestedSignedHash, transaction)`, the call step 3 runs. */
export function executeCalldata(view: AccountView): Uint8Array {
  return transactionCalldata(EXECUTE_TRANSACTION_SELECTOR, view.txHash, view.signedHash, view.transaction)
}

/**
 * The run with `createdAddress` set to the first contract the account deployed through the
 * ContractDeployer (its `ContractDeployed` event, deployer the account), so that the receipt's
 * `contractAddress` names it as ZKsync's does (the first code the transaction deployed). An EOA's
 * call to 0x…8006 is its own creation, which runTx reports already (exec/contractDeployerHook.ts).
 */
function withDeployment(result: RunTxResult, account: Address): RunTxResult {
  if (result.execResult.exceptionError || result.createdAddress) return result
  const deployed = result.receipt.logs.find(
    ([address, topics]) =>
      equalsBytes(address, CONTRACT_DEPLOYER.bytes) && topics.length === 4 && equalsBytes(topics[0], CONTRACT_DEPLOYED) && equalsBytes(topics[1].subarray(12), account.bytes),
  )
  return deployed ? { ...result, createdAddress: new Address(deployed[1][3].subarray(12)) } : result
}

const CONTRACT_DEPLOYER = createAddressFromString(CONTRACT_DEPLOYER_ADDRESS)

/**
 * Runs a contract account's transaction (steps 1 to 5 above) under its own checkpoint. Returns
 * step 3's result with the gas, fee and logs of every step, as the receipt shows them.
 */
export async function runAccountTransaction(
  vm: VM,
  block: Block,
  signed: SignedTransaction,
  execute: ExecuteTransaction,
  checkNonce: boolean,
): Promise<RunTxResult> {
  const view = accountView(signed)
  const { account, transaction, fields } = view

  await vm.evm.journal.checkpoint()
  try {
    if (checkNonce) {
      const nonce = (await vm.stateManager.getAccount(account))?.nonce ?? 0n
      if (nonce !== transaction.nonce) {
        throw new TransactionRejectedError(`invalid nonce: the account ${signed.from} is at nonce ${nonce}, the transaction has nonce ${transaction.nonce}`)
      }
    }
    const validation = await validateAccountTransaction(vm, block, view)

    // Step 3, as a transaction of the bootloader's (so runTx prices it, and tracers see it),
    // whose nonce it does not keep.
    const executionGasLimit = transaction.gasLimit - validation.gasUsed
    const bootloaderNonce = (await vm.stateManager.getAccount(BOOTLOADER_ADDRESS))?.nonce ?? 0n
    const tx = executableTransaction(
      { ...fields, nonce: bootloaderNonce, gasLimit: executionGasLimit, to: account.bytes, value: 0n, data: executeCalldata(view) },
      BOOTLOADER_ADDRESS.toString(),
      vm.common,
    )
    const needed = minimumGasLimit(tx)
    if (executionGasLimit < needed) {
      throw new TransactionRejectedError(
        `intrinsic gas too low: the account's validation and payment used ${validation.gasUsed} of the gas limit ${transaction.gasLimit}, leaving ${executionGasLimit}; executeTransaction needs at least ${needed}`,
      )
    }
    const result = withDeployment(await execute(tx), account)
    const bootloader = (await vm.stateManager.getAccount(BOOTLOADER_ADDRESS))!
    bootloader.nonce = bootloaderNonce
    await vm.evm.journal.putAccount(BOOTLOADER_ADDRESS, bootloader)

    const post: StepRun = view.paymaster
      ? await postTransaction(
          vm,
          block,
          { ...view, paymaster: view.paymaster },
          validation.context,
          result.execResult.exceptionError === undefined,
          executionGasLimit - result.totalGasSpent,
        )
      : { gasUsed: 0n, logs: [] }

    const stepsGas = validation.gasUsed + post.gasUsed
    const stepsFee = await settleFee(vm, block, result, stepsGas, validation.paid, validation.payer)
    await vm.evm.journal.commit()
    return withSteps(vm, result, stepsGas, stepsFee, validation.logs, post.logs)
  } catch (error) {
    await vm.evm.journal.revert()
    throw error
  }
}
