import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import {
  bytesToBigInt,
  concatBytes,
  createAddressFromString,
  ecrecover,
  publicToAddress,
  setLengthLeft,
  type PrefixedHexString,
} from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import type { SignedTransaction } from '../exec/rawTransaction.ts'
import { InvalidParamsError, TransactionRejectedError } from '../errors.ts'
import { bytecodeHash, InvalidBytecodeError } from './bytecodeHash.ts'
import { EIP712_TX_TYPE, eip712Digest, eip712TransactionHash, type Eip712SignedFields } from './eip712Hash.ts'
import { transactionLimits } from '../exec/codeSizeLimit.ts'

/**
 * What a ZKsync EIP-712 (0x71) transaction carries beyond the EVM transaction that stands in for
 * it (`SignedTransaction.tx`, an unsigned EIP-1559 transaction from the same sender).
 */
export interface Eip712Fields {
  /** The signed bytes as submitted: blocks, the transactions trie and the store keep these. */
  raw: Uint8Array
  gasPerPubdata: bigint
  /** Bytecodes published with the transaction (zks_getBytecodeByHash serves them). */
  factoryDeps: Uint8Array[]
  /** Their versioned hashes, in the same order. */
  factoryDepHashes: Uint8Array[]
  /** The signature era records: the custom signature, or r‖s‖v with v as 27/28. 65 bytes. */
  signature: Uint8Array
  paymaster: { address: PrefixedHexString; input: Uint8Array } | undefined
  /**
   * Why the signature is not `from`'s own ECDSA signature, when it is not. Such a transaction is
   * valid only from a contract account, whose validateTransaction decides (exec/accountTransaction.ts);
   * from an address without code it is refused with this. Unset for a transaction restored from
   * the store: it was admitted.
   */
  signatureRefusal?: string
}

/** The 16 RLP fields, in wire order (zksync-ethers `serializeEip712`, era `TransactionRequest::from_bytes`). */
const FIELD_COUNT = 16

/** The 16 fields of a 0x71 transaction, decoded. */
export interface DecodedFields {
  nonce: bigint
  maxPriorityFeePerGas: bigint
  maxFeePerGas: bigint
  gasLimit: bigint
  to: Uint8Array
  value: bigint
  data: Uint8Array
  v: Uint8Array
  r: Uint8Array
  s: Uint8Array
  chainId: bigint
  from: Uint8Array
  gasPerPubdata: bigint
  factoryDeps: Uint8Array[]
  customSignature: Uint8Array
  paymaster: Uint8Array
  paymasterInput: Uint8Array
}

function invalid(message: string): InvalidParamsError {
  return new InvalidParamsError(`invalid transaction: ${message}`)
}

function quantity(bytes: unknown, name: string): bigint {
  if (!(bytes instanceof Uint8Array) || bytes.length > 32) throw invalid(`${name} must be an integer of at most 32 bytes`)
  return bytesToBigInt(bytes)
}

function bytes(value: unknown, name: string): Uint8Array {
  if (!(value instanceof Uint8Array)) throw invalid(`${name} must be a byte string, not a list`)
  return value
}

function address(value: unknown, name: string, optional: boolean): Uint8Array {
  const raw = bytes(value, name)
  if (raw.length === 20 || (optional && raw.length === 0)) return raw
  throw invalid(`${name} must be a 20-byte address${optional ? ' or empty' : ''}`)
}

