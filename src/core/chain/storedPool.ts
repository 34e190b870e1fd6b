import type { PrefixedHexString } from '@ethereumjs/util'
import type { PoolEntry, PoolJournal } from './txPool.ts'

/**
 * The pool as the store holds it: what readers see (txpool_*, a pending transaction by hash).
 * The live pool (`TxPool`) takes a transaction the moment it is admitted and lets go of it the
 * moment the miner takes it, before the store has either change; this view changes only when
 * a commit carrying those changes succeeded (`apply`), in the same step as the chain publishes
 * the blocks of that commit. So a reader never sees a pooled transaction a crash could still
 * take away, and a transaction being mined stays visible as pending until its block is stored.
 */
export class StoredPool {
  private readonly bySeq = new Map<number, PoolEntry>()
  private readonly byHash = new Map<PrefixedHexString, PoolEntry>()
  private readonly bySender = new Map<PrefixedHexString, Map<bigint, PoolEntry>>()

  get size(): number {
    return this.byHash.size
  }

  get(hash: PrefixedHexString): PoolEntry | undefined {
    return this.byHash.get(hash.toLowerCase() as PrefixedHexString)
  }

  /** A commit with these pool changes succeeded. Removals first: a replacement comes with the entry it replaced. */
  apply(changes: PoolJournal): void {
    for (const seq of changes.removed) this.remove(seq)
    for (const entry of changes.added.values()) this.add(entry)
  }

  /** The store's pool as loaded at start. */
  load(entries: readonly PoolEntry[]): void {
    for (const entry of entries) this.add(entry)
  }

  /** The store was wiped (anvil_reset): it holds no pool. */
  clear(): void {
    this.bySeq.clear()
    this.byHash.clear()
    this.bySender.clear()
  }

  private add(entry: PoolEntry): void {
    this.bySeq.set(entry.seq, entry)
    this.byHash.set(entry.hash, entry)
    let nonces = this.bySender.get(entry.from)
    if (!nonces) this.bySender.set(entry.from, (nonces = new Map()))
    nonces.set(entry.tx.nonce, entry)
  }

  private remove(seq: number): void {
    const entry = this.bySeq.get(seq)
    if (!entry) return
    this.bySeq.delete(seq)
    if (this.byHash.get(entry.hash) === entry) this.byHash.delete(entry.hash)
    const nonces = this.bySender.get(entry.from)
    if (nonces?.get(entry.tx.nonce) === entry) nonces.delete(entry.tx.nonce)
    if (nonces?.size === 0) this.bySender.delete(entry.from)
  }

  senders(): PrefixedHexString[] {
    return [...this.bySender.keys()]
  }

  /** Every entry, in arrival order. */
  all(): PoolEntry[] {
    return [...this.bySeq.values()].sort((a, b) => a.seq - b.seq)
  }

  /** How many of `from`'s transactions follow `stateNonce` without a gap. */
  executableCount(from: PrefixedHexString, stateNonce: bigint): number {
    const nonces = this.bySender.get(from)
    let count = 0
    while (nonces?.has(stateNonce + BigInt(count))) count++
    return count
  }
}
