import { equalsBytes } from '@ethereumjs/util'
import type { TrieNodeStore } from '../store/trieNodeStore.ts'
import type { ForkState } from '../fork/forkState.ts'
import { StoreError } from '../errors.ts'
import { encodeBlockRecord } from '../store/blockCodec.ts'
import { StoredBlock } from './storedBlock.ts'
import { encodePoolEntry } from '../store/poolCodec.ts'
import { SCHEMA_VERSION, type ChainMeta, type PoolChanges, type Store } from '../store/store.ts'
import type { Chain } from './chain.ts'
import type { BlockRecord } from './records.ts'
import type { PoolJournal, TxPool } from './txPool.ts'

interface Waiter {
  /** A block number (durable) or a change sequence number (settled). */
  until: bigint
  resolve(): void
  reject(error: Error): void
}

/**
 * Writes the chain's changes to the store with group commit: at most one commit is in flight,
 * and changes made meanwhile join the next one, so a store that takes milliseconds per commit
 * does not cap throughput at one block per commit. `durable(n)` resolves once block n is stored
 * and `settled()` once every change queued so far is: that is when a change may be acknowledged.
 *
 * A change is a new block, a block stored again (its batch sealed, dev-node edits moved its
 * state), or the removal of the blocks above a number (evm_revert). The store's head only moves
 * when a commit succeeds.
 *
 * The pool's changes and the node's settings (when they changed) ride along in every commit, so
 * a transaction mined leaves the stored pool in the commit that stores its block. `persist()`
 * stores them when no block is coming: a pooled transaction, a dev-node setting.
 *
 * Readers see the chain only up to what is stored: a commit that succeeds publishes its head to
 * the chain (`Chain.publish`) before any waiter is told, so no client sees a block, receipt or
 * state that a crash could still take away.
 *
 * A refused commit fails every change not yet stored and asks `rollBack` to return the chain to
 * the last stored block; until that is done, nothing more is written.
 */
export class ChainWriter {
  private queued: BlockRecord[] = []
  private dropAbove: bigint | undefined
  private writing = false
  private broken = false
  private blockWaiters: Waiter[] = []
  private changeWaiters: Waiter[] = []
  private stored: bigint = -1n
  /** Sequence number of the last change queued, and of the last one in the store. */
  private requested = 0n
  private committed = 0n
  /** Called after a refused commit, with the number of the last block the store holds. */
  rollBack: (lastStored: bigint) => Promise<void> = async () => {}
  /** The pool whose changes each commit carries (set by the node). */
  pool: TxPool | undefined
  /** A forked chain's fork, whose newly fetched state each commit carries (set by the node). */
  fork: ForkState | undefined
  /** The node's settings now, encoded (set by the node); stored when they differ from the last. */
  settings: (() => Uint8Array) | undefined
  /** Puts the node's settings back to an earlier encoding (set by the node): after a refused commit. */
  rollBackSettings: ((settings: Uint8Array) => void) | undefined
  /** The settings the store holds, or that the commit in flight carries. */
  private storedSettings: Uint8Array | undefined
  private committedSettings: Uint8Array | undefined
  /**
   * The node's settings when its memory and the store last agreed (a start, a successful commit):
   * what a refused commit puts back. Not `committedSettings`, which lacks the options a start
   * gave explicitly over the stored ones until a commit stores them.
   */
  private goodSettings: Uint8Array | undefined
  /** Refused commits so far, and the error of the last one (see `failedSince`). */
  private failures = 0
  private lastFailure: Error | undefined
  /** A change with no block of its own is queued (pool or settings: `persist`). */
  private pendingOther = false

  constructor(
    private readonly store: Store,
    private readonly chain: Chain,
    private readonly nodes: TrieNodeStore,
    private readonly chainId: number,
  ) {}

  /** The last block the store holds. */
  get lastStored(): bigint {
    return this.stored
  }

  /** Nothing queued and nothing being written. */
  get idle(): boolean {
    return !this.writing && this.queued.length === 0 && this.dropAbove === undefined && !this.pendingOther
  }

  /**
   * The chain as a store holding blocks up to `head` describes it. A store keeps blocks by their
   * position in the chain (0 for its genesis), which is their number except on a fork, whose
   * genesis is the fork block (Chain.first).
   */
  meta(head: bigint = this.chain.tip.number): ChainMeta {
    return { schemaVersion: SCHEMA_VERSION, chainId: this.chainId, genesisHash: this.chain.genesisHash, headNumber: head - this.chain.first }
  }

