import { bigIntToHex, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import type { BatchRecord } from '../chain/batches.ts'
import type { BlockRecord, TransactionRecord } from '../chain/records.ts'
import type { SignedTransaction } from '../exec/rawTransaction.ts'
import { GAS_PER_PUBDATA_LIMIT, L1_GAS_PRICE } from './feeModel.ts'
import { BASE_SYSTEM_CONTRACTS_HASHES, PROTOCOL_VERSION_NAME } from './protocolVersion.ts'

/**
 * era's BlockDetails / L1BatchDetails / TransactionDetails (docs/zksync.md, "Response shapes"):
 * camelCase, numbers as JSON numbers, every optional key present. A sealed batch is final here,
 * which era calls "verified"; the L1 transactions that would commit, prove and execute it do not
 * exist, so their hashes and times stay null.
 */

interface BlocksSummary {
  timestamp: bigint
  l2TxCount: number
  rootHash: PrefixedHexString
  sealed: boolean
}

function base({ timestamp, l2TxCount, rootHash, sealed }: BlocksSummary, l2GasPrice: bigint) {
  return {
    timestamp: Number(timestamp),
    // Every transaction here is an L2 one: there is no L1 to send priority operations.
    l1TxCount: 0,
    l2TxCount,
    rootHash,
    status: sealed ? 'verified' : 'sealed',
    commitTxHash: null,
    committedAt: null,
    commitChainId: null,
    proveTxHash: null,
    provenAt: null,
    proveChainId: null,
    executeTxHash: null,
    executedAt: null,
    executeChainId: null,
    l1GasPrice: Number(L1_GAS_PRICE),
    l2FairGasPrice: Number(l2GasPrice),
    fairPubdataPrice: 0,
    baseSystemContractsHashes: BASE_SYSTEM_CONTRACTS_HASHES,
  }
}

/** zks_getBlockDetails. Its batch number is the batch it joins, sealed or not (era's too). */
export function blockDetails(block: BlockRecord, l2GasPrice: bigint) {
  return {
    number: Number(block.number),
    l1BatchNumber: Number(block.l1BatchNumber),
    ...base(
      { timestamp: block.header.timestamp, l2TxCount: block.transactions.length, rootHash: block.hash, sealed: block.batchSealed },
      l2GasPrice,
    ),
    operatorAddress: block.header.coinbase.toString(),
    protocolVersion: PROTOCOL_VERSION_NAME,
  }
}

/** zks_getL1BatchDetails of a sealed batch; its root hash is the state root after its last block. */
export function batchDetails(batch: BatchRecord, blocks: Iterable<BlockRecord>, l2GasPrice: bigint) {
  let l2TxCount = 0
  let last: BlockRecord | undefined
  for (const block of blocks) {
    l2TxCount += block.transactions.length
    last = block
  }
  return {
    number: Number(batch.number),
    ...base({ timestamp: batch.timestamp, l2TxCount, rootHash: bytesToHex(last!.header.stateRoot), sealed: batch.sealed }, l2GasPrice),
  }
}

/**
 * zks_getTransactionDetails of a mined transaction (`block` given) or a pooled one. A mined one
 * paid gasUsed × effectiveGasPrice; a pooled one has paid nothing yet.
 */
export function transactionDetails(signed: SignedTransaction, receivedAtMs: number, mined?: { record: TransactionRecord; block: BlockRecord }) {
  const receipt = mined?.record.receipt
  // A chain with no L1 never commits, proves or executes a batch: a mined transaction stays
  // 'included', with null L1 hashes, as anvil-zksync reports it ('verified' would promise proofs).
  const status = !mined ? 'pending' : receipt!.status === 0 ? 'failed' : 'included'
  return {
    isL1Originated: false,
    status,
    fee: bigIntToHex(receipt ? receipt.gasUsed * receipt.effectiveGasPrice : 0n),
    gasPerPubdata: bigIntToHex(signed.eip712?.gasPerPubdata ?? GAS_PER_PUBDATA_LIMIT),
    initiatorAddress: signed.from,
    receivedAt: new Date(receivedAtMs).toISOString(),
    ethCommitTxHash: null,
    ethProveTxHash: null,
    ethExecuteTxHash: null,
  }
}
