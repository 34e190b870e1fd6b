import { bigIntToHex } from '@ethereumjs/util'
import type { BlockRecord, LogRecord } from '../../chain/records.ts'
import { timestampOf, type LogTransaction } from '../../chain/storedBlock.ts'

/**
 * A log in ZKsync's shape (docs/zksync.md, "Response shapes"): Ethereum's keys plus batch (null
 * while the batch is open) and timestamp.
 */
export function formatLog(log: LogRecord, tx: LogTransaction, block: BlockRecord): Record<string, unknown> {
  return {
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockHash: block.hash,
    blockNumber: bigIntToHex(block.number),
    l1BatchNumber: block.batchSealed ? bigIntToHex(block.l1BatchNumber) : null,
    transactionHash: tx.hash,
    transactionIndex: `0x${tx.index.toString(16)}`,
    logIndex: `0x${log.logIndex.toString(16)}`,
    transactionLogIndex: `0x${log.transactionLogIndex.toString(16)}`,
    logType: null,
    removed: false,
    blockTimestamp: bigIntToHex(timestampOf(block)),
  }
}