  /**
   * Marks a restored chain as stored up to its head (-1: nothing stored, after a wipe), with the
   * settings the store holds (none after a wipe: the next commit stores them again).
   */
  restored(head: bigint, settings?: Uint8Array): void {
    this.stored = head
    this.storedSettings = this.committedSettings = settings
    this.chain.publish(head)
    this.keepSettings()
  }

  /** The node's settings now are the ones a refused commit goes back to (a start). */
  keepSettings(): void {
    this.goodSettings = this.settings?.()
  }

  /**
   * Stores the pool's changes and the settings, if any differ from the store's, and resolves once
   * they (and everything queued before) are stored: what a pooled transaction or a dev-node
   * setting waits for before it is acknowledged. Joins the commit in flight's successor, as
   * blocks do.
   */
  persist(): Promise<void> {
    if (this.pool?.changed || this.fork?.changed || this.settingsChanged() !== undefined) {
      this.pendingOther = true
      this.requested++
      void this.flush()
    }
    return this.settled()
  }

  /** A mark to pass to `failedSince`, taken before a change is made in memory. */
  get failureMark(): number {
    return this.failures
  }

  /**
   * Throws the refusal that rolled the node back since `mark`, if one did. A dev-node setting
   * changed in memory, then rolled back by another commit's refusal before its own `persist`,
   * would find nothing to store and succeed: its caller must be told it failed instead.
   */
  failedSince(mark: number): void {
    if (this.failures !== mark && this.lastFailure) throw this.lastFailure
  }

  /** The settings to store, when they differ from what the store holds or will. */
  private settingsChanged(): Uint8Array | undefined {
    const now = this.settings?.()
    if (!now || (this.storedSettings && (now === this.storedSettings || equalsBytes(now, this.storedSettings)))) return undefined
    return now
  }

  /**
   * Queues a block for the next commit: a new one (already appended to the chain), or a stored
   * one again. The record is encoded when the commit starts, so it may be a new version of a
   * block that the chain takes on only once it is stored.
   */
  enqueue(block: BlockRecord): void {
    this.queued.push(block)
    this.requested++
    void this.flush()
  }

  /**
   * Queues the removal of every block above `number` (evm_revert), and `storeAgain` (the new head
   * as the revert leaves it) in the same commit: were they two, a refused second one would find
   * the store below the chain's head and wait for the miner's lock to roll back, which the
   * reverting caller holds. Callers hold the miner's lock with nothing queued
   * (Miner.exclusive), so no block above `number` is waiting to be stored.
   */
  truncate(number: bigint, storeAgain?: BlockRecord): void {
    this.dropAbove = this.dropAbove === undefined || number < this.dropAbove ? number : this.dropAbove
    if (storeAgain) this.queued.push(storeAgain)
    this.requested++
    void this.flush()
  }

  /** Resolves once block `number` is in the store; rejects if it never will be. */
  durable(number: bigint): Promise<void> {
    if (number <= this.stored) return Promise.resolve()
    return new Promise((resolve, reject) => this.blockWaiters.push({ until: number, resolve, reject }))
  }

  /** Resolves once every change queued so far is in the store; rejects if its commit fails. */
  settled(): Promise<void> {
    if (this.committed >= this.requested) return Promise.resolve()
    return new Promise((resolve, reject) => this.changeWaiters.push({ until: this.requested, resolve, reject }))
  }

