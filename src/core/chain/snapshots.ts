import type { PrefixedHexString } from '@ethereumjs/util'
import type { BlockParams } from './blockParams.ts'
import type { ClockState } from './clock.ts'
import type { PoolEntry } from './txPool.ts'

/**
 * What evm_snapshot keeps (a state root, the head, the rest by reference: docs/methods.md,
 * "Snapshots"). Nothing is copied: trie nodes are never deleted, so the root stays readable; the
 * pool is a list of the (immutable) entries it held.
 */
export interface ChainSnapshot {
  head: bigint
  headHash: PrefixedHexString
  /** The head's state then, dev-node edits included. */
  stateRoot: Uint8Array
  clock: ClockState
  params: ReturnType<BlockParams['save']>
  pool: PoolEntry[]
}

/**
 * Snapshots by id (0x1, 0x2, …, never reused while the node runs). Reverting to one consumes
 * it and every snapshot taken after it, as in anvil and Hardhat: their chains are gone.
 * They are stored with the node's settings (dev/persistedSettings.ts), so an id taken before a
 * restart still reverts after it.
 */
export class SnapshotRegistry {
  private readonly taken = new Map<bigint, ChainSnapshot>()
  private next = 1n
  /** Bumped on every change, so that their stored form is encoded again only when they change. */
  version = 0

  add(snapshot: ChainSnapshot): bigint {
    const id = this.next++
    this.taken.set(id, snapshot)
    this.version++
    return id
  }

  /** Every snapshot by id, and the id the next one takes. */
  all(): { taken: [bigint, ChainSnapshot][]; next: bigint } {
    return { taken: [...this.taken], next: this.next }
  }

  /** Puts stored snapshots back (a restart). */
  load(taken: [bigint, ChainSnapshot][], next: bigint): void {
    this.taken.clear()
    for (const [id, snapshot] of taken) this.taken.set(id, snapshot)
    this.next = next
    this.version++
  }

  get(id: bigint): ChainSnapshot | undefined {
    return this.taken.get(id)
  }

  /** Forgets snapshot `id` and every later one (they were reverted past). */
  consume(id: bigint): void {
    for (const later of this.taken.keys()) if (later >= id) this.taken.delete(later)
    this.version++
  }

  clear(): void {
    this.taken.clear()
    this.version++
  }
}
