import type { TrieNodeStore } from '../store/trieNodeStore.ts'
import { StoreError } from '../errors.ts'
import { encodeBlockRecord } from '../store/blockCodec.ts'
import { SCHEMA_VERSION, type ChainMeta, type Store } from '../store/store.ts'
import type { Chain } from './chain.ts'
import type { BlockRecord } from './records.ts'

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
    return !this.writing && this.queued.length === 0 && this.dropAbove === undefined
  }

  /** Number of the head as a store holding blocks up to `head` describes it. */
  meta(head: bigint = this.chain.head.number): ChainMeta {
    return { schemaVersion: SCHEMA_VERSION, chainId: this.chainId, genesisHash: this.chain.byNumber(0n)!.hash, headNumber: head }
  }

  /** Marks a restored chain as stored up to its head (-1: nothing stored, after a wipe). */
  restored(head: bigint): void {
    this.stored = head
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
    if (this.writing || this.broken || (this.queued.length === 0 && this.dropAbove === undefined)) return
    this.writing = true
    const blocks = this.queued
    const dropAbove = this.dropAbove
    const upTo = this.requested
    this.queued = []
    this.dropAbove = undefined
    let head = dropAbove ?? this.stored
    for (const block of blocks) if (block.number > head) head = block.number
    const nodes = this.nodes.drainNew()
    try {
      await this.store.commit({
        meta: this.meta(head),
        nodes,
        blocks: blocks.map((block) => ({ number: block.number, bytes: encodeBlockRecord(block) })),
        dropAbove,
      })
      this.stored = head
      this.committed = upTo
      this.blockWaiters = settle(this.blockWaiters, (waiter) => waiter.until <= head)
      this.changeWaiters = settle(this.changeWaiters, (waiter) => waiter.until <= upTo)
    } catch (error) {
      this.nodes.restoreNew(nodes)
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
    try {
      await this.rollBack(this.stored)
    } finally {
      // Changes made on top of the failed ones while the rollback waited are gone with them.
      this.queued = []
      this.dropAbove = undefined
      this.committed = this.requested
      this.broken = false
      this.blockWaiters = settle(this.blockWaiters, () => true, failure)
      this.changeWaiters = settle(this.changeWaiters, () => true, failure)
    }
  }
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