  private async flush(): Promise<void> {
    if (this.writing || this.broken || (this.queued.length === 0 && this.dropAbove === undefined && !this.pendingOther)) return
    this.writing = true
    const blocks = this.queued
    const dropAbove = this.dropAbove
    const upTo = this.requested
    this.queued = []
    this.dropAbove = undefined
    this.pendingOther = false
    let head = dropAbove ?? this.stored
    for (const block of blocks) if (block.number > head) head = block.number
    const nodes = this.nodes.drainNew()
    const poolChanges = this.pool?.takeChanges()
    const fork = this.fork?.changed ? this.fork.drainNew() : undefined
    const settings = this.settingsChanged()
    if (settings) this.storedSettings = settings
    const first = this.chain.first
    // Written into the chain's slabs, where the store and the chain's stored form share them; a
    // block stored again (its batch sealed) keeps its first bytes in the chain, so its new ones
    // are the store's alone.
    const allocate = (length: number) => this.chain.records.allocate(length)
    const encoded = blocks.map((block) => ({
      number: block.number - first,
      bytes: encodeBlockRecord(block, block instanceof StoredBlock ? undefined : allocate),
    }))
    // The last batch this commit seals, as encoded (a batch sealed in memory meanwhile waits for its own commit).
    let sealedBatch: bigint | undefined
    for (const block of blocks) if (block.sealsBatch && (sealedBatch === undefined || block.l1BatchNumber > sealedBatch)) sealedBatch = block.l1BatchNumber
    try {
      await this.store.commit({
        meta: this.meta(head),
        nodes,
        blocks: encoded,
        dropAbove: dropAbove === undefined ? undefined : dropAbove - first,
        pool: poolChanges && encodePoolChanges(poolChanges),
        settings,
        fork,
      })
      this.stored = head
      this.committed = upTo
      this.nodes.stored(nodes)
      if (settings) this.committedSettings = this.goodSettings = settings
      // Stored: the chain keeps them as their bytes from now on (Chain.stored).
      // Published first: the batches it seals flag their blocks, which the stored forms made
      // next copy (and the `block` event, sent with the mined record, shows).
      this.chain.publish(head, sealedBatch)
      blocks.forEach((block, i) => this.chain.stored(block, encoded[i].bytes))
      // Readers see the blocks and the pool of this commit together: a transaction mined by it
      // leaves the pool they see as its block appears.
      if (poolChanges) this.pool!.stored.apply(poolChanges)
      this.blockWaiters = settle(this.blockWaiters, (waiter) => waiter.until <= head)
      this.changeWaiters = settle(this.changeWaiters, (waiter) => waiter.until <= upTo)
    } catch (error) {
      this.nodes.restoreNew(nodes)
      if (fork) this.fork!.restoreNew(fork)
      if (poolChanges) this.pool!.returnChanges(poolChanges)
      this.storedSettings = this.committedSettings
      const firstNew = blocks.find((block) => block.number > this.stored)
      await this.fail(firstNew?.number, error)
    } finally {
      this.writing = false
    }
    void this.flush()
  }

  /** `firstNew`: the first block of the failed commit the store did not have; none for other changes. */
  private async fail(firstNew: bigint | undefined, error: unknown): Promise<void> {
    this.broken = true
    const why = error instanceof Error ? error.message : String(error)
    const failure =
      firstNew === undefined
        ? new StoreError(`the change could not be stored (${why}); the chain is unchanged at block ${this.stored}`, { cause: error })
        : new StoreError(`block ${firstNew} could not be stored (${why}); the chain is back at block ${this.stored}`, { cause: error })
    this.queued = []
    this.dropAbove = undefined
    this.pendingOther = false
    this.failures++
    this.lastFailure = failure
    try {
      await this.rollBack(this.stored)
    } finally {
      // Settings changed since the last good commit go back too: their callers are told they failed.
      const good = this.goodSettings
      if (good && this.rollBackSettings && this.settings && !equalsBytes(this.settings(), good)) this.rollBackSettings(good)
      // Changes made on top of the failed ones while the rollback waited are gone with them.
      this.queued = []
      this.dropAbove = undefined
      this.pendingOther = false
      this.committed = this.requested
      this.broken = false
      this.blockWaiters = settle(this.blockWaiters, () => true, failure)
      this.changeWaiters = settle(this.changeWaiters, () => true, failure)
    }
  }
}

function encodePoolChanges(changes: PoolJournal): PoolChanges | undefined {
  if (changes.added.size === 0 && changes.removed.size === 0) return undefined
  return { added: [...changes.added].map(([seq, entry]) => [seq, encodePoolEntry(entry)]), removed: [...changes.removed] }
}

/** Resolves (or rejects with `error`) the waiters `which` picks; returns the others. */
function settle(waiters: Waiter[], which: (waiter: Waiter) => boolean, error?: Error): Waiter[] {
  const remaining: Waiter[] = []
  for (const waiter of waiters) {
    if (!which(waiter)) remaining.push(waiter)
    else if (error) waiter.reject(error)
    else waiter.resolve()
  }
  return remaining
}
