import { createBlockHeaderFromRLP } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { createTxFromRLP } from '@ethereumjs/tx'
import { Bloom } from '@ethereumjs/vm'
import { bigIntToUnpaddedBytes, bytesToBigInt, createAddressFromString, hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { logRecords, type BlockRecord, type LogRecord, type TransactionRecord } from '../chain/records.ts'
import { headerBytes } from '../exec/headerBytes.ts'
import { transactionBytes, type SignedTransaction } from '../exec/rawTransaction.ts'
import { isEip712Transaction, restoreEip712Transaction } from '../rollup/eip712Transaction.ts'
import { payload, payloadBigInt, payloadNumber, rlpElement, rlpElements, rlpItem } from './rlpWalk.ts'
import { rlpEncode } from './rlpWrite.ts'
import { transactionLimits } from '../exec/codeSizeLimit.ts'

/**
 * A block record as stored: one RLP value holding the header, the signed transactions with the
 * sender and hash known at admission (so loading never pays for ecrecover), the receipts, and
 * where the block sits in its L1 batch.
 *
 *   [header, size, l1BatchNumber, l1BatchTimestamp, [tx…], l1BatchTxOffset, sealsBatch,
 *    editedStateRoot?]
 *   tx = [signedTx, hash, from, status, gasUsed, cumulativeGasUsed, effectiveGasPrice,
 *         contractAddress | empty, logsBloom, [[address, [topic…], data]…], receivedAtMs]
 *
 * signedTx is the transaction's own bytes (a ZKsync 0x71 transaction's raw EIP-712 encoding).
 * Schema 1 records end after [tx…] and their txs after the logs: every block sealed its own
 * batch then, and the receipt time was not kept (the block's time stands in). editedStateRoot
 * (schema 3) is there only for a block whose state dev-node methods edited while it was the head.
 * Since schema 4 a receipt's logsBloom is stored empty: it is always the bloom of the logs that
 * follow it, made again on decode, and its 256 bytes were a fifth of an ERC-20 transfer's record
 * held in memory for every block. Records of earlier schemas keep theirs, read as they are.
 *
 * `allocate`: where the record is written, given its length (the chain's RecordArena).
 */
export function encodeBlockRecord(block: BlockRecord, allocate?: (length: number) => Uint8Array): Uint8Array {
  return rlpEncode([
    headerBytes(block.header),
    bigIntToUnpaddedBytes(block.size),
    bigIntToUnpaddedBytes(block.l1BatchNumber),
    bigIntToUnpaddedBytes(block.l1BatchTimestamp),
    block.transactions.map((tx) => [
      transactionBytes(tx),
      hexToBytes(tx.hash),
      hexToBytes(tx.from),
      bigIntToUnpaddedBytes(BigInt(tx.receipt.status)),
      bigIntToUnpaddedBytes(tx.receipt.gasUsed),
      bigIntToUnpaddedBytes(tx.receipt.cumulativeGasUsed),
      bigIntToUnpaddedBytes(tx.receipt.effectiveGasPrice),
      tx.receipt.contractAddress ? hexToBytes(tx.receipt.contractAddress) : new Uint8Array(),
      EMPTY,
      tx.receipt.logs.map((log) => [hexToBytes(log.address), log.topics.map((t) => hexToBytes(t)), hexToBytes(log.data)]),
      bigIntToUnpaddedBytes(BigInt(tx.receivedAtMs)),
    ]),
    bigIntToUnpaddedBytes(BigInt(block.l1BatchTxOffset)),
    bigIntToUnpaddedBytes(block.sealsBatch ? 1n : 0n),
    ...(block.editedStateRoot ? [block.editedStateRoot] : []),
  ], allocate)
}

const EMPTY = new Uint8Array()

/** A receipt's logs bloom: every log's address and topics. */
function bloomOfLogs(logs: EncodedLog[], common: Common): Uint8Array {
  const bloom = new Bloom(undefined, common)
  for (const [address, topics] of logs) {
    bloom.add(address)
    for (const topic of topics) bloom.add(topic)
  }
  return bloom.bitvector
}

type Field = Uint8Array
type EncodedLog = [Field, Field[], Field]
type EncodedTx = [Field, Field, Field, Field, Field, Field, Field, Field, Field, EncodedLog[], Field?]
type EncodedBlock = [Field, Field, Field, Field, EncodedTx[], Field?, Field?, Field?]

/**
 * The sender is the one stored: recovering it again would cost an ecrecover per transaction, and
 * an impersonated transaction's stand-in signature recovers no one (exec/impersonated.ts).
 */
export function decodeTransaction(bytes: Uint8Array, hash: PrefixedHexString, from: PrefixedHexString, common: Common): SignedTransaction {
  if (isEip712Transaction(bytes)) return restoreEip712Transaction(bytes, hash, common)
  const tx = createTxFromRLP(bytes, { common, freeze: false, ...transactionLimits(common) })
  const sender = createAddressFromString(from)
  tx.getSenderAddress = () => sender
  return { tx, hash, from }
}

export function decodeBlockRecord(bytes: Uint8Array, common: Common): BlockRecord {
  const [headerBytes, size, batch, batchTimestamp, txs, txOffset, sealsBatch, editedStateRoot] = RLP.decode(bytes) as unknown as EncodedBlock
  const header = createBlockHeaderFromRLP(headerBytes, { common })
  const blockHash = bytesToHex(header.hash())
  let logIndex = 0
  const transactions = txs.map(([signed, hash, from, status, gasUsed, cumulative, price, created, bloom, logs, receivedAtMs], index): TransactionRecord => {
    const firstLogIndex = logIndex
    logIndex += logs.length
    return {
      ...decodeTransaction(signed, bytesToHex(hash), bytesToHex(from), common),
      blockNumber: header.number,
      blockHash,
      index,
      receivedAtMs: receivedAtMs ? Number(bytesToBigInt(receivedAtMs)) : Number(header.timestamp) * 1000,
      receipt: {
        status: Number(bytesToBigInt(status)) as 0 | 1,
        gasUsed: bytesToBigInt(gasUsed),
        cumulativeGasUsed: bytesToBigInt(cumulative),
        effectiveGasPrice: bytesToBigInt(price),
        contractAddress: created.length > 0 ? bytesToHex(created) : null,
        logsBloom: bloom.length > 0 ? bloom : bloomOfLogs(logs, common),
        logs: logRecords(logs, firstLogIndex),
      },
    }
  })
  return {
    header,
    hash: blockHash,
    number: header.number,
    transactions,
    size: bytesToBigInt(size),
    l1BatchNumber: bytesToBigInt(batch),
    l1BatchTimestamp: bytesToBigInt(batchTimestamp),
    l1BatchTxOffset: txOffset ? Number(bytesToBigInt(txOffset)) : 0,
    sealsBatch: sealsBatch ? bytesToBigInt(sealsBatch) === 1n : true,
    // The Chain sets it when the block is appended.
    batchSealed: false,
    ...(editedStateRoot ? { editedStateRoot } : {}),
  }
}

/**
 * What the chain indexes about a stored block without decoding it (no header object, no
 * transaction objects): enough to find it by number and hash, to find its transactions by hash,
 * to place it in its L1 batch, and to rule it out of a log query by its bloom.
 */
export interface BlockSummary {
  number: bigint
  /** The header's RLP, a view into the record (its keccak is the block hash). */
  headerBytes: Uint8Array
  size: bigint
  l1BatchNumber: bigint
  l1BatchTimestamp: bigint
  l1BatchTxOffset: number
  sealsBatch: boolean
  editedStateRoot?: Uint8Array
  transactionCount: number
  /** A ZKsync 0x71 transaction is in it: its factory dependencies are indexed at load. */
  publishesBytecode: boolean
}

/** Header fields before the logs bloom and the number (ethereumjs' header order). */
const HEADER_LOGS_BLOOM = 6
const HEADER_NUMBER = 8

/** Reads a block record's summary by walking its RLP: the same fields `decodeBlockRecord` gives. */
export function summarizeBlockRecord(bytes: Uint8Array): BlockSummary {
  const fields = rlpElements(bytes, rlpItem(bytes, 0))
  const [header, size, batch, batchTimestamp, txs, txOffset, sealsBatch, editedStateRoot] = fields
  // The header is stored as a byte string holding its own RLP.
  const headerBytes = payload(bytes, header)
  const number = rlpElement(headerBytes, rlpItem(headerBytes, 0), HEADER_NUMBER)
  if (!number || !txs?.list) throw new Error('a stored block record is damaged')
  let transactionCount = 0
  let publishesBytecode = false
  for (const tx of rlpElements(bytes, txs)) {
    transactionCount++
    if (isEip712Transaction(payload(bytes, rlpItem(bytes, tx.start)))) publishesBytecode = true
  }
  return {
    number: payloadBigInt(headerBytes, number),
    headerBytes,
    size: payloadBigInt(bytes, size),
    l1BatchNumber: payloadBigInt(bytes, batch),
    l1BatchTimestamp: payloadBigInt(bytes, batchTimestamp),
    l1BatchTxOffset: txOffset ? payloadNumber(bytes, txOffset) : 0,
    sealsBatch: sealsBatch ? payloadNumber(bytes, sealsBatch) === 1 : true,
    ...(editedStateRoot ? { editedStateRoot: payload(bytes, editedStateRoot) } : {}),
    transactionCount,
    publishesBytecode,
  }
}

/** The hashes of a block record's transactions, in order, without decoding them. */
export function transactionHashesOfRecord(bytes: Uint8Array): PrefixedHexString[] {
  const txs = rlpElements(bytes, rlpItem(bytes, 0))[BLOCK_TRANSACTIONS]
  if (!txs?.list) throw new Error('a stored block record is damaged')
  return rlpElements(bytes, txs).map((tx) => bytesToHex(payload(bytes, rlpItem(bytes, rlpItem(bytes, tx.start).end))))
}

/** Where the transactions are in a block record: [header, size, batch, batchTimestamp, [tx…], …]. */
const BLOCK_TRANSACTIONS = 4

/** The header's RLP in a block record (its keccak is the block hash). */
export function headerBytesOf(bytes: Uint8Array): Uint8Array {
  return payload(bytes, rlpItem(bytes, rlpItem(bytes, 0).start))
}

/** The logs bloom in a header's RLP, read without decoding the header. */
export function logsBloomOfHeader(headerBytes: Uint8Array): Uint8Array {
  const bloom = rlpElement(headerBytes, rlpItem(headerBytes, 0), HEADER_LOGS_BLOOM)
  if (!bloom) throw new Error('a stored block header is damaged')
  return payload(headerBytes, bloom)
}

/** Header field of the timestamp (ethereumjs' header order). */
const HEADER_TIMESTAMP = 11

/** The timestamp in a header's RLP, read without decoding the header. */
export function timestampOfHeader(headerBytes: Uint8Array): bigint {
  const timestamp = rlpElement(headerBytes, rlpItem(headerBytes, 0), HEADER_TIMESTAMP)
  if (!timestamp) throw new Error('a stored block header is damaged')
  return payloadBigInt(headerBytes, timestamp)
}

/** A log of a stored block with the index of its transaction in the block. */
export interface StoredLog {
  log: LogRecord
  txIndex: number
}

/** Where the receipt's logs are in a stored transaction: [signedTx, hash, …, logsBloom, [log…], …]. */
const TX_LOGS = 9

/**
 * A block record's logs, in block order, read by walking to its receipts' logs: no header, no
 * transaction objects (decoding a whole block, its transactions above all, costs ~100× more).
 * The same LogRecords `decodeBlockRecord` makes.
 */
export function logsOfBlockRecord(bytes: Uint8Array): StoredLog[] {
  const txs = rlpElement(bytes, rlpItem(bytes, 0), 4)
  if (!txs?.list) throw new Error('a stored block record is damaged')
  const found: StoredLog[] = []
  let logIndex = 0
  let txIndex = 0
  for (let at = txs.start; at < txs.end; txIndex++) {
    const tx = rlpItem(bytes, at)
    at = tx.end
    const logs = rlpElement(bytes, tx, TX_LOGS)
    if (!logs?.list) throw new Error('a stored block record is damaged')
    let transactionLogIndex = 0
    for (let logAt = logs.start; logAt < logs.end; ) {
      const entry = rlpItem(bytes, logAt)
      logAt = entry.end
      const address = rlpItem(bytes, entry.start)
      const topicList = rlpItem(bytes, address.end)
      const data = rlpItem(bytes, topicList.end)
      const topics: PrefixedHexString[] = []
      for (let topicAt = topicList.start; topicAt < topicList.end; ) {
        const topic = rlpItem(bytes, topicAt)
        topics.push(bytesToHex(payload(bytes, topic)))
        topicAt = topic.end
      }
      found.push({
        log: {
          address: bytesToHex(payload(bytes, address)),
          topics,
          data: bytesToHex(payload(bytes, data)),
          logIndex: logIndex++,
          transactionLogIndex: transactionLogIndex++,
        },
        txIndex,
      })
    }
  }
  return found
}
