import type { Node } from '../../src/core/node.ts'

/**
 * Mines one block from the pool of a manual-mining node, as evm_mine will once it lands; until
 * then the miner is driven directly. The way to get several transactions into one block.
 */
export function mineBlock(node: Node) {
  return node.miner.mine()
}
