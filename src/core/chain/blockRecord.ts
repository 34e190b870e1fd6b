import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex, type PrefixedHexString } from '@ethereumjs/util'
import type { ProducedBlock } from '../exec/blockProducer.ts'
import { maxFeePerGas, maxPriorityFeePerGas } from './admission.ts'
import type { BlockRecord, LogRecord, TransactionRecord } from './records.ts'

/** Sender and hash of a transaction, known since admission (never recomputed from the block). */
export interface TransactionIdentity {
  hash: PrefixedHexString
  from: PrefixedHexString
}

/** Turns a sealed block into the records the chain serves, numbering logs block-wide. */
export function toBlockRecord(
  produced: ProducedBlock,
  identify: (tx: TypedTransaction) => TransactionIdentity,
): BlockRecord {
  const { header } = produced
  const blockHash = bytesToHex(header.hash())
  let logIndex = 0
  const transactions = produced.included.map((included, index): TransactionRecord => {
    const { hash, from } = identify(included.tx)
    const logs = included.result.receipt.logs.map(([address, topics, data], transactionLogIndex): LogRecord => ({
      address: bytesToHex(address),
      topics: topics.map((topic) => bytesToHex(topic)),
      data: bytesToHex(data),
      logIndex: logIndex++,
      transactionLogIndex,
    }))
    return {
      hash,
      tx: included.tx,
      from,
      blockNumber: header.number,
      blockHash,
      index,
      receipt: {
        status: (included.result.receipt as { status: 0 | 1 }).status,
        gasUsed: included.result.totalGasSpent,
        cumulativeGasUsed: included.result.receipt.cumulativeBlockGasUsed,
        effectiveGasPrice: effectiveGasPrice(included.tx, header.baseFeePerGas ?? 0n),
        contractAddress: included.result.createdAddress?.toString() ?? null,
        logs,
        logsBloom: included.result.receipt.bitvector,
      },
    }
  })
  return {
    header,
    hash: blockHash,
    number: header.number,
    transactions,
    size: produced.size,
    // One L1 batch per block until batching lands (DESIGN §4).
    l1BatchNumber: header.number,
    l1BatchTimestamp: header.timestamp,
  }
}

/** What the sender pays per gas: min(maxFee, baseFee + tip) under EIP-1559, else gasPrice. */
export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint): bigint {
  const cap = maxFeePerGas(tx)
  const tip = maxPriorityFeePerGas(tx)
  return cap < baseFee + tip ? cap : baseFee + tip
}
