import { Capability, isEOACode7702Tx, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import {
  bigIntToHex,
  bytesToBigInt,
  bytesToHex,
  type EOACode7702AuthorizationListBytesItem,
  type PrefixedHexString,
} from '@ethereumjs/util'
import { maxFeePerGas, maxPriorityFeePerGas } from '../../chain/admission.ts'
import { effectiveGasPrice } from '../../chain/blockRecord.ts'
import type { BlockRecord, TransactionRecord } from '../../chain/records.ts'

/** Where a transaction sits, or nulls while it is pending. */
export interface TransactionPlacement {
  block: BlockRecord
  index: number
}

/**
 * A transaction object in ZKsync's key order (reference/zksync-api.md §1.11), with the
 * Ethereum fields of its type (accessList, authorizationList) that ZKsync leaves out.
 */
export function formatTransaction(
  hash: PrefixedHexString,
  from: PrefixedHexString,
  tx: TypedTransaction,
  placement: TransactionPlacement | undefined,
): Record<string, unknown> {
  const block = placement?.block
  const typed = tx.type !== TransactionType.Legacy
  const gasPrice = block ? effectiveGasPrice(tx, block.header.baseFeePerGas ?? 0n) : maxFeePerGas(tx)
  const out: Record<string, unknown> = {
    hash,
    nonce: bigIntToHex(tx.nonce),
    blockHash: block?.hash ?? null,
    blockNumber: block ? bigIntToHex(block.number) : null,
    transactionIndex: placement ? bigIntToHex(BigInt(placement.index)) : null,
    from,
    to: tx.to?.toString() ?? null,
    value: bigIntToHex(tx.value),
    gasPrice: bigIntToHex(gasPrice),
    gas: bigIntToHex(tx.gasLimit),
    input: bytesToHex(tx.data),
  }
  if (typed) out.yParity = bigIntToHex(tx.v!)
  out.v = bigIntToHex(tx.v!)
  out.r = bigIntToHex(tx.r!)
  out.s = bigIntToHex(tx.s!)
  out.type = bigIntToHex(BigInt(tx.type))
  if (tx.supports(Capability.EIP2930AccessLists)) out.accessList = (tx.toJSON() as { accessList: unknown }).accessList
  if (isEOACode7702Tx(tx)) out.authorizationList = tx.authorizationList.map(formatAuthorization)
  out.maxFeePerGas = bigIntToHex(maxFeePerGas(tx))
  out.maxPriorityFeePerGas = bigIntToHex(maxPriorityFeePerGas(tx))
  const chainId = typed || tx.v! > 28n ? tx.common.chainId() : undefined
  if (chainId !== undefined) out.chainId = bigIntToHex(chainId)
  out.l1BatchNumber = block ? bigIntToHex(block.l1BatchNumber) : null
  out.l1BatchTxIndex = placement ? bigIntToHex(BigInt(placement.index)) : null
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
  return formatTransaction(record.hash, record.from, record.tx, { block, index: record.index })
}
