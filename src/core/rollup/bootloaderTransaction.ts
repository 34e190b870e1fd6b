/**
 * What ZKsync's bootloader passes to accounts and paymasters: the `Transaction` struct of
 * era-contracts' TransactionHelper.sol, ABI-encoded, and the IAccount and IPaymaster calls that
 * carry it (docs/zksync.md, "Contract accounts" and "Paymasters"). Written out by hand: the core
 * has no ABI library, and the struct is fixed.
 */
import { bigIntToBytes, bytesToBigInt, concatBytes, equalsBytes, setLengthLeft, setLengthRight, utf8ToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { EIP712_TX_TYPE, type Eip712SignedFields } from './eip712Hash.ts'

/**
 * The struct's fields: those the sender signed (addresses as their 20 bytes; an empty `to`, a
 * deployment, is encoded as 0) and the signature.
 */
export type BootloaderTransaction = Omit<Eip712SignedFields, 'chainId'> & { signature: Uint8Array }

const TRANSACTION_TUPLE =
  '(uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256[4],bytes,bytes,bytes32[],bytes,bytes)'

const selector = (signature: string) => keccak_256(utf8ToBytes(signature)).subarray(0, 4)

/** IPaymaster.validateAndPayForPaymasterTransaction; its selector is also the success magic. */
export const VALIDATE_AND_PAY_SELECTOR = selector(`validateAndPayForPaymasterTransaction(bytes32,bytes32,${TRANSACTION_TUPLE})`)
export const POST_TRANSACTION_SELECTOR = selector(`postTransaction(bytes,${TRANSACTION_TUPLE},bytes32,bytes32,uint8,uint256)`)
/** IAccount's calls, all `(bytes32 txHash, bytes32 suggestedSignedHash, Transaction)`. */
export const VALIDATE_TRANSACTION_SELECTOR = selector(`validateTransaction(bytes32,bytes32,${TRANSACTION_TUPLE})`)
export const PAY_FOR_TRANSACTION_SELECTOR = selector(`payForTransaction(bytes32,bytes32,${TRANSACTION_TUPLE})`)
export const PREPARE_FOR_PAYMASTER_SELECTOR = selector(`prepareForPaymaster(bytes32,bytes32,${TRANSACTION_TUPLE})`)
export const EXECUTE_TRANSACTION_SELECTOR = selector(`executeTransaction(bytes32,bytes32,${TRANSACTION_TUPLE})`)
/** IPaymasterFlow's selectors, the first four bytes of `paymasterInput`. */
export const GENERAL_FLOW_SELECTOR = selector('general(bytes)')
export const APPROVAL_BASED_FLOW_SELECTOR = selector('approvalBased(address,uint256,bytes)')
const APPROVE_SELECTOR = selector('approve(address,uint256)')

const word = (value: bigint) => setLengthLeft(bigIntToBytes(value), 32)
const addressWord = (address: Uint8Array) => setLengthLeft(address, 32)

/** `bytes` in the tail: its length, then its data padded to whole words. */
function dynamicBytes(data: Uint8Array): Uint8Array {
  return concatBytes(word(BigInt(data.length)), setLengthRight(data, Math.ceil(data.length / 32) * 32))
}

/** A tuple of head words (static values) and dynamic parts, each in the tail at its offset. */
function tuple(parts: ({ static: Uint8Array } | { dynamic: Uint8Array })[]): Uint8Array {
  const headLength = parts.reduce((sum, part) => sum + ('static' in part ? part.static.length : 32), 0)
  const heads: Uint8Array[] = []
  const tails: Uint8Array[] = []
  let offset = headLength
  for (const part of parts) {
    if ('static' in part) {
      heads.push(part.static)
    } else {
      heads.push(word(BigInt(offset)))
      tails.push(part.dynamic)
      offset += part.dynamic.length
    }
  }
  return concatBytes(...heads, ...tails)
}

/** The struct's encoding (a dynamic tuple, so as an argument it sits behind an offset). */
export function encodeTransaction(tx: BootloaderTransaction): Uint8Array {
  return tuple([
    { static: word(BigInt(EIP712_TX_TYPE)) },
    { static: addressWord(tx.from) },
    { static: addressWord(tx.to) },
    { static: word(tx.gasLimit) },
    { static: word(tx.gasPerPubdata) },
    { static: word(tx.maxFeePerGas) },
    { static: word(tx.maxPriorityFeePerGas) },
    { static: addressWord(tx.paymaster) },
    { static: word(tx.nonce) },
    { static: word(tx.value) },
    { static: new Uint8Array(4 * 32) },
    { dynamic: dynamicBytes(tx.data) },
    { dynamic: dynamicBytes(tx.signature) },
    { dynamic: concatBytes(word(BigInt(tx.factoryDepHashes.length)), ...tx.factoryDepHashes) },
    { dynamic: dynamicBytes(tx.paymasterInput) },
    { dynamic: dynamicBytes(new Uint8Array()) },
  ])
}

/** A call `selector(txHash, suggestedSignedHash, transaction)`: IAccount's four, and the paymaster's validation. */
export function transactionCalldata(selector: Uint8Array, txHash: Uint8Array, signedHash: Uint8Array, tx: BootloaderTransaction): Uint8Array {
  return concatBytes(selector, tuple([{ static: txHash }, { static: signedHash }, { dynamic: encodeTransaction(tx) }]))
}

/** `validateAndPayForPaymasterTransaction(txHash, suggestedSignedHash, transaction)`. */
export function validateAndPayCalldata(txHash: Uint8Array, signedHash: Uint8Array, tx: BootloaderTransaction): Uint8Array {
  return transactionCalldata(VALIDATE_AND_PAY_SELECTOR, txHash, signedHash, tx)
}

/**
 * Whether `validateTransaction` returned the magic: exactly one word, the selector left-aligned
 * and the rest zero (the bootloader compares the whole word, and refuses any other length).
 */
export function isAccountMagic(returnValue: Uint8Array): boolean {
  return returnValue.length === 32 && equalsBytes(returnValue, setLengthRight(VALIDATE_TRANSACTION_SELECTOR, 32))
}

/** `postTransaction(context, transaction, txHash, suggestedSignedHash, txResult, maxRefundedGas)`. */
export function postTransactionCalldata(
  context: Uint8Array,
  tx: BootloaderTransaction,
  txHash: Uint8Array,
  signedHash: Uint8Array,
  success: boolean,
  maxRefundedGas: bigint,
): Uint8Array {
  return concatBytes(
    POST_TRANSACTION_SELECTOR,
    tuple([
      { dynamic: dynamicBytes(context) },
      { dynamic: encodeTransaction(tx) },
      { static: txHash },
      { static: signedHash },
      { static: word(success ? 1n : 0n) },
      { static: word(maxRefundedGas) },
    ]),
  )
}

/** `approve(spender, amount)`, what the bootloader has an EOA call before an approval-based flow. */
export function approveCalldata(spender: Uint8Array, amount: bigint): Uint8Array {
  return concatBytes(APPROVE_SELECTOR, addressWord(spender), word(amount))
}

/** A paymaster's input, read as ZKsync's bootloader reads it: the flow, and for approvalBased its token and allowance. */
export type PaymasterFlow = { kind: 'general' } | { kind: 'approvalBased'; token: Uint8Array; minAllowance: bigint }

export function paymasterFlow(input: Uint8Array): PaymasterFlow | { kind: 'invalid'; reason: string } {
  if (input.length < 4) return { kind: 'invalid', reason: 'The standard paymaster input must be at least 4 bytes long' }
  const flow = input.subarray(0, 4)
  if (flow.every((byte, i) => byte === GENERAL_FLOW_SELECTOR[i])) return { kind: 'general' }
  if (!flow.every((byte, i) => byte === APPROVAL_BASED_FLOW_SELECTOR[i])) return { kind: 'invalid', reason: 'Unsupported paymaster flow' }
  if (input.length < 4 + 64) return { kind: 'invalid', reason: 'The approvalBased paymaster input is too short' }
  const tokenWord = input.subarray(4, 36)
  if (tokenWord.subarray(0, 12).some((byte) => byte !== 0)) return { kind: 'invalid', reason: 'The approvalBased token is not an address' }
  return { kind: 'approvalBased', token: tokenWord.subarray(12), minAllowance: bytesToBigInt(input.subarray(36, 68)) }
}

/**
 * `(bytes4 magic, bytes context)` as a paymaster returns it; undefined when the data does not
 * decode (ZKsync then fails the validation too).
 */
export function decodeValidationResult(data: Uint8Array): { magic: Uint8Array; context: Uint8Array } | undefined {
  if (data.length < 64) return undefined
  const offset = bytesToBigInt(data.subarray(32, 64))
  if (offset + 32n > BigInt(data.length)) return undefined
  const start = Number(offset)
  const length = bytesToBigInt(data.subarray(start, start + 32))
  if (BigInt(start) + 32n + length > BigInt(data.length)) return undefined
  return { magic: data.subarray(0, 4), context: data.subarray(start + 32, start + 32 + Number(length)) }
}