function parseFields(raw: Uint8Array): DecodedFields {
  let decoded: unknown
  try {
    decoded = RLP.decode(raw.subarray(1))
  } catch (error) {
    throw invalid(error instanceof Error ? error.message : String(error))
  }
  if (!Array.isArray(decoded) || decoded.length !== FIELD_COUNT) {
    const count = Array.isArray(decoded) ? decoded.length : 0
    throw invalid(`an EIP-712 transaction is an RLP list of ${FIELD_COUNT} fields, got ${count}`)
  }
  const f = decoded as unknown[]
  const deps = f[13]
  if (!Array.isArray(deps)) throw invalid('factoryDeps must be a list of bytecodes')
  const paymasterParams = f[15]
  if (!Array.isArray(paymasterParams) || (paymasterParams.length !== 0 && paymasterParams.length !== 2)) {
    throw invalid('paymasterParams must be an empty list or [paymaster, paymasterInput]')
  }
  return {
    nonce: quantity(f[0], 'nonce'),
    maxPriorityFeePerGas: quantity(f[1], 'maxPriorityFeePerGas'),
    maxFeePerGas: quantity(f[2], 'maxFeePerGas'),
    gasLimit: quantity(f[3], 'gasLimit'),
    to: address(f[4], 'to', true),
    value: quantity(f[5], 'value'),
    data: bytes(f[6], 'data'),
    v: bytes(f[7], 'v'),
    r: bytes(f[8], 'r'),
    s: bytes(f[9], 's'),
    chainId: quantity(f[10], 'chainId'),
    from: address(f[11], 'from', false),
    gasPerPubdata: quantity(f[12], 'gasPerPubdata'),
    factoryDeps: deps.map((dep, i) => bytes(dep, `factoryDeps[${i}]`)),
    customSignature: bytes(f[14], 'customSignature'),
    paymaster: paymasterParams.length === 2 ? address(paymasterParams[0], 'paymaster', false) : new Uint8Array(),
    paymasterInput: paymasterParams.length === 2 ? bytes(paymasterParams[1], 'paymasterInput') : new Uint8Array(),
  }
}

function factoryDepHashes(deps: Uint8Array[]): Uint8Array[] {
  return deps.map((dep, i) => {
    try {
      return bytecodeHash(dep)
    } catch (error) {
      if (error instanceof InvalidBytecodeError) {
        throw new TransactionRejectedError(`invalid factory dependency #${i}: ${error.message}`, { cause: error })
      }
      throw error
    }
  })
}

/**
 * The signature era hashes and records: the custom signature when there is one, else r‖s‖v
 * from the RLP fields with v as 27/28.
 */
function signatureBytes(fields: DecodedFields): Uint8Array {
  if (fields.customSignature.length > 0) return fields.customSignature
  if (fields.r.length === 0 && fields.s.length === 0) throw new TransactionRejectedError('invalid sender: transaction is not signed')
  if (fields.r.length > 32 || fields.s.length > 32) throw new TransactionRejectedError('invalid transaction v, r, s values: r and s are 32 bytes at most')
  const v = bytesToBigInt(fields.v)
  if (v !== 0n && v !== 1n && v !== 27n && v !== 28n) {
    throw new TransactionRejectedError(`invalid transaction v, r, s values: v must be 0, 1, 27 or 28, got ${v}`)
  }
  return concatBytes(setLengthLeft(fields.r, 32), setLengthLeft(fields.s, 32), new Uint8Array([v < 27n ? Number(v) + 27 : Number(v)]))
}

function recoverSigner(digest: Uint8Array, signature: Uint8Array): Uint8Array {
  try {
    return publicToAddress(ecrecover(digest, BigInt(signature[64]), signature.subarray(0, 32), signature.subarray(32, 64)))
  } catch {
    throw new TransactionRejectedError('invalid sender: the signature does not recover to an address')
  }
}

/**
 * The EVM transaction a 0x71 transaction runs as: an unsigned EIP-1559 transaction with the same
 * nonce, fees, gas, target, value and data, whose sender is `from` (docs/ethereumjs-notes.md,
 * "Running a transaction without a signature"). Never put into an @ethereumjs/block: its hash()
 * throws. The bootloader (exec/bootloader.ts) makes one with the gas its validation left.
 */
export function executableTransaction(fields: DecodedFields, from: PrefixedHexString, common: Common) {
  if (fields.maxPriorityFeePerGas > fields.maxFeePerGas) {
    throw new TransactionRejectedError('max priority fee per gas higher than max fee per gas')
  }
  const tx = createFeeMarket1559Tx(
    {
      chainId: common.chainId(),
      nonce: fields.nonce,
      maxFeePerGas: fields.maxFeePerGas,
      maxPriorityFeePerGas: fields.maxPriorityFeePerGas,
      gasLimit: fields.gasLimit,
      to: fields.to.length === 0 ? undefined : fields.to,
      value: fields.value,
      data: fields.data,
    },
    { common, freeze: false, ...transactionLimits(common) },
  )
  const sender = createAddressFromString(from)
  tx.getSenderAddress = () => sender
  return tx
}

