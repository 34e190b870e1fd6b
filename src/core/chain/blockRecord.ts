import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex } from '../hexText.ts'
import type { ProducedBlock } from '../exec/blockProducer.ts'
import { headerHash } from '../exec/headerBytes.ts'
import type { SignedTransaction } from '../exec/rawTransaction.ts'
import { maxFeePerGas, maxPriorityFeePerGas } from './admission.ts'
import type { BatchPlacement } from './batches.ts'
import { logRecords, type BlockRecord, type TransactionRecord } from './records.ts'

/** A transaction as the pool handed it to the miner: signed, with its arrival time. */
export type ReceivedTransaction = SignedTransaction & { receivedAtMs: number }

/**
 * Turns a produced block into the records the chain serves, numbering logs block-wide. The
 * block is not sealing its batch yet: the miner decides that.
 */
export function toBlockRecord(produced: ProducedBlock<ReceivedTransaction>, batch: BatchPlacement): BlockRecord {
  const { header } = produced
  const blockHash = bytesToHex(headerHash(header))
  let logIndex = 0
  const transactions = produced.included.map(({ signed, result, consoleLines }, index): TransactionRecord => {
    const logs = logRecords(result.receipt.logs, logIndex)
    logIndex += logs.length
    return {
      ...(consoleLines && { consoleLogs: consoleLines }),
      hash: signed.hash,
      tx: signed.tx,
      from: signed.from,
      eip712: signed.eip712,
      blockNumber: header.number,
      blockHash,
      index,
      receivedAtMs: signed.receivedAtMs,
      receipt: {
        status: (result.receipt as { status: 0 | 1 }).status,
        gasUsed: result.totalGasSpent,
        cumulativeGasUsed: result.receipt.cumulativeBlockGasUsed,
        effectiveGasPrice: effectiveGasPrice(signed.tx, header.baseFeePerGas ?? 0n),
        contractAddress: result.createdAddress ? bytesToHex(result.createdAddress.bytes) : null,
        logs,
        logsBloom: result.receipt.bitvector,
      },
    }
  })
  return {
    header,
    hash: blockHash,
    number: header.number,
    transactions,
    size: produced.size,
    l1BatchNumber: batch.number,
    l1BatchTimestamp: batch.timestamp,
    l1BatchTxOffset: batch.txOffset,
    sealsBatch: false,
    batchSealed: false,
  }
}

/** What the sender pays per gas: min(maxFee, baseFee + tip) under EIP-1559, else gasPrice. */
export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint): bigint {
  const cap = maxFeePerGas(tx)
  const tip = maxPriorityFeePerGas(tx)
  return cap < baseFee + tip ? cap : baseFee + tip
}
