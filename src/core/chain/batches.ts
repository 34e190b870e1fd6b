import type { BatchSealing } from '../config.ts'
import type { BlockRecord } from './records.ts'
import { transactionCount } from './storedBlock.ts'

/**
 * An L1 batch: consecutive blocks that settle on L1 together (docs/zksync.md, "L1 batches"). A
 * batch is open while blocks may still join it; sealed, it is final, and its L2→L1 logs can be
 * proven.
 */
export interface BatchRecord {
  number: bigint
  /** Its first block's timestamp. */
  timestamp: bigint
  firstBlock: bigint
  lastBlock: bigint
  /** Transactions in its blocks so far (the next one's index in the batch). */
  txCount: number
  sealed: boolean
}

/** Where the next block goes: the open batch, or a new one. */
export interface BatchPlacement {
  number: bigint
  timestamp: bigint
  /** Index in the batch of the block's first transaction. */
  txOffset: number
  /** Blocks the batch will hold with this one. */
  blocks: number
}

/**
 * Decides when batches seal and remembers when the open one opened (in memory only: a restored
 * node's open batch starts its age again).
 */
export class BatchPolicy {
  private opened: { number: bigint; atMs: number } | undefined

  constructor(
    readonly sealing: BatchSealing,
    private readonly now: () => number,
  ) {}

  /** Whether the block being added with this placement closes its batch. */
  sealsWith(placement: BatchPlacement): boolean {
    return placement.blocks >= this.sealing.maxBlocks || this.age(placement.number) >= this.sealing.maxAgeMs
  }

  /** Milliseconds until `batch` is due by age (0: now), or undefined when age never seals. */
  dueInMs(batch: BatchRecord): number | undefined {
    if (!Number.isFinite(this.sealing.maxAgeMs)) return undefined
    const left = this.sealing.maxAgeMs - this.age(batch.number)
    return left > 0 ? left : 0
  }

  private age(batch: bigint): number {
    if (this.opened?.number !== batch) this.opened = { number: batch, atMs: this.now() }
    return this.now() - this.opened.atMs
  }
}

/**
 * The chain's batches, kept in step with its blocks: blocks say which batch they belong to and
 * whether they seal it; this index groups them and flags every block of a sealed batch.
 *
 * Two views, as for blocks (read-committed): `sealed` on a batch is the miner's, set as soon as a
 * block seals it in memory; readers see a batch sealed (`lastSealed`, `sealedBatch`, a block's
 * `batchSealed` flag) only once the block that seals it is stored (`publishSealed`).
 */
export class BatchIndex {
  /** Batch `firstNumber + i` at `i`. */
  private readonly batches: BatchRecord[] = []
  /**
   * The genesis block's batch: 0, or on a fork of a ZKsync chain the fork block's (the local
   * batches continue the upstream's numbering). Taken from the first block added.
   */
  private firstNumber = 0n
  /** The last batch whose sealing block is stored (the genesis block's first). */
  private storedSealed = 0n

  /**
   * `from`: an index of the batches from `from` on only, those below it sealed and stored (a
   * restarted chain's last blocks, before the older ones come: Chain.restore). Without it, the
   * index starts at the first block added, whose batch is sealed (a genesis block's).
   */
  constructor(private readonly from?: bigint) {
    if (from !== undefined) {
      this.firstNumber = from
      this.storedSealed = from - 1n
    }
  }

  /** What `storedSealed` is while no batch is held. */
  private get noneSealed(): bigint {
    return this.from === undefined ? this.firstNumber : this.from - 1n
  }

  get last(): BatchRecord {
    return this.batches[this.batches.length - 1]
  }

  /** The batch new blocks join, if one is open. */
  get open(): BatchRecord | undefined {
    const last = this.last
    return last && !last.sealed ? last : undefined
  }

  /**
   * The last sealed batch as stored (batch 0, the genesis block's, is sealed from the start).
   * An index from a restarted chain's last blocks may not hold it: what reads it is served once
   * the older blocks came (rpc/servedByTail.ts).
   */
  get lastSealed(): BatchRecord {
    return this.batches[Number(this.storedSealed - this.firstNumber)]
  }

  /** The number of the last batch whose sealing block is stored. */
  get storedSealedNumber(): bigint {
    return this.storedSealed
  }

