import { bigIntToHex } from '@ethereumjs/util'
import { constant, type MethodTable } from '../../method.ts'

/** What the node says about itself: chain, head, sync and mining status, its accounts. */
export const nodeMethods: MethodTable = {
  eth_chainId: constant((node) => bigIntToHex(node.chainId)),
  eth_blockNumber: constant((node) => bigIntToHex(node.chain.head.number)),
  eth_syncing: constant(() => false),
  // ZKsync's protocol name, as era and anvil-zksync answer.
  eth_protocolVersion: constant(() => 'zks/1'),
  // Where the next block's priority fees go: the zero address unless anvil_setCoinbase moved it.
  eth_coinbase: constant((node) => node.params.coinbase.toString()),
  // Mining means "blocks appear by themselves": true unless only explicit mining makes them.
  eth_mining: constant((node) => node.mining.mining),
  eth_hashrate: constant(() => '0x0'),
}
