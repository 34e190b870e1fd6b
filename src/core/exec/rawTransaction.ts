import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { createTxFromRLP, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { Address, bytesToBigInt, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { engineMessage } from './engineMessage.ts'
import { InvalidParamsError, TransactionRejectedError } from '../errors.ts'
import { EIP712_TX_TYPE } from '../rollup/eip712Hash.ts'
import { decodeEip712Transaction, type Eip712Fields } from '../rollup/eip712Transaction.ts'
import { transactionLimits } from './codeSizeLimit.ts'
import { keccak256 } from './fastCrypto.ts'

/** A signed transaction whose sender has been recovered (once: ecrecover is the costliest step). */
export interface SignedTransaction {
  /** What the EVM runs. For a ZKsync 0x71 transaction, an unsigned stand-in from `from`. */
  tx: TypedTransaction
  hash: PrefixedHexString
  from: PrefixedHexString
  /** Present for ZKsync EIP-712 (0x71) transactions: what `tx` cannot carry. */
  eip712?: Eip712Fields
}

/** The transaction type as clients see it (0x71 for ZKsync EIP-712 transactions). */
export function transactionType(signed: SignedTransaction): number {
  return signed.eip712 ? EIP712_TX_TYPE : signed.tx.type
}

/** The signed bytes of a transaction: what blocks, the transactions trie and the store carry. */
export function transactionBytes(signed: SignedTransaction): Uint8Array {
  return signed.eip712 ? signed.eip712.raw : serializedOnce(signed.tx)
}

/**
 * Asked for by the hash, the block (trie, size) and its record; serialize() converts every field
 * again each time.
 */
function serializedOnce(tx: TypedTransaction): Uint8Array {
  let bytes = serialized.get(tx)
  if (!bytes) serialized.set(tx, (bytes = tx.serialize()))
  return bytes
}

/** Transactions are frozen once decoded: their bytes never change. */
const serialized = new WeakMap<TypedTransaction, Uint8Array>()

/**
 * The sender's address, recovered once: ethereumjs caches a frozen transaction's public key but
 * derives the address from it again on every `getSenderAddress()`, with a pure-JS keccak that
 * `customCrypto` does not reach. Here it is derived once, with the node's keccak. A transaction
 * whose sender was given rather than signed for (stored, impersonated, 0x71) is not frozen, as its
 * own `getSenderAddress` had to be set: that one answers.
 */
export function senderAddress(tx: TypedTransaction): Address {
  let address = senders.get(tx)
  if (!address) {
    address = Object.isFrozen(tx) ? new Address(keccak256(tx.getSenderPublicKey()).subarray(-20)) : tx.getSenderAddress()
    senders.set(tx, address)
  }
  return address
}

const senders = new WeakMap<TypedTransaction, Address>()

const SUPPORTED_TYPES = new Set<number>([
  TransactionType.AccessListEIP2930,
  TransactionType.FeeMarketEIP1559,
  TransactionType.EOACodeEIP7702,
])

const TYPE_NAMES: Record<number, string> = {
  [TransactionType.BlobEIP4844]: 'blob (EIP-4844) transactions need a KZG setup this node does not have',
}

/**
 * Decodes a raw signed transaction (legacy with or without EIP-155, EIP-2930, EIP-1559,
 * EIP-7702, ZKsync EIP-712), checks its chain id and signature, and recovers its sender. Errors
 * use geth's wording so that client libraries that match on it keep working.
 */
export function decodeRawTransaction(raw: Uint8Array, common: Common): SignedTransaction {
  if (raw.length === 0) throw new InvalidParamsError('invalid transaction: empty input')
  const first = raw[0]
  if (first === EIP712_TX_TYPE) return decodeEip712Transaction(raw, common)
  const typed = first <= 0x7f
  if (typed && !SUPPORTED_TYPES.has(first)) {
    const why = TYPE_NAMES[first] ?? `type ${first} is unknown`
    throw new TransactionRejectedError(`transaction type not supported: ${why}`)
  }

  const chainId = declaredChainId(raw, typed)
  if (chainId !== undefined && chainId !== common.chainId()) {
    throw new TransactionRejectedError(`invalid chain id for signer: have ${chainId} want ${common.chainId()}`)
  }

  let tx: TypedTransaction
  try {
    tx = createTxFromRLP(raw, { common, ...transactionLimits(common) })
  } catch (error) {
    throw decodeFailure(error)
  }
  if (!tx.isSigned()) throw new TransactionRejectedError('invalid sender: transaction is not signed')
  let from: PrefixedHexString
  try {
    from = bytesToHex(senderAddress(tx).bytes)
  } catch {
    throw new TransactionRejectedError('invalid sender: the signature does not recover to an address')
  }
  // tx.hash() is keccak256(serialize()) for every type: hashed from the bytes the block keeps.
  return { tx, hash: bytesToHex(keccak256(serializedOnce(tx))), from }
}

/** The chain id a raw transaction commits to, or undefined for a pre-EIP-155 legacy one. */
function declaredChainId(raw: Uint8Array, typed: boolean): bigint | undefined {
  let fields: unknown
  try {
    fields = RLP.decode(typed ? raw.subarray(1) : raw)
  } catch (error) {
    throw decodeFailure(error)
  }
  if (!Array.isArray(fields) || fields.length === 0 || !(fields[0] instanceof Uint8Array)) {
    throw new InvalidParamsError('invalid transaction: expected an RLP list of fields')
  }
  if (typed) return bytesToBigInt(fields[0])
  const v = fields[6]
  if (!(v instanceof Uint8Array)) throw new InvalidParamsError('invalid transaction: legacy transaction without a signature')
  const value = bytesToBigInt(v)
  return value === 27n || value === 28n ? undefined : (value - 35n) / 2n
}

/**
 * Why ethereumjs could not decode the bytes, in geth's words. Its errors carry no code of their
 * own (EthereumJSErrorWithoutCode), so their text is the only way to tell them apart: it is read
 * here, at the engine's edge, and never past it.
 */
function decodeFailure(error: unknown): Error {
  const message = engineMessage(error)
  const cause = { cause: error }
  if (/signature|s-value|v value|y-parity|recovery/i.test(message)) {
    return new TransactionRejectedError(`invalid transaction v, r, s values: ${message}`, cause)
  }
  // ethereumjs refuses it while decoding; geth's txpool names it (and so do clients that match).
  if (/authorization list is empty/.test(message)) {
    return new TransactionRejectedError('EIP-7702 transaction with empty auth list', cause)
  }
  if (/maxFeePerGas cannot be less than maxPriorityFeePerGas/.test(message)) {
    return new TransactionRejectedError('max priority fee per gas higher than max fee per gas', cause)
  }
  return new InvalidParamsError(`invalid transaction: ${message}`, cause)
}
