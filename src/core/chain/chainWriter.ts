import type { TrieNodeStore } from '../exec/trieNodeStore.ts'
import { ServerError } from '../rpc/errors.ts'
import { encodeBlockRecord } from '../store/blockCodec.ts'
import { SCHEMA_VERSION, type ChainMeta, type Store } from '../store/store.ts'
import type { Chain } from './chain.ts'
import type { BlockRecord } from './records.ts'

interface Waiter {
  number: bigint
  resolve(): void
  reject(error: Error): void
}

/**
 * Writes the chain's new blocks to the store with group commit: at most one commit is in flight,
 * and blocks mined meanwhile join the next one, so a store that takes milliseconds per commit
 * does not cap throughput at one block per commit. `durable(n)` resolves once block n is stored:
 * that is when a change may be acknowledged.
 *
 * A refused commit fails every block not yet stored and asks `rollBack` to return the chain to
 * the last stored block; until that is done, nothing more is written.
 */
export class ChainWriter {
  private queued: BlockRecord[] = []
  private dropAbove: bigint | undefined
  private writing = false
  private broken = false
  private waiters: Waiter[] = []
  private stored: bigint = -1n
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

  /** Number of the head as a store holding blocks up to `head` describes it. */
  meta(head: bigint = this.chain.head.number): ChainMeta {
    return { schemaVersion: SCHEMA_VERSION, chainId: this.chainId, genesisHash: this.chain.byNumber(0n)!.hash, headNumber: head }
  }

  /** Marks a restored chain as stored up to its head. */
  restored(head: bigint): void {
    this.stored = head
  }

  /** Queues a block (already appended to the chain) for the next commit. */
  enqueue(block: BlockRecord): void {
    this.queued.push(block)
    void this.flush()
  }

  /** Queues the removal of every block above `number` (evm_revert, reset). */
  truncate(number: bigint): void {
    this.queued = this.queued.filter((block) => block.number <= number)
    this.dropAbove = this.dropAbove === undefined || number < this.dropAbove ? number : this.dropAbove
    if (this.stored > number) this.stored = number
    void this.flush()
  }

  /** Resolves once block `number` is in the store; rejects if it never will be. */
  durable(number: bigint): Promise<void> {
    if (number <= this.stored) return Promise.resolve()
    return new Promise((resolve, reject) => this.waiters.push({ number, resolve, reject }))
  }

  private async flush(): Promise<void> {
    if (this.writing || this.broken || (this.queued.length === 0 && this.dropAbove === undefined)) return
    this.writing = true
    const blocks = this.queued
    const dropAbove = this.dropAbove
    this.queued = []
    this.dropAbove = undefined
    const head = blocks.length > 0 ? blocks[blocks.length - 1].number : dropAbove!
    const nodes = this.nodes.drainNew()
    try {
      await this.store.commit({
        meta: this.meta(head),
        nodes,
        blocks: blocks.map((block) => ({ number: block.number, bytes: encodeBlockRecord(block) })),
        dropAbove,
      })
      this.stored = head
      this.settle((waiter) => waiter.number <= head, undefined)
    } catch (error) {
      this.nodes.restoreNew(nodes)
      await this.fail(blocks[0]?.number ?? head, error)
    } finally {
      this.writing = false
    }
    void this.flush()
  }

  private async fail(first: bigint, error: unknown): Promise<void> {
    this.broken = true
    const why = error instanceof Error ? error.message : String(error)
    const failure = new ServerError(`block ${first} could not be stored (${why}); the chain is back at block ${this.stored}`)
    this.queued = []
    this.dropAbove = undefined
    try {
      await this.rollBack(this.stored)
    } finally {
      // Blocks mined on top of the failed ones while the rollback waited are gone with them.
      this.queued = []
      this.broken = false
      this.settle(() => true, failure)
    }
  }

  private settle(which: (waiter: Waiter) => boolean, error: Error | undefined): void {
    const remaining: Waiter[] = []
    for (const waiter of this.waiters) {
      if (!which(waiter)) remaining.push(waiter)
      else if (error) waiter.reject(error)
      else waiter.resolve()
    }
    this.waiters = remaining
  }
}
