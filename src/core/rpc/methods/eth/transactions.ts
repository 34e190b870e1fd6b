import type { PrefixedHexString } from '@ethereumjs/util'
import type { BlockRecord, TransactionRecord } from '../../../chain/records.ts'
import { TransactionSyncTimeoutError } from '../../../errors.ts'
import type { Node } from '../../../node.ts'
import { formatReceipt } from '../../format/receipt.ts'
import { formatMinedTransaction, formatTransaction } from '../../format/transaction.ts'
import { method, type MethodTable } from '../../method.ts'
import { address, blockRef, data, hash, numberish, optional, quantity } from '../../params.ts'

/** eth_sendRawTransactionSync's wait when the caller names none, and the longest it waits (geth's default is 2 s too). */
const SYNC_TIMEOUT_MS = 2_000
const SYNC_TIMEOUT_MAX_MS = 60_000

function transactionAt(block: BlockRecord | undefined, index: bigint) {
  const tx = block && index < BigInt(block.transactions.length) ? block.transactions[Number(index)] : undefined
  return tx ? formatMinedTransaction(tx, block!) : null
}

/**
 * The mined transaction `hash`, once a block takes it, or a TransactionSyncTimeoutError after
 * `timeoutMs`. Under automine it is mined already when `submit` answers; under interval or
 * manual mining it waits for the block that takes it.
 */
function minedWithin(node: Node, hash: PrefixedHexString, timeoutMs: number): Promise<TransactionRecord> {
  const mined = node.chain.transaction(hash)
  if (mined) return Promise.resolve(mined)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop()
      reject(new TransactionSyncTimeoutError(hash, timeoutMs))
    }, timeoutMs)
    const stop = node.on('block', (block) => {
      const tx = block.transactions.find((candidate) => candidate.hash === hash)
      if (!tx) return
      clearTimeout(timer)
      stop()
      resolve(tx)
    })
  })
}

/** Submitting transactions and reading them back, mined or pending. */
export const transactionMethods: MethodTable = {
  eth_sendRawTransaction: method([data('transaction')], async (node, [raw]) => node.submit(await node.decodeTransaction(raw))),

  // EIP-7966: the receipt instead of the hash. The timeout (ms) is capped, as geth caps it.
  eth_sendRawTransactionSync: method([data('transaction'), optional(numberish('timeout'))], async (node, [raw, timeout]) => {
    const hash = await node.submit(await node.decodeTransaction(raw))
    const timeoutMs = timeout === undefined || timeout === 0n ? SYNC_TIMEOUT_MS : Math.min(Number(timeout), SYNC_TIMEOUT_MAX_MS)
    const tx = await minedWithin(node, hash, timeoutMs)
    return formatReceipt(tx, node.chain.byNumber(tx.blockNumber)!)
  }),

  eth_getTransactionBySenderAndNonce: method([address('sender'), quantity('nonce')], (node, [sender, nonce]) => {
    const mined = node.chain.transactionBySenderAndNonce(sender, nonce)
    return mined ? formatMinedTransaction(mined, node.chain.byNumber(mined.blockNumber)!) : null
  }),

  eth_getTransactionByHash: method([hash('transactionHash')], (node, [txHash]) => {
    const mined = node.chain.transaction(txHash)
    if (mined) return formatMinedTransaction(mined, node.chain.byNumber(mined.blockNumber)!)
    const pending = node.pool.stored.get(txHash)
    return pending ? formatTransaction(pending, undefined) : null
  }),

  eth_getTransactionByBlockNumberAndIndex: method([blockRef('block'), quantity('index')], (node, [ref, index]) =>
    transactionAt(node.chain.find(ref), index),
  ),

  eth_getTransactionByBlockHashAndIndex: method([hash('blockHash'), quantity('index')], (node, [blockHash, index]) =>
    transactionAt(node.chain.blockByHash(blockHash), index),
  ),

  eth_getTransactionReceipt: method([hash('transactionHash')], (node, [txHash]) => {
    const mined = node.chain.transaction(txHash)
    return mined ? formatReceipt(mined, node.chain.byNumber(mined.blockNumber)!) : null
  }),

  eth_getBlockReceipts: method([blockRef('block')], (node, [ref]) => {
    const block = node.chain.find(ref)
    return block ? block.transactions.map((tx) => formatReceipt(tx, block)) : null
  }),
}

