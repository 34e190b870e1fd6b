import { bigIntToHex, KECCAK256_RLP_ARRAY_S } from '@ethereumjs/util'
import { bytesToHex } from '../../hexText.ts'
import type { BlockRecord } from '../../chain/records.ts'
import { formatMinedTransaction } from './transaction.ts'

/**
 * A block in ZKsync's key order (docs/zksync.md, "Response shapes") with real Ethereum values (our
 * blocks are real blocks: roots, miner, mixHash) and the Prague header fields after them. Until
 * its L1 batch is sealed a block shows no batch (null number and timestamp), as on era.
 */
export function formatBlock(block: BlockRecord, fullTransactions: boolean): Record<string, unknown> {
  const { header } = block
  return {
    hash: block.hash,
    parentHash: bytesToHex(header.parentHash),
    sha3Uncles: KECCAK256_RLP_ARRAY_S,
    miner: bytesToHex(header.coinbase.bytes),
    stateRoot: bytesToHex(header.stateRoot),
    transactionsRoot: bytesToHex(header.transactionsTrie),
    receiptsRoot: bytesToHex(header.receiptTrie),
    number: bigIntToHex(block.number),
    l1BatchNumber: block.batchSealed ? bigIntToHex(block.l1BatchNumber) : null,
    gasUsed: bigIntToHex(header.gasUsed),
    gasLimit: bigIntToHex(header.gasLimit),
    baseFeePerGas: bigIntToHex(header.baseFeePerGas ?? 0n),
    extraData: bytesToHex(header.extraData),
    logsBloom: bytesToHex(header.logsBloom),
    timestamp: bigIntToHex(header.timestamp),
    l1BatchTimestamp: block.batchSealed ? bigIntToHex(block.l1BatchTimestamp) : null,
    difficulty: bigIntToHex(header.difficulty),
    totalDifficulty: '0x0',
    sealFields: [],
    uncles: [],
    transactions: fullTransactions
      ? block.transactions.map((tx) => formatMinedTransaction(tx, block))
      : block.transactions.map((tx) => tx.hash),
    size: bigIntToHex(block.size),
    mixHash: bytesToHex(header.mixHash),
    nonce: bytesToHex(header.nonce),
    withdrawalsRoot: bytesToHex(header.withdrawalsRoot!),
    withdrawals: [],
    blobGasUsed: bigIntToHex(header.blobGasUsed ?? 0n),
    excessBlobGas: bigIntToHex(header.excessBlobGas ?? 0n),
    parentBeaconBlockRoot: bytesToHex(header.parentBeaconBlockRoot!),
    requestsHash: bytesToHex(header.requestsHash!),
  }
}