/** A parsed 0x71 transaction with what it signs and its hash; nothing checked against a chain yet. */
export interface Eip712Reading {
  raw: Uint8Array
  fields: DecodedFields
  /** The fields its sender signed (and the bootloader passes on: bootloaderTransaction.ts). */
  signed: Eip712SignedFields
  factoryDepHashes: Uint8Array[]
  /** The EIP-712 digest of its fields. */
  digest: Uint8Array
  signature: Uint8Array
  hash: PrefixedHexString
}

/** Parses 0x71 bytes and computes the digest its sender signed and ZKsync's transaction hash. */
export function readEip712Transaction(raw: Uint8Array): Eip712Reading {
  const fields = parseFields(raw)
  const hashes = factoryDepHashes(fields.factoryDeps)
  const signed: Eip712SignedFields = {
    chainId: fields.chainId,
    from: fields.from,
    to: fields.to,
    gasLimit: fields.gasLimit,
    gasPerPubdata: fields.gasPerPubdata,
    maxFeePerGas: fields.maxFeePerGas,
    maxPriorityFeePerGas: fields.maxPriorityFeePerGas,
    paymaster: fields.paymaster,
    nonce: fields.nonce,
    value: fields.value,
    data: fields.data,
    factoryDepHashes: hashes,
    paymasterInput: fields.paymasterInput,
  }
  const digest = eip712Digest(signed)
  const signature = signatureBytes(fields)
  return { raw, fields, signed, factoryDepHashes: hashes, digest, signature, hash: bytesToHex(eip712TransactionHash(digest, signature)) }
}

function toSigned(
  { raw, fields, factoryDepHashes, signature, hash }: Omit<Eip712Reading, 'digest' | 'signed'>,
  common: Common,
  signatureRefusal?: string,
): SignedTransaction {
  const from = bytesToHex(fields.from)
  return {
    tx: executableTransaction(fields, from, common),
    hash,
    from,
    eip712: {
      raw,
      gasPerPubdata: fields.gasPerPubdata,
      factoryDeps: fields.factoryDeps,
      factoryDepHashes,
      signature,
      // The zero address is no paymaster, as for ZKsync's bootloader (and the signed digest, where both are 0).
      paymaster: fields.paymaster.some((byte) => byte !== 0) ? { address: bytesToHex(fields.paymaster), input: fields.paymasterInput } : undefined,
      ...(signatureRefusal === undefined ? {} : { signatureRefusal }),
    },
  }
}

/**
 * Decodes a submitted 0x71 transaction: checks its chain id and factory dependencies, and
 * computes ZKsync's transaction hash. Its signature is checked as `from`'s ECDSA signature over
 * the EIP-712 digest; one that is not is kept as the account's own (a contract account checks it
 * in validateTransaction), with why it is no ECDSA signature of `from` (`signatureRefusal`), which
 * admission answers when `from` has no code.
 */
export function decodeEip712Transaction(raw: Uint8Array, common: Common): SignedTransaction {
  const reading = readEip712Transaction(raw)
  const { fields } = reading
  if (fields.chainId !== common.chainId()) {
    throw new TransactionRejectedError(`invalid chain id for signer: have ${fields.chainId} want ${common.chainId()}`)
  }
  return toSigned(reading, common, ecdsaSignatureProblem(reading))
}

/** Why the signature is not `from`'s ECDSA signature of the digest; undefined when it is. */
function ecdsaSignatureProblem({ fields, signature, digest }: Eip712Reading): string | undefined {
  if (signature.length !== 65) {
    return `invalid sender: the custom signature must be a 65-byte ECDSA signature of the from account, got ${signature.length} bytes (or from must be a contract account)`
  }
  let signer: PrefixedHexString
  try {
    signer = bytesToHex(recoverSigner(digest, signature))
  } catch (error) {
    return (error as Error).message
  }
  const from = bytesToHex(fields.from)
  return signer === from ? undefined : `invalid sender: the signature is by ${signer}, not by the from address ${from}`
}

/**
 * Rebuilds a 0x71 transaction the node accepted before (from the store): its sender is in the
 * bytes and its hash is known, so no signature is recovered again.
 */
export function restoreEip712Transaction(raw: Uint8Array, hash: PrefixedHexString, common: Common): SignedTransaction {
  const fields = parseFields(raw)
  return toSigned({ raw, fields, factoryDepHashes: factoryDepHashes(fields.factoryDeps), signature: signatureBytes(fields), hash }, common)
}

export function isEip712Transaction(raw: Uint8Array): boolean {
  return raw.length > 0 && raw[0] === EIP712_TX_TYPE
}
