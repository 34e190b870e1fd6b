import type { BlockHeader } from '@ethereumjs/block'
import type { PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import type { SignedTransaction } from '../exec/rawTransaction.ts'

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

/**
 * A receipt's logs as ethereumjs has them ([address, topics, data]: a run's receipt, or a stored
 * block's record), numbered in their block from `firstIndex`.
 */
export function logRecords(logs: readonly (readonly [Uint8Array, Uint8Array[], Uint8Array])[], firstIndex: number): LogRecord[] {
  return logs.map(([address, topics, data], transactionLogIndex) => ({
    address: bytesToHex(address),
    topics: topics.map((topic) => bytesToHex(topic)),
    data: bytesToHex(data),
    logIndex: firstIndex + transactionLogIndex,
    transactionLogIndex,
  }))
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

/** A mined transaction. Its sender was recovered once, at admission: never again. */
export interface TransactionRecord extends SignedTransaction {
  blockNumber: bigint
  blockHash: PrefixedHexString
  index: number
  /** When the node accepted it (ms since the epoch; ZKsync's received_timestamp_ms). */
  receivedAtMs: number
  receipt: ReceiptRecord
  /**
   * What its console.log calls printed, when it made any. Kept in memory with the block, not
   * stored: a chain reopened from its store has none.
   */
  consoleLogs?: string[]
}

/**
 * A copy of `block` carrying `editedStateRoot` (none when undefined): how dev-node methods store
 * a block again. Field by field, not `{ ...block }`: a stored block's header and transactions
 * are getters of its prototype, which a spread leaves out.
 */
export function withEditedStateRoot(block: BlockRecord, editedStateRoot: Uint8Array | undefined): BlockRecord {
  const { header, hash, number, transactions, size, l1BatchNumber, l1BatchTimestamp, l1BatchTxOffset, sealsBatch, batchSealed } = block
  return { header, hash, number, transactions, size, l1BatchNumber, l1BatchTimestamp, l1BatchTxOffset, sealsBatch, batchSealed, editedStateRoot }
}

export interface BlockRecord {
  header: BlockHeader
  hash: PrefixedHexString
  number: bigint
  transactions: TransactionRecord[]
  /** RLP size of the whole block, as eth_getBlockBy* reports it. */
  size: bigint
  /** The L1 batch this block belongs to, open or sealed. */
  l1BatchNumber: bigint
  /** The batch's timestamp: the timestamp of its first block. */
  l1BatchTimestamp: bigint
  /** Index in the batch of this block's first transaction (l1BatchTxIndex = this + index). */
  l1BatchTxOffset: number
  /**
   * This block is the last of its batch and the batch is sealed: decided when the block is
   * mined, or later when the open batch grows too old (the record is then stored again).
   */
  sealsBatch: boolean
  /**
   * Whether the block's batch is sealed yet; the Chain keeps it for every block of the batch.
   * Until then the block shows no batch, as on era.
   */
  batchSealed: boolean
  /**
   * The state after this block and the dev-node edits made while it was the head
   * (anvil_setBalance, anvil_setCode, anvil_loadState, …), when there were any. The header keeps
   * the root the block was mined with; reads "at" this block and the next block start here.
   */
  editedStateRoot?: Uint8Array
}

/** The state a block parameter names: the block's own, or its edited one. */
export function stateRootOf(block: BlockRecord): Uint8Array {
  return block.editedStateRoot ?? block.header.stateRoot
}