  /** Batch `number` if readers may see it sealed (its sealing block is stored). */
  sealedBatch(number: bigint): BatchRecord | undefined {
    return number <= this.storedSealed ? this.get(number) : undefined
  }

  /**
   * The blocks sealing batches up to `number` are stored: readers see those batches sealed, and
   * their blocks flagged so.
   */
  publishSealed(number: bigint, blocksOf: (batch: BatchRecord) => Iterable<BlockRecord>): void {
    while (this.storedSealed < number) {
      const batch = this.get(this.storedSealed + 1n)
      if (!batch?.sealed) return
      this.storedSealed = batch.number
      for (const block of blocksOf(batch)) block.batchSealed = true
    }
  }

  get(number: bigint): BatchRecord | undefined {
    const i = number - this.firstNumber
    return i >= 0n && i < BigInt(this.batches.length) ? this.batches[Number(i)] : undefined
  }

  placementFor(timestamp: bigint): BatchPlacement {
    const open = this.open
    if (open) return { number: open.number, timestamp: open.timestamp, txOffset: open.txCount, blocks: Number(open.lastBlock - open.firstBlock) + 2 }
    return { number: this.last ? this.last.number + 1n : this.firstNumber, timestamp, txOffset: 0, blocks: 1 }
  }

  /** Adds an appended block (`blocksOf` lists a batch's blocks, to flag them on a seal). */
  add(block: BlockRecord, blocksOf: (batch: BatchRecord) => Iterable<BlockRecord>): void {
    let batch = this.open
    if (!batch || batch.number !== block.l1BatchNumber) {
      if (this.batches.length === 0 && this.from === undefined) this.firstNumber = this.storedSealed = block.l1BatchNumber
      const expected = this.last ? this.last.number + 1n : this.firstNumber
      if (batch || block.l1BatchNumber !== expected) {
        throw new Error(`block ${block.number} is in batch ${block.l1BatchNumber}, but the next batch is ${batch?.number ?? expected}`)
      }
      batch = { number: block.l1BatchNumber, timestamp: block.l1BatchTimestamp, firstBlock: block.number, lastBlock: block.number, txCount: 0, sealed: false }
      this.batches.push(batch)
    }
    batch.lastBlock = block.number
    batch.txCount += transactionCount(block)
    block.batchSealed = false
    if (block.sealsBatch) this.markSealed(batch, blocksOf(batch), true)
  }

  /** Seals the open batch at its last block (`last`, which the caller stores again). */
  seal(blocksOfBatch: Iterable<BlockRecord>, last: BlockRecord): void {
    const batch = this.open
    if (!batch || batch.lastBlock !== last.number) throw new Error(`block ${last.number} does not end the open batch`)
    last.sealsBatch = true
    this.markSealed(batch, blocksOfBatch, true)
  }

  /** Forgets batches above block `number`; a batch cut short is open again unless its new last block sealed it. */
  truncate(number: bigint, blocksOf: (batch: BatchRecord) => Iterable<BlockRecord>): void {
    while (this.batches.length > 0 && this.last.firstBlock > number) this.batches.pop()
    const last = this.last
    if (!last) this.storedSealed = this.noneSealed
    if (!last || last.lastBlock <= number) return this.clampStoredSealed()
    last.lastBlock = number
    let txCount = 0
    let sealed = false
    for (const block of blocksOf(last)) {
      txCount += transactionCount(block)
      sealed = block.sealsBatch
    }
    last.txCount = txCount
    this.storedSealed = this.storedSealed < last.number ? this.storedSealed : last.number
    this.markSealed(last, blocksOf(last), sealed)
    this.clampStoredSealed()
  }

  /** No batch above the last sealed one is seen sealed. */
  private clampStoredSealed(): void {
    const last = this.last
    if (!last) return
    const lastSealed = last.sealed ? last.number : last.number - 1n
    if (this.storedSealed > lastSealed) this.storedSealed = lastSealed < this.noneSealed ? this.noneSealed : lastSealed
  }

  /** Sealed or open again (a truncation); the blocks show it once the seal is stored (`publishSealed`). */
  private markSealed(batch: BatchRecord, blocks: Iterable<BlockRecord>, sealed: boolean): void {
    batch.sealed = sealed
    const shown = sealed && batch.number <= this.storedSealed
    for (const block of blocks) block.batchSealed = shown
  }
}
