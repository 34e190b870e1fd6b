import type { Node } from '../../node.ts'
import { blockBytes, receiptBytes } from '../../exec/rawBlock.ts'
import { transactionBytes } from '../../exec/rawTransaction.ts'
import { bytesToHex } from '../../hexText.ts'
import { method, type MethodTable } from '../method.ts'
import { blockRef, hash } from '../params.ts'
import type { BlockRef } from '../../chain/chain.ts'

/** The block a raw getter names: an unknown one is geth's "header not found"; `pending` is the head (no pending block is built). */
const blockAt = (node: Node, ref: BlockRef) => node.block(ref)

/**
 * geth's debug_getRaw*: consensus encodings of what the chain holds (exec/rawBlock.ts). A 0x71
 * transaction is its EIP-712 envelope, the bytes the block commits to.
 */
export const debugRawMethods = {
  debug_getRawHeader: method([blockRef('block')], (node, [ref]) => bytesToHex(blockAt(node, ref).header.serialize())),
  debug_getRawBlock: method([blockRef('block')], (node, [ref]) => bytesToHex(blockBytes(blockAt(node, ref)))),
  debug_getRawReceipts: method([blockRef('block')], (node, [ref]) => blockAt(node, ref).transactions.map((tx) => bytesToHex(receiptBytes(tx)))),
  // geth answers "0x" for a hash it does not know (no error, no null).
  debug_getRawTransaction: method([hash('transactionHash')], (node, [txHash]) => {
    const tx = node.chain.transaction(txHash) ?? node.pool.stored.get(txHash)
    return tx ? bytesToHex(transactionBytes(tx)) : '0x'
  }),
} satisfies MethodTable
