import type { PrefixedHexString } from '@ethereumjs/util'
import type { SignedTransaction } from '../exec/rawTransaction.ts'
import { StoredPool } from './storedPool.ts'

export interface PoolEntry extends SignedTransaction {
  /** Arrival order: blocks take transactions first come, first served, as ZKsync's mempool does. */
  seq: number
  receivedAtMs: number
}

/** What changed in the pool since the store last took its changes (ChainWriter). */
export interface PoolJournal {
  added: Map<number, PoolEntry>
  removed: Set<number>
}

/**
 * Transactions accepted but not yet mined. Per sender they are kept by nonce; a transaction
 * whose nonce leaves a gap is queued (like anvil and geth) and becomes executable when the gap
 * fills.
 *
 * The pool is stored like blocks: every entry that arrives or leaves is noted in a journal that
 * the chain writer takes into its next commit (`takeChanges`), so an acknowledged transaction
 * that waits here survives a restart, in its order of arrival (`seq`).
 */
export class TxPool {
  private readonly bySender = new Map<PrefixedHexString, Map<bigint, PoolEntry>>()
  private readonly byHash = new Map<PrefixedHexString, PoolEntry>()
  /**
   * Per sender, a run of nonces [from, to) all in the pool, so that admitting a sender's next
   * transaction does not count its whole queue again (2,000 pooled transactions of one sender
   * cost 2 million lookups: 5% of filling the pool, Chromium profile). Dropped when one leaves.
   */
  private readonly runs = new Map<PrefixedHexString, { from: bigint; to: bigint }>()
  private seq = 0
  private journal: PoolJournal = { added: new Map(), removed: new Set() }
  /** The pool as the store holds it, which readers see (the chain writer applies each stored commit's changes). */
  readonly stored = new StoredPool()

  get size(): number {
    return this.byHash.size
  }

  get(hash: PrefixedHexString): PoolEntry | undefined {
    return this.byHash.get(hash.toLowerCase() as PrefixedHexString)
  }

  /** The entry already holding this sender's nonce, if any. */
  atNonce(from: PrefixedHexString, nonce: bigint): PoolEntry | undefined {
    return this.bySender.get(from)?.get(nonce)
  }

  add(tx: SignedTransaction, receivedAtMs: number): PoolEntry {
    const entry: PoolEntry = { ...tx, seq: this.seq++, receivedAtMs }
    this.insert(entry)
    return entry
  }

  private insert(entry: PoolEntry): void {
    const previous = this.atNonce(entry.from, entry.tx.nonce)
    if (previous) {
      this.byHash.delete(previous.hash)
      this.noteRemoved(previous.seq)
    }
    let nonces = this.bySender.get(entry.from)
    if (!nonces) this.bySender.set(entry.from, (nonces = new Map()))
    nonces.set(entry.tx.nonce, entry)
    this.byHash.set(entry.hash, entry)
    this.journal.added.set(entry.seq, entry)
  }

  private noteRemoved(seq: number): void {
    // An entry that arrived and left between two commits never reaches the store.
    if (!this.journal.added.delete(seq)) this.journal.removed.add(seq)
  }

  /** Whether the pool changed since the store last took its changes. */
  get changed(): boolean {
    return this.journal.added.size > 0 || this.journal.removed.size > 0
  }

  /** The changes since the last call, for the next commit; the journal starts empty again. */
  takeChanges(): PoolJournal {
    const taken = this.journal
    this.journal = { added: new Map(), removed: new Set() }
    return taken
  }

  /** Changes a refused commit did not store: noted again, for the next commit. */
  returnChanges(changes: PoolJournal): void {
    for (const seq of changes.removed) if (!this.journal.added.has(seq)) this.journal.removed.add(seq)
    for (const [seq, entry] of changes.added) if (this.byHash.get(entry.hash) === entry) this.journal.added.set(seq, entry)
  }

  /** Fills an empty pool with stored entries (a restart): their numbers kept, nothing to store. */
  load(entries: readonly PoolEntry[]): void {
    for (const entry of entries) {
      this.insert(entry)
      if (entry.seq >= this.seq) this.seq = entry.seq + 1
    }
    this.journal = { added: new Map(), removed: new Set() }
    this.stored.load(entries)
  }

  remove(hash: PrefixedHexString): PoolEntry | undefined {
    const entry = this.byHash.get(hash)
    if (!entry) return undefined
    this.byHash.delete(hash)
    this.noteRemoved(entry.seq)
    const nonces = this.bySender.get(entry.from)
    nonces?.delete(entry.tx.nonce)
    const run = this.runs.get(entry.from)
    if (run && entry.tx.nonce >= run.from && entry.tx.nonce < run.to) this.runs.delete(entry.from)
    if (nonces?.size === 0) this.bySender.delete(entry.from)
    return entry
  }

  /** How many of `from`'s transactions follow `stateNonce` without a gap. */
  executableCount(from: PrefixedHexString, stateNonce: bigint): number {
    const nonces = this.bySender.get(from)
    if (!nonces) return 0
    let run = this.runs.get(from)
    if (run?.from !== stateNonce) this.runs.set(from, (run = { from: stateNonce, to: stateNonce }))
    while (nonces.has(run.to)) run.to++
    return Number(run.to - run.from)
  }

  /**
   * Executable transactions in block order: arrival order across senders, nonce order within a
   * sender. Entries below the sender's state nonce are stale (replaced by a mined one) and go.
   */
  executable(stateNonce: (from: PrefixedHexString) => bigint, limit = Infinity): PoolEntry[] {
    const queues: PoolEntry[][] = []
    for (const [from, nonces] of this.bySender) {
      const start = stateNonce(from)
      for (const [nonce, entry] of nonces) if (nonce < start) this.remove(entry.hash)
      const queue: PoolEntry[] = []
      for (let n = start; nonces.has(n); n++) queue.push(nonces.get(n)!)
      if (queue.length > 0) queues.push(queue)
    }
    const ordered: PoolEntry[] = []
    while (ordered.length < limit && queues.length > 0) {
      let best = 0
      for (let i = 1; i < queues.length; i++) if (queues[i][0].seq < queues[best][0].seq) best = i
      ordered.push(queues[best].shift()!)
      if (queues[best].length === 0) queues.splice(best, 1)
    }
    return ordered
  }

  senders(): PrefixedHexString[] {
    return [...this.bySender.keys()]
  }

  /** Every entry, in arrival order. */
  all(): PoolEntry[] {
    return [...this.byHash.values()].sort((a, b) => a.seq - b.seq)
  }

  clear(): void {
    for (const entry of this.byHash.values()) this.noteRemoved(entry.seq)
    this.bySender.clear()
    this.byHash.clear()
    this.runs.clear()
  }

  /** Makes the pool hold exactly `entries` again (evm_revert), in their order of arrival. */
  restore(entries: readonly PoolEntry[]): void {
    this.clear()
    for (const entry of [...entries].sort((a, b) => a.seq - b.seq)) this.insert({ ...entry, seq: this.seq++ })
  }
}
