import type { BlockRecord } from '../chain/records.ts'
import type { Node } from '../node.ts'
import { InvalidParamsError, LimitExceededError } from '../errors.ts'

export interface MineRequest {
  blocks: bigint
  /** Seconds between the blocks (anvil_mine's and hardhat_mine's second argument). */
  interval?: bigint
  /** The first block's timestamp (evm_mine's argument). */
  timestamp?: bigint
}

/**
 * Mines blocks now, whatever the mining mode: each takes what the pool can execute (under
 * automine the pool is empty, so they are empty). Every block is real and kept, so a call may
 * mine at most `limits.maxMineBlocks` (Hardhat mines millions lazily; this node stores each).
 */
export async function mineBlocks(node: Node, { blocks, interval, timestamp }: MineRequest): Promise<BlockRecord[]> {
  const limit = node.config.limits.maxMineBlocks
  if (blocks > BigInt(limit)) {
    throw new LimitExceededError(`cannot mine ${blocks} blocks in one call: the limit is ${limit} (limits.maxMineBlocks)`, { limit: 'maxMineBlocks' })
  }
  if (timestamp !== undefined) checkNextTimestamp(node, timestamp)
  return node.miner.mineBlocks(Number(blocks), { interval, timestamp })
}

/** A timestamp for the next block: never before the head's (this chain's timestamps never go back). */
export function checkNextTimestamp(node: Node, timestamp: bigint): void {
  const head = node.chain.head.header.timestamp
  // anvil's code and wording (-32602); a timestamp equal to the parent's is refused too, since
  // block timestamps strictly increase (as Hardhat refuses it).
  if (timestamp <= head) {
    throw new InvalidParamsError(`Timestamp error: ${timestamp} is lower than or equal to previous block's timestamp ${head}`)
  }
}
