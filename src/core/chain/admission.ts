import { Capability, type TypedTransaction } from '@ethereumjs/tx'
import type { Account } from '@ethereumjs/util'
import { AlreadyKnownError, InsufficientFundsError, NonceTooLowError, TransactionRejectedError } from '../errors.ts'
import type { SignedTransaction } from '../exec/rawTransaction.ts'
import type { TxPool } from './txPool.ts'

export interface AdmissionContext {
  pool: TxPool
  /** Whether a mined transaction already has this hash. */
  isMined(hash: string): boolean
  /** The sender's account at the head (undefined: it does not exist yet). */
  account: Account | undefined
  baseFeePerGas: bigint
  /** The node's price floor (anvil_setMinGasPrice); 0 when the base fee is the only one. */
  minGasPrice?: bigint
  blockGasLimit: bigint
  /** The paymaster of a 0x71 transaction that names one, and its account at the head: it pays the fee. */
  paymaster?: { address: string; account: Account | undefined }
}

/** Replacing a pooled transaction needs both fee caps raised by at least this (geth's default). */
const PRICE_BUMP_PERCENT = 10n

/**
 * Checks a signed transaction against the head state and the pool, the way geth's txpool does,
 * with geth's wording. Returns whether it can run now ('pending') or waits for a nonce gap to
 * fill ('queued').
 */
export function checkAdmission(signed: SignedTransaction, ctx: AdmissionContext): 'pending' | 'queued' {
  const { tx, from, hash } = signed
  if (ctx.pool.get(hash) || ctx.isMined(hash)) throw new AlreadyKnownError(hash)

  const stateNonce = ctx.account?.nonce ?? 0n
  if (tx.nonce < stateNonce) throw new NonceTooLowError(from, tx.nonce, stateNonce)

  if (tx.gasLimit > ctx.blockGasLimit) {
    throw new TransactionRejectedError(`exceeds block gas limit: gas ${tx.gasLimit}, limit ${ctx.blockGasLimit}`)
  }
  const minimumGas = minimumGasLimit(tx)
  if (tx.gasLimit < minimumGas) {
    throw new TransactionRejectedError(`intrinsic gas too low: gas ${tx.gasLimit}, minimum needed ${minimumGas}`)
  }

  const feeCap = maxFeePerGas(tx)
  if (feeCap < ctx.baseFeePerGas) {
    throw new TransactionRejectedError(
      `max fee per gas less than block base fee: address ${from}, maxFeePerGas: ${feeCap}, baseFee: ${ctx.baseFeePerGas}`,
    )
  }

  if (ctx.minGasPrice !== undefined && feeCap < ctx.minGasPrice) {
    throw new TransactionRejectedError(`transaction underpriced: gas fee cap ${feeCap}, minimum needed ${ctx.minGasPrice}`)
  }

  const fee = tx.gasLimit * feeCap
  const balance = ctx.account?.balance ?? 0n
  // With a paymaster the account pays the value and the paymaster the fee (exec/bootloader.ts).
  const cost = ctx.paymaster ? tx.value : fee + tx.value
  if (balance < cost) throw new InsufficientFundsError(from, balance, cost)
  if (ctx.paymaster) {
    const paymasterBalance = ctx.paymaster.account?.balance ?? 0n
    if (paymasterBalance < fee) throw new InsufficientFundsError(ctx.paymaster.address, paymasterBalance, fee)
  }

  const occupant = ctx.pool.atNonce(from, tx.nonce)
  if (occupant && !outbids(tx, occupant.tx)) {
    throw new TransactionRejectedError('replacement transaction underpriced')
  }

  const executable = stateNonce + BigInt(ctx.pool.executableCount(from, stateNonce))
  return tx.nonce <= executable ? 'pending' : 'queued'
}

/** Intrinsic gas, or the EIP-7623 calldata floor when that is higher (Prague). */
export function minimumGasLimit(tx: TypedTransaction): bigint {
  const common = tx.common
  let tokens = 0n
  for (const byte of tx.data) tokens += byte === 0 ? 1n : 4n
  const floor = common.isActivatedEIP(7623)
    ? common.param('txGas') + common.param('totalCostFloorPerToken') * tokens
    : 0n
  const intrinsic = tx.getIntrinsicGas()
  return intrinsic > floor ? intrinsic : floor
}

export function maxFeePerGas(tx: TypedTransaction): bigint {
  return tx.supports(Capability.EIP1559FeeMarket)
    ? (tx as { maxFeePerGas: bigint }).maxFeePerGas
    : (tx as { gasPrice: bigint }).gasPrice
}

export function maxPriorityFeePerGas(tx: TypedTransaction): bigint {
  return tx.supports(Capability.EIP1559FeeMarket)
    ? (tx as { maxPriorityFeePerGas: bigint }).maxPriorityFeePerGas
    : (tx as { gasPrice: bigint }).gasPrice
}

function outbids(candidate: TypedTransaction, current: TypedTransaction): boolean {
  const bumped = (value: bigint) => value + (value * PRICE_BUMP_PERCENT) / 100n
  return (
    maxFeePerGas(candidate) >= bumped(maxFeePerGas(current)) &&
    maxPriorityFeePerGas(candidate) >= bumped(maxPriorityFeePerGas(current))
  )
}
