import { bigIntToHex, equalsBytes } from '@ethereumjs/util'
import { stateRootOf, withEditedStateRoot } from '../chain/records.ts'
import type { Node } from '../node.ts'
import { ServerError } from '../errors.ts'

/**
 * evm_snapshot: the head, its state root (edits included), the clock, the next block's settings and
 * the pool. O(1) in the state: trie nodes are never deleted, so the root stays readable
 * (docs/ethereumjs-notes.md, "Snapshots by state root": a checkpoint would break as soon as a block
 * is mined). Taken with every earlier change stored, so a snapshot never names a block that could
 * still be rolled back.
 */
export function takeSnapshot(node: Node): Promise<bigint> {
  return node.miner.exclusive(async () => {
    const head = node.chain.head
    return node.snapshots.add({
      head: head.number,
      headHash: head.hash,
      stateRoot: stateRootOf(head),
      clock: node.clock.save(),
      params: node.params.save(),
      pool: node.pool.all(),
    })
  })
}

/**
 * evm_revert: back to the snapshot, which is consumed with every later one (their chains are
 * gone). The blocks above the snapshot's head are dropped and its head's record is stored again
 * with the state it had, together with the pool, clock and settings the snapshot puts back, in
 * one commit: a commit the store refuses leaves the chain, and all of those, as they were. Then
 * the state root is put back and filters that had seen the dropped blocks are rewound.
 */
export function revertToSnapshot(node: Node, id: bigint): Promise<boolean> {
  return node.miner.exclusive(async () => {
    // Never taken, or gone (a snapshot can be reverted to once, and reverting to one discards
    // the snapshots taken after it): nothing to do, which is not an error to the callers.
    const snapshot = node.snapshots.get(id)
    if (!snapshot) return false
    const target = node.chain.byNumber(snapshot.head)
    if (target?.hash !== snapshot.headHash) {
      node.snapshots.consume(id)
      throw new ServerError(`snapshot ${bigIntToHex(id)} no longer matches the chain: its head block ${snapshot.head} was replaced`)
    }
    const editedStateRoot = equalsBytes(snapshot.stateRoot, target.header.stateRoot) ? undefined : snapshot.stateRoot
    // What the commit carries besides the blocks (ChainWriter takes the pool and the settings as
    // they are when it starts): put back first, and undone if the store refuses.
    const before = { ...node.clock.save(), params: node.params.save(), pool: node.pool.all(), snapshots: node.snapshots.all() }
    node.clock.restore(snapshot.clock)
    node.params.restore(snapshot.params)
    node.pool.restore(snapshot.pool)
    node.snapshots.consume(id)
    node.writer.truncate(snapshot.head, withEditedStateRoot(target, editedStateRoot))
    try {
      await node.writer.settled()
    } catch (error) {
      node.clock.offsetSeconds = before.offsetSeconds
      node.clock.nextOverride = before.nextOverride
      node.clock.interval = before.interval
      node.params.restore(before.params)
      node.pool.restore(before.pool)
      node.snapshots.load(before.snapshots.taken, before.snapshots.next)
      throw error
    }

    const removed = node.chain.truncate(snapshot.head)
    if (editedStateRoot) target.editedStateRoot = editedStateRoot
    else delete target.editedStateRoot
    await node.state.vm.stateManager.setStateRoot(snapshot.stateRoot)
    node.filters.rewind(snapshot.head)
    node.scheduleBatchSeal()
    node.blocksRemoved(removed)
    return true
  })
}
