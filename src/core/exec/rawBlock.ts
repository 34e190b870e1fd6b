import { RLP } from '@ethereumjs/rlp'
import { hexToBytes } from '@ethereumjs/util'
import { encodeReceipt } from '@ethereumjs/vm'
import type { BlockRecord, TransactionRecord } from '../chain/records.ts'
import { transactionBytes, transactionType } from './rawTransaction.ts'

/**
 * A mined block and its receipts in consensus encoding, as geth's debug_getRaw* answer them. The
 * bytes are the ones the header commits to: a transaction's are its signed bytes (a ZKsync 0x71
 * one's, its EIP-712 envelope, which is what the transactions root is computed over), a receipt's
 * are typed like its transaction (0x71 too). So a block's hash is keccak256 of its raw header, and
 * its transactions and receipts roots are the ordered tries of these.
 */

/** RLP([header, transactions, uncles, withdrawals]): the uncles and withdrawals are always empty here. */
export function blockBytes(block: BlockRecord): Uint8Array {
  // A typed transaction is an RLP string of its bytes; a legacy one is its RLP list, embedded as is.
  const transactions = block.transactions.map((tx) => {
    const bytes = transactionBytes(tx)
    return bytes[0] >= 0xc0 ? RLP.decode(bytes) : bytes
  })
  return RLP.encode([block.header.raw(), transactions, [], []])
}

/** A receipt's consensus bytes (type byte ‖ RLP([status, cumulativeGasUsed, logsBloom, logs])). */
export function receiptBytes(tx: TransactionRecord): Uint8Array {
  const { receipt } = tx
  return encodeReceipt(
    {
      status: receipt.status,
      cumulativeBlockGasUsed: receipt.cumulativeGasUsed,
      bitvector: receipt.logsBloom,
      logs: receipt.logs.map((log) => [hexToBytes(log.address), log.topics.map((topic) => hexToBytes(topic)), hexToBytes(log.data)]),
    },
    // encodeReceipt prefixes any type but legacy, 0x71 as well.
    transactionType(tx) as never,
  )
}
