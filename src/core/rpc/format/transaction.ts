import { Capability, isEOACode7702Tx, TransactionType } from '@ethereumjs/tx'
import { bigIntToHex, bytesToBigInt, type EOACode7702AuthorizationListBytesItem } from '@ethereumjs/util'
import { bytesToHex } from '../../hexText.ts'
import { maxFeePerGas, maxPriorityFeePerGas } from '../../chain/admission.ts'
import { effectiveGasPrice } from '../../chain/blockRecord.ts'
import type { BlockRecord, TransactionRecord } from '../../chain/records.ts'
import { transactionType, type SignedTransaction } from '../../exec/rawTransaction.ts'

/** Where a transaction sits, or nulls while it is pending. */
export interface TransactionPlacement {
  block: BlockRecord
  index: number
  record: TransactionRecord
}

/** A mined transaction's place in its L1 batch: nulls until the batch is sealed, as on era. */
export function batchPosition(record: TransactionRecord, block: BlockRecord) {
  return block.batchSealed
    ? { l1BatchNumber: bigIntToHex(block.l1BatchNumber), l1BatchTxIndex: bigIntToHex(BigInt(block.l1BatchTxOffset + record.index)) }
    : { l1BatchNumber: null, l1BatchTxIndex: null }
}

/**
 * v, r, s of a transaction; a 0x71 transaction's come from the r‖s‖v signature it carries. A
 * contract account's signature is its own bytes (docs/zksync.md, "Contract accounts"): read as
 * r‖s‖v when it starts like one (v 27 or 28: an ECDSA owner's, a multisig's first), else 0s.
 */
function signatureFields(signed: SignedTransaction): { v: bigint; r: bigint; s: bigint } {
  const signature = signed.eip712?.signature
  if (!signature) return { v: signed.tx.v!, r: signed.tx.r!, s: signed.tx.s! }
  if (signature.length < 65 || (signature[64] !== 27 && signature[64] !== 28)) return { v: 0n, r: 0n, s: 0n }
  return { v: BigInt(signature[64] - 27), r: bytesToBigInt(signature.subarray(0, 32)), s: bytesToBigInt(signature.subarray(32, 64)) }
}

/**
 * A transaction object in ZKsync's key order (docs/zksync.md, "Response shapes"), with the
 * Ethereum fields of its type (accessList, authorizationList) that ZKsync leaves out.
 */
export function formatTransaction(signed: SignedTransaction, placement: TransactionPlacement | undefined): Record<string, unknown> {
  const { hash, from, tx } = signed
  const block = placement?.block
  const typed = tx.type !== TransactionType.Legacy
  const gasPrice = block ? effectiveGasPrice(tx, block.header.baseFeePerGas ?? 0n) : maxFeePerGas(tx)
  const signature = signatureFields(signed)
  const out: Record<string, unknown> = {
    hash,
    nonce: bigIntToHex(tx.nonce),
    blockHash: block?.hash ?? null,
    blockNumber: block ? bigIntToHex(block.number) : null,
    transactionIndex: placement ? bigIntToHex(BigInt(placement.index)) : null,
    from,
    to: tx.to ? bytesToHex(tx.to.bytes) : null,
    value: bigIntToHex(tx.value),
    gasPrice: bigIntToHex(gasPrice),
    gas: bigIntToHex(tx.gasLimit),
    input: bytesToHex(tx.data),
  }
  if (typed) out.yParity = bigIntToHex(signature.v)
  out.v = bigIntToHex(signature.v)
  out.r = bigIntToHex(signature.r)
  out.s = bigIntToHex(signature.s)
  out.type = bigIntToHex(BigInt(transactionType(signed)))
  // ZKsync's own 0x71 transactions have no access list (the EVM stand-in's is always empty).
  if (tx.supports(Capability.EIP2930AccessLists) && !signed.eip712) out.accessList = (tx.toJSON() as { accessList: unknown }).accessList
  if (isEOACode7702Tx(tx)) out.authorizationList = tx.authorizationList.map(formatAuthorization)
  out.maxFeePerGas = bigIntToHex(maxFeePerGas(tx))
  out.maxPriorityFeePerGas = bigIntToHex(maxPriorityFeePerGas(tx))
  const chainId = typed || tx.v! > 28n ? tx.common.chainId() : undefined
  if (chainId !== undefined) out.chainId = bigIntToHex(chainId)
  const batch = placement ? batchPosition(placement.record, placement.block) : { l1BatchNumber: null, l1BatchTxIndex: null }
  out.l1BatchNumber = batch.l1BatchNumber
  out.l1BatchTxIndex = batch.l1BatchTxIndex
  // execution-apis' TransactionInfo (geth 1.16): the including block's timestamp, null while pending.
  out.blockTimestamp = block ? bigIntToHex(block.header.timestamp) : null
  return out
}

/**
 * One EIP-7702 authorization as geth serializes it: quantities in minimal hex. ethereumjs's
 * toJSON gives the raw RLP bytes instead ("0x0104", "0x" for zero), which clients parse wrong.
 */
function formatAuthorization([chainId, address, nonce, yParity, r, s]: EOACode7702AuthorizationListBytesItem) {
  const quantity = (bytes: Uint8Array) => bigIntToHex(bytesToBigInt(bytes))
  return {
    chainId: quantity(chainId),
    address: bytesToHex(address),
    nonce: quantity(nonce),
    yParity: quantity(yParity),
    r: quantity(r),
    s: quantity(s),
  }
}

export function formatMinedTransaction(record: TransactionRecord, block: BlockRecord): Record<string, unknown> {
  return formatTransaction(record, { block, index: record.index, record })
}
