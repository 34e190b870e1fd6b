import { bigIntToHex, bytesToHex } from '@ethereumjs/util'
import type { BlockRecord, TransactionRecord } from '../../chain/records.ts'
import { formatLog } from './log.ts'

/**
 * A receipt in ZKsync's key order (reference/zksync-api.md §1.11). Unlike era, which always
 * answers 0x0, cumulativeGasUsed is the real running total.
 */
export function formatReceipt(record: TransactionRecord, block: BlockRecord): Record<string, unknown> {
  const { receipt, tx } = record
  const index = bigIntToHex(BigInt(record.index))
  return {
    transactionHash: record.hash,
    transactionIndex: index,
    blockHash: block.hash,
    blockNumber: bigIntToHex(block.number),
    l1BatchTxIndex: index,
    l1BatchNumber: bigIntToHex(block.l1BatchNumber),
    from: record.from,
    to: tx.to?.toString() ?? null,
    cumulativeGasUsed: bigIntToHex(receipt.cumulativeGasUsed),
    gasUsed: bigIntToHex(receipt.gasUsed),
    contractAddress: receipt.contractAddress,
    logs: receipt.logs.map((log) => formatLog(log, record, block)),
    l2ToL1Logs: [],
    status: bigIntToHex(BigInt(receipt.status)),
    logsBloom: bytesToHex(receipt.logsBloom),
    type: bigIntToHex(BigInt(tx.type)),
    effectiveGasPrice: bigIntToHex(receipt.effectiveGasPrice),
  }
}
