import { bigIntToHex } from '@ethereumjs/util'
import type { BlockRecord, LogRecord, TransactionRecord } from '../../chain/records.ts'

/**
 * A log in ZKsync's shape (reference/zksync-api.md §1.11): Ethereum's keys plus batch (null while
 * the batch is open) and timestamp.
 */
export function formatLog(log: LogRecord, tx: TransactionRecord, block: BlockRecord): Record<string, unknown> {
  return {
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockHash: block.hash,
    blockNumber: bigIntToHex(block.number),
    l1BatchNumber: block.batchSealed ? bigIntToHex(block.l1BatchNumber) : null,
    transactionHash: tx.hash,
    transactionIndex: bigIntToHex(BigInt(tx.index)),
    logIndex: bigIntToHex(BigInt(log.logIndex)),
    transactionLogIndex: bigIntToHex(BigInt(log.transactionLogIndex)),
    logType: null,
    removed: false,
    blockTimestamp: bigIntToHex(block.header.timestamp),
  }
}
