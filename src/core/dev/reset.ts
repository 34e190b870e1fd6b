import { createGenesis } from '../exec/genesis.ts'
import type { Node } from '../node.ts'
import { StoreError } from '../errors.ts'

/**
 * anvil_reset / hardhat_reset without a fork: a fresh genesis, as createNode makes it with the
 * same options, on a wiped store. The pool, snapshots, clock offsets, impersonations and the
 * next block's settings (coinbase, gas limit, base fee, minimum gas price) go back to their
 * starting values; the mining mode stays as it is (a setting of the page that runs the node,
 * like its interval timer).
 */
export function resetChain(node: Node): Promise<void> {
  return node.miner.exclusive(async () => {
    // Wiped first: if the store refuses, nothing has changed.
    try {
      await node.store.wipe()
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      throw new StoreError(`the store refused to wipe the chain (${why}); nothing was reset`, { cause: error })
    }
    node.writer.restored(-1n)
    node.chain.truncate(-1n)
    await node.state.clear()
    node.pool.clear()
    node.pool.stored.clear()
    node.clock.reset()
    node.params.reset()
    node.impersonation.reset()
    node.snapshots.clear()
    const genesis = await createGenesis(node.state, node.common, node.config, node.accounts, node.clock.now())
    node.chain.append(genesis)
    node.filters.rewind(0n)
    node.writer.enqueue(genesis)
    try {
      await node.writer.settled()
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      throw new StoreError(`the chain was reset, but the store refused its new genesis block (${why}); the store holds no chain until it accepts one`, {
        cause: error,
      })
    }
    node.scheduleBatchSeal()
  })
}
