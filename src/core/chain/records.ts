import type { BlockHeader } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { PrefixedHexString } from '@ethereumjs/util'

/**
 * What the node keeps about its chain, in memory. Hashes and addresses are lowercase hex (they
 * are map keys and go out as JSON unchanged); quantities are bigints.
 */

export interface LogRecord {
  address: PrefixedHexString
  topics: PrefixedHexString[]
  data: PrefixedHexString
  /** Index of the log in its block. */
  logIndex: number
  /** Index of the log in its transaction (ZKsync's transactionLogIndex). */
  transactionLogIndex: number
}

export interface ReceiptRecord {
  status: 0 | 1
  gasUsed: bigint
  cumulativeGasUsed: bigint
  effectiveGasPrice: bigint
  contractAddress: PrefixedHexString | null
  logs: LogRecord[]
  logsBloom: Uint8Array
}

export interface TransactionRecord {
  hash: PrefixedHexString
  tx: TypedTransaction
  /** The sender, recovered once at admission: block txs must never pay for ecrecover again. */
  from: PrefixedHexString
  blockNumber: bigint
  blockHash: PrefixedHexString
  index: number
  receipt: ReceiptRecord
}

export interface BlockRecord {
  header: BlockHeader
  hash: PrefixedHexString
  number: bigint
  transactions: TransactionRecord[]
  /** RLP size of the whole block, as eth_getBlockBy* reports it. */
  size: bigint
  /** The L1 batch this block belongs to (one batch per block until batching lands). */
  l1BatchNumber: bigint
  l1BatchTimestamp: bigint
}
