import { bigIntToHex } from '@ethereumjs/util'
import { bytesToHex } from '../../hexText.ts'
import type { BlockRecord, TransactionRecord } from '../../chain/records.ts'
import { transactionType } from '../../exec/rawTransaction.ts'
import { l2ToL1LogsBefore, l2ToL1LogsOf } from '../../rollup/l2ToL1Logs.ts'
import { formatLog } from './log.ts'
import { batchPosition } from './transaction.ts'

/**
 * A receipt in ZKsync's key order (docs/zksync.md, "Response shapes"). Unlike era, which always
 * answers 0x0, cumulativeGasUsed is the real running total.
 */
export function formatReceipt(record: TransactionRecord, block: BlockRecord): Record<string, unknown> {
  const { receipt, tx } = record
  const batch = batchPosition(record, block)
  return {
    transactionHash: record.hash,
    transactionIndex: bigIntToHex(BigInt(record.index)),
    blockHash: block.hash,
    blockNumber: bigIntToHex(block.number),
    l1BatchTxIndex: batch.l1BatchTxIndex,
    l1BatchNumber: batch.l1BatchNumber,
    from: record.from,
    to: tx.to ? bytesToHex(tx.to.bytes) : null,
    cumulativeGasUsed: bigIntToHex(receipt.cumulativeGasUsed),
    gasUsed: bigIntToHex(receipt.gasUsed),
    contractAddress: receipt.contractAddress,
    logs: receipt.logs.map((log) => formatLog(log, record, block)),
    l2ToL1Logs: formatL2ToL1Logs(record, block),
    status: bigIntToHex(BigInt(receipt.status)),
    logsBloom: bytesToHex(receipt.logsBloom),
    type: bigIntToHex(BigInt(transactionType(record))),
    effectiveGasPrice: bigIntToHex(receipt.effectiveGasPrice),
  }
}

/** era's api::L2ToL1Log, in its key order; logIndex counts the block's L2→L1 logs. */
function formatL2ToL1Logs(record: TransactionRecord, block: BlockRecord): Record<string, unknown>[] {
  const logs = l2ToL1LogsOf(record)
  if (logs.length === 0) return []
  const first = l2ToL1LogsBefore(record, block)
  const batch = batchPosition(record, block)
  return logs.map((log) => ({
    blockHash: block.hash,
    blockNumber: bigIntToHex(block.number),
    l1BatchNumber: batch.l1BatchNumber,
    logIndex: bigIntToHex(BigInt(first + log.transactionLogIndex)),
    transactionIndex: bigIntToHex(BigInt(record.index)),
    transactionHash: record.hash,
    transactionLogIndex: bigIntToHex(BigInt(log.transactionLogIndex)),
    txIndexInL1Batch: batch.l1BatchTxIndex,
    shardId: bigIntToHex(BigInt(log.shardId)),
    isService: log.isService,
    sender: log.sender,
    key: log.key,
    value: log.value,
  }))
}
