import { createBlockHeaderFromRLP } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { createTxFromRLP } from '@ethereumjs/tx'
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import type { BlockRecord, LogRecord, TransactionRecord } from '../chain/records.ts'

/**
 * A block record as stored: one RLP value holding the header, the signed transactions with the
 * sender and hash known at admission (so loading never pays for ecrecover), and the receipts.
 *
 *   [header, size, l1BatchNumber, l1BatchTimestamp, [tx…]]
 *   tx = [signedTx, hash, from, status, gasUsed, cumulativeGasUsed, effectiveGasPrice,
 *         contractAddress | empty, logsBloom, [[address, [topic…], data]…]]
 */
export function encodeBlockRecord(block: BlockRecord): Uint8Array {
  return RLP.encode([
    block.header.serialize(),
    bigIntToUnpaddedBytes(block.size),
    bigIntToUnpaddedBytes(block.l1BatchNumber),
    bigIntToUnpaddedBytes(block.l1BatchTimestamp),
    block.transactions.map((tx) => [
      tx.tx.serialize(),
      hexToBytes(tx.hash),
      hexToBytes(tx.from),
      bigIntToUnpaddedBytes(BigInt(tx.receipt.status)),
      bigIntToUnpaddedBytes(tx.receipt.gasUsed),
      bigIntToUnpaddedBytes(tx.receipt.cumulativeGasUsed),
      bigIntToUnpaddedBytes(tx.receipt.effectiveGasPrice),
      tx.receipt.contractAddress ? hexToBytes(tx.receipt.contractAddress) : new Uint8Array(),
      tx.receipt.logsBloom,
      tx.receipt.logs.map((log) => [hexToBytes(log.address), log.topics.map((t) => hexToBytes(t)), hexToBytes(log.data)]),
    ]),
  ])
}

type Field = Uint8Array
type EncodedLog = [Field, Field[], Field]
type EncodedTx = [Field, Field, Field, Field, Field, Field, Field, Field, Field, EncodedLog[]]

export function decodeBlockRecord(bytes: Uint8Array, common: Common): BlockRecord {
  const [headerBytes, size, batch, batchTimestamp, txs] = RLP.decode(bytes) as unknown as [Field, Field, Field, Field, EncodedTx[]]
  const header = createBlockHeaderFromRLP(headerBytes, { common })
  const blockHash = bytesToHex(header.hash())
  let logIndex = 0
  const transactions = txs.map(
    ([signed, hash, from, status, gasUsed, cumulative, price, created, bloom, logs], index): TransactionRecord => ({
      hash: bytesToHex(hash),
      tx: createTxFromRLP(signed, { common }),
      from: bytesToHex(from),
      blockNumber: header.number,
      blockHash,
      index,
      receipt: {
        status: Number(bytesToBigInt(status)) as 0 | 1,
        gasUsed: bytesToBigInt(gasUsed),
        cumulativeGasUsed: bytesToBigInt(cumulative),
        effectiveGasPrice: bytesToBigInt(price),
        contractAddress: created.length > 0 ? bytesToHex(created) : null,
        logsBloom: bloom,
        logs: logs.map(
          ([address, topics, data], transactionLogIndex): LogRecord => ({
            address: bytesToHex(address),
            topics: topics.map((topic) => bytesToHex(topic)) as PrefixedHexString[],
            data: bytesToHex(data),
            logIndex: logIndex++,
            transactionLogIndex,
          }),
        ),
      },
    }),
  )
  return {
    header,
    hash: blockHash,
    number: header.number,
    transactions,
    size: bytesToBigInt(size),
    l1BatchNumber: bytesToBigInt(batch),
    l1BatchTimestamp: bytesToBigInt(batchTimestamp),
  }
}
