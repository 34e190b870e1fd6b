import { concatBytes, hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { BlockRecord, LogRecord, TransactionRecord } from '../chain/records.ts'
import { L1_MESSAGE_SENT_TOPIC, L1_MESSENGER_ADDRESS } from './l1Messenger.ts'

/**
 * An L2→L1 log (era's `L2ToL1Log`). Every one here comes from a message sent through the
 * L1Messenger: shard 0, a service log, sender 0x…8008, key = the caller (left-padded), value =
 * keccak256(message). It is derived from the messenger's L1MessageSent event, which records
 * exactly those (topics 1 and 2), so it needs no storage of its own.
 */
export interface L2ToL1Log {
  shardId: number
  isService: boolean
  sender: PrefixedHexString
  key: PrefixedHexString
  value: PrefixedHexString
  /** The event it was derived from. */
  event: LogRecord
  /** Its index among the L2→L1 logs of its transaction. */
  transactionLogIndex: number
}

function isMessageSent(log: LogRecord): boolean {
  return log.address === L1_MESSENGER_ADDRESS && log.topics[0] === L1_MESSAGE_SENT_TOPIC && log.topics.length === 3
}

/** The L2→L1 logs of a mined transaction, in order. */
export function l2ToL1LogsOf(tx: TransactionRecord): L2ToL1Log[] {
  return tx.receipt.logs.filter(isMessageSent).map((event, transactionLogIndex) => ({
    shardId: 0,
    isService: true,
    sender: L1_MESSENGER_ADDRESS,
    key: event.topics[1],
    value: event.topics[2],
    event,
    transactionLogIndex,
  }))
}

/** How many L2→L1 logs the block's transactions before `tx` sent (for block-level log indexes). */
export function l2ToL1LogsBefore(tx: TransactionRecord, block: BlockRecord): number {
  let count = 0
  for (const earlier of block.transactions.slice(0, tx.index)) count += l2ToL1LogsOf(earlier).length
  return count
}

/** An L2→L1 log where the batch has it: the tree's leaves are these, in this order. */
export interface BatchL2ToL1Log {
  log: L2ToL1Log
  tx: TransactionRecord
  block: BlockRecord
  /** The transaction's index in the batch (era's txNumberInBlock). */
  txIndexInBatch: number
}

/** Every L2→L1 log of a batch, block by block, transaction by transaction. */
export function batchL2ToL1Logs(blocks: Iterable<BlockRecord>): BatchL2ToL1Log[] {
  const logs: BatchL2ToL1Log[] = []
  for (const block of blocks) {
    for (const tx of block.transactions) {
      for (const log of l2ToL1LogsOf(tx)) logs.push({ log, tx, block, txIndexInBatch: block.l1BatchTxOffset + tx.index })
    }
  }
  return logs
}

/**
 * The 88 bytes a log commits to (era's `SerializeCommitment for L2ToL1Log`): shard (1), isService
 * (1), tx index in the batch (u16, big-endian), sender (20), key (32), value (32).
 */
export function serializeL2ToL1Log(log: L2ToL1Log, txIndexInBatch: number): Uint8Array {
  if (txIndexInBatch > 0xffff) throw new RangeError(`transaction index ${txIndexInBatch} does not fit a batch's u16`)
  return concatBytes(
    new Uint8Array([log.shardId, log.isService ? 1 : 0, txIndexInBatch >> 8, txIndexInBatch & 0xff]),
    hexToBytes(log.sender),
    hexToBytes(log.key),
    hexToBytes(log.value),
  )
}

/** A log's leaf in its batch's tree. */
export function l2ToL1LogLeaf(entry: BatchL2ToL1Log): Uint8Array {
  return keccak_256(serializeL2ToL1Log(entry.log, entry.txIndexInBatch))
}

