import { createGenesis } from '../exec/genesis.ts'
import type { Node } from '../node.ts'
import { ServerError, StoreError } from '../errors.ts'
import type { ForkState } from '../fork/forkState.ts'
import type { ResetForking } from '../rpc/devParams.ts'

/**
 * anvil_reset / hardhat_reset: a fresh genesis, as createNode makes it with the same options, on a
 * wiped store. With `forking`, on the fork it names (its URL, else the chain's fork's; its block,
 * else the upstream's head); without, a forked chain goes back to its fork point (the upstream
 * state fetched so far is kept: it is the same). The chain id stays the node's. The pool, snapshots, clock offsets, impersonations and the
 * next block's settings (coinbase, gas limit, base fee, minimum gas price) go back to their
 * starting values; the mining mode stays as it is (a setting of the page that runs the node,
 * like its interval timer).
 */
export function resetChain(node: Node, forking?: ResetForking): Promise<void> {
  return node.miner.exclusive(async () => {
    // Resolved before anything changes: an upstream that fails leaves the chain as it was.
    const fork = await forkAfterReset(node, forking)
    // Wiped first: if the store refuses, nothing has changed.
    try {
      await node.store.wipe()
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      throw new StoreError(`the store refused to wipe the chain (${why}); nothing was reset`, { cause: error })
    }
    node.chain.truncate(node.chain.first - 1n)
    // A fork's chain continues the upstream's numbering from its fork block (exec/genesis.ts).
    node.chain.rebase(fork?.point.blockNumber ?? 0n)
    node.writer.restored(node.chain.first - 1n)
    await node.state.clear()
    fork?.rewriteAll()
    node.useFork(fork)
    node.pool.clear()
    node.pool.stored.clear()
    node.clock.reset()
    node.params.reset()
    node.impersonation.reset()
    node.snapshots.clear()
    const genesis = await createGenesis(node.state, node.common, node.config, node.accounts, node.clock.now())
    node.chain.append(genesis)
    node.filters.rewind(genesis.number)
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

/** The fork a reset leaves the chain on: the same one, another, or none. */
async function forkAfterReset(node: Node, forking: ResetForking | undefined): Promise<ForkState | undefined> {
  const current = node.fork
  if (!forking) return current
  const url = forking.url ?? current?.point.url
  if (url === undefined) throw new ServerError('anvil_reset: forking needs a jsonRpcUrl: this chain is not a fork')
  // The fork's code is loaded when a chain forks (the worker's startup bundle leaves it out).
  const { ForkState, Upstream, resolveForkPoint } = await import('../fork/openFork.ts')
  const upstream = current ? current.upstream.withUrl(url) : new Upstream(url)
  const point = await resolveForkPoint(upstream, { url, blockNumber: forking.blockNumber }, node.config.chainId)
  // The same fork: what was fetched stays true.
  if (current && point.blockNumber === current.point.blockNumber && url === current.point.url) return current
  return new ForkState(point, upstream)
}

/** anvil_setRpcUrl: the fork's upstream from another URL, stored for the next start. */
export function setUpstreamUrl(node: Node, url: string): Promise<void> {
  const fork = node.fork
  if (!fork) throw new ServerError('anvil_setRpcUrl: this chain is not a fork (start it with a fork, or fork it with anvil_reset)')
  return node.miner.exclusive(async () => {
    fork.useUpstream(fork.upstream.withUrl(url))
    await node.writer.persist()
  })
}
