import { bigIntToHex } from '@ethereumjs/util'
import type { BlockRef } from '../../../chain/chain.ts'
import { formatBlock } from '../../format/block.ts'
import { method, type MethodTable } from '../../method.ts'
import { blockRef, boolean, hash, optional } from '../../params.ts'

const byNumber = (name = 'block') => blockRef(name)
const byHash = () => hash('blockHash')
const asRef = (blockHash: `0x${string}`): BlockRef => ({ kind: 'hash', hash: blockHash, requireCanonical: false })

/** Blocks and their counts. An unknown block answers null, as geth does for these methods. */
export const blockMethods: MethodTable = {
  eth_getBlockByNumber: method([byNumber(), optional(boolean('fullTransactions'), false)], (node, [ref, full]) => {
    const block = node.chain.find(ref)
    return block ? formatBlock(block, full) : null
  }),
  eth_getBlockByHash: method([byHash(), optional(boolean('fullTransactions'), false)], (node, [blockHash, full]) => {
    const block = node.chain.blockByHash(blockHash)
    return block ? formatBlock(block, full) : null
  }),
  eth_getBlockTransactionCountByNumber: method([byNumber()], (node, [ref]) => {
    const block = node.chain.find(ref)
    return block ? bigIntToHex(BigInt(block.transactions.length)) : null
  }),
  eth_getBlockTransactionCountByHash: method([byHash()], (node, [blockHash]) => {
    const block = node.chain.find(asRef(blockHash))
    return block ? bigIntToHex(BigInt(block.transactions.length)) : null
  }),
  // A rollup has no uncles.
  eth_getUncleCountByBlockNumber: method([byNumber()], (node, [ref]) => (node.chain.find(ref) ? '0x0' : null)),
  eth_getUncleCountByBlockHash: method([byHash()], (node, [blockHash]) => (node.chain.blockByHash(blockHash) ? '0x0' : null)),
}
