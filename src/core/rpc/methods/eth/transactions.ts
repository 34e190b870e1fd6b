import type { BlockRecord } from '../../../chain/records.ts'
import { decodeRawTransaction } from '../../../exec/rawTransaction.ts'
import { formatReceipt } from '../../format/receipt.ts'
import { formatMinedTransaction, formatTransaction } from '../../format/transaction.ts'
import { method, type MethodTable } from '../../method.ts'
import { blockRef, data, hash, quantity } from '../../params.ts'

function transactionAt(block: BlockRecord | undefined, index: bigint) {
  const tx = block && index < BigInt(block.transactions.length) ? block.transactions[Number(index)] : undefined
  return tx ? formatMinedTransaction(tx, block!) : null
}

/** Submitting transactions and reading them back, mined or pending. */
export const transactionMethods: MethodTable = {
  eth_sendRawTransaction: method([data('transaction')], (node, [raw]) =>
    node.submit(decodeRawTransaction(raw, node.common)),
  ),

  eth_getTransactionByHash: method([hash('transactionHash')], (node, [txHash]) => {
    const mined = node.chain.transaction(txHash)
    if (mined) return formatMinedTransaction(mined, node.chain.byNumber(mined.blockNumber)!)
    const pending = node.pool.get(txHash)
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

