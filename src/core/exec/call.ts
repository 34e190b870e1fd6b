import type { Block } from '@ethereumjs/block'
import { createTx, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import {
  Account,
  createAddressFromString,
  EthereumJSError,
  createZeroAddress,
  hexToBytes,
  setLengthLeft,
  type Address,
  type PrefixedHexString,
} from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import { ExecutionError, ExecutionRevertedError, GasLimitTooLowError } from '../errors.ts'
import { engineMessage } from './engineMessage.ts'
import { runFromAnySender } from './senderCode.ts'
import { decodeRevertReason } from './revertReason.ts'
import { transactionLimits } from './codeSizeLimit.ts'

/** An eth_call / eth_estimateGas call object after parsing. */
export interface CallRequest {
  from?: PrefixedHexString
  to?: PrefixedHexString
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  value?: bigint
  data?: Uint8Array
  accessList?: { address: PrefixedHexString; storageKeys: PrefixedHexString[] }[]
  /**
   * Checked; used only by eth_simulateV1's validation (the nonce to run with, default the
   * sender's): other calls run at the sender's nonce, as geth's do.
   */
  nonce?: bigint
  /** Checked (a type this node runs) and not used: the fee fields choose how a call is priced. */
  type?: number
  /** Must be the node's (checked where the node is known: callSandbox.ts). */
  chainId?: bigint
  /**
   * A 0x71 call's `eip712Meta.paymasterParams`: estimates add the paymaster's validation
   * (exec/bootloader.ts), and the account pays no fee.
   */
  paymaster?: { address: PrefixedHexString; input: Uint8Array }
  /**
   * Present for a 0x71 call object (type 0x71, or `eip712Meta`): from a contract account, its
   * estimate runs the account's steps (exec/accountTransaction.ts), with `eip712Meta.customSignature`
   * as the signature when given.
   */
  eip712?: { customSignature?: Uint8Array }
}

export interface RunCallOptions {
  /** Have runTx list the addresses and slots touched (eth_createAccessList). */
  reportAccessList?: boolean
  /**
   * Run as a real transaction would (eth_simulateV1's validation): the sender's nonce and balance
   * are checked and it pays for its gas; no gas money is lent.
   */
  validate?: boolean
}

/** geth's state override set: per address, replace or patch balance, nonce, code and storage. */
export type StateOverrides = Record<
  PrefixedHexString,
  {
    balance?: bigint
    nonce?: bigint
    code?: Uint8Array
    state?: Record<PrefixedHexString, PrefixedHexString>
    stateDiff?: Record<PrefixedHexString, PrefixedHexString>
  }
>

/** Whether applying these overrides replaces a whole storage (see StateMachine.freshSandbox). */
export function replacesStorage(overrides: StateOverrides | undefined): boolean {
  return overrides !== undefined && Object.values(overrides).some((o) => o.state !== undefined)
}

export async function applyStateOverrides(vm: VM, overrides: StateOverrides): Promise<void> {
  const sm = vm.stateManager
  for (const [hex, override] of Object.entries(overrides)) {
    const address = createAddressFromString(hex)
    const account = (await sm.getAccount(address)) ?? new Account()
    if (override.balance !== undefined) account.balance = override.balance
    if (override.nonce !== undefined) account.nonce = override.nonce
    await sm.putAccount(address, account)
    if (override.code !== undefined) await sm.putCode(address, override.code)
    if (override.state !== undefined) await sm.clearStorage(address)
    for (const [slot, value] of Object.entries(override.state ?? override.stateDiff ?? {})) {
      await sm.putStorage(address, setLengthLeft(hexToBytes(slot as PrefixedHexString), 32), hexToBytes(value as PrefixedHexString))
    }
  }
}

/**
 * Runs a call as a transaction from `from` without a signature (docs/ethereumjs-notes.md, "Running
 * a transaction without a signature"), so intrinsic gas, refunds and warm addresses are exactly a
 * real transaction's. Nonce checks are skipped and a sender short of gas money is topped up; the
 * caller runs this inside a checkpoint that is reverted.
 */
export async function runCall(vm: VM, context: Block, request: CallRequest, gasLimit: bigint, options: RunCallOptions = {}): Promise<RunTxResult> {
  return (await runCallTransaction(vm, context, request, gasLimit, options)).result
}

/** runCall, with the unsigned transaction it ran (eth_simulateV1 puts it in a block). */
export async function runCallTransaction(
  vm: VM,
  context: Block,
  request: CallRequest,
  gasLimit: bigint,
  { reportAccessList = false, validate = false }: RunCallOptions = {},
): Promise<{ tx: TypedTransaction; result: RunTxResult }> {
  const from = request.from ? createAddressFromString(request.from) : createZeroAddress()
  const account = await vm.stateManager.getAccount(from)
  const value = request.value ?? 0n
  const balance = account?.balance ?? 0n
  if (value > balance) {
    throw new ExecutionError(`insufficient funds for gas * price + value: address ${from.toString()} have ${balance} want ${value}`)
  }
  const nonce = validate ? (request.nonce ?? account?.nonce ?? 0n) : (account?.nonce ?? 0n)
  const tx = impersonatedTransaction(vm, context, request, from, nonce, gasLimit)
  if (!validate && !isPriced(request)) await creditGasMoney(vm, from, account, gasLimit * (context.header.baseFeePerGas ?? 0n))
  try {
    // A call may come from a contract, as geth allows (see runFromAnySender).
    const result = await runFromAnySender(vm, from, () =>
      runTx(vm, {
        tx,
        block: context,
        skipNonce: !validate,
        skipBalance: !validate,
        skipBlockGasLimitValidation: true,
        skipHardForkValidation: true,
        reportAccessList,
      }),
    )
    return { tx, result }
  } catch (error) {
    // runTx refuses to run a transaction with an EthereumJSError; anything else it throws is
    // not a refusal (a bug, here or in the engine), and is left to become an internal error.
    if (!(error instanceof EthereumJSError)) throw error
    const message = engineMessage(error)
    // Its errors carry no code of their own (all EthereumJSErrorWithoutCode): only their text
    // says that the gas limit is below the intrinsic gas, so it is read here, once, at the
    // engine's edge, and callers test the class (eth_estimateGas then tries a higher limit).
    if (/gas limit|intrinsic/i.test(message)) throw new GasLimitTooLowError(message, { cause: error })
    throw new ExecutionError(message, { cause: error })
  }
}

/** Whether the caller named a gas price; geth and anvil run unpriced calls for free. */
export function isPriced(request: CallRequest): boolean {
  return (request.gasPrice ?? 0n) > 0n || (request.maxFeePerGas ?? 0n) > 0n
}

/**
 * An unpriced call still runs at the base fee (BASEFEE must be the block's), so runTx takes
 * gas · baseFee from the sender up front. Crediting that amount first makes the sender see its
 * own balance during the call, as it would at price 0 (`msg.sender.balance`, BALANCE).
 */
async function creditGasMoney(vm: VM, from: Address, account: Account | undefined, amount: bigint): Promise<void> {
  const credited = account
    ? new Account(account.nonce, account.balance + amount, account.storageRoot, account.codeHash)
    : new Account(0n, amount)
  await vm.stateManager.putAccount(from, credited)
}

/** Turns a failed execution into geth's errors: code 3 with the revert data, else -32000. */
export function assertSuccess(result: RunTxResult): void {
  const failure = result.execResult.exceptionError
  if (!failure) return
  if (failure.error === 'revert') {
    const data = result.execResult.returnValue
    throw new ExecutionRevertedError(decodeRevertReason(data), bytesToHex(data))
  }
  throw new ExecutionError(gethExecutionError(failure.error))
}

/** ethereumjs' EVM error strings in geth's words (what tools match on). */
export function gethExecutionError(error: string): string {
  // ethereumjs appends the location to a bad jump ("invalid JUMP at <code hash>/<address>:<pc>").
  if (error.startsWith('invalid JUMP')) return 'invalid jump destination'
  switch (error) {
    case 'revert':
      return 'execution reverted'
    case 'static state change':
      return 'write protection'
    case 'create collision':
      return 'contract address collision'
    case 'code size to deposit exceeds maximum code size':
      return 'max code size exceeded'
    default:
      return error
  }
}

function impersonatedTransaction(
  vm: VM,
  context: Block,
  request: CallRequest,
  from: Address,
  nonce: bigint,
  gasLimit: bigint,
): TypedTransaction {
  const baseFee = context.header.baseFeePerGas ?? 0n
  const common = vm.common
  const accessList = request.accessList?.map((entry) => ({ address: entry.address, storageKeys: entry.storageKeys }))
  const shared = { nonce, gasLimit, to: request.to, value: request.value ?? 0n, data: request.data ?? new Uint8Array() }
  // A zero or missing price runs at the base fee: BASEFEE stays the block's, and the sender is
  // topped up for it (skipBalance), so the call still cannot fail for want of gas money.
  const tx =
    request.gasPrice !== undefined && request.gasPrice > 0n
      ? createTx(
          { ...shared, type: accessList ? TransactionType.AccessListEIP2930 : TransactionType.Legacy, gasPrice: request.gasPrice, accessList },
          { common, freeze: false, ...transactionLimits(common) },
        )
      : createTx(
          {
            ...shared,
            type: TransactionType.FeeMarketEIP1559,
            maxFeePerGas: request.maxFeePerGas || baseFee,
            maxPriorityFeePerGas: request.maxPriorityFeePerGas ?? 0n,
            accessList,
          },
          { common, freeze: false, ...transactionLimits(common) },
        )
  tx.getSenderAddress = () => from
  return tx
}
