import { type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { BatchIndex, type BatchPlacement, type BatchRecord } from './batches.ts'
import type { BlockRef, BlockTag } from './blockRef.ts'
import { RecordArena } from './recordArena.ts'
import type { BlockRecord, TransactionRecord } from './records.ts'
import { SenderIndex } from './senderIndex.ts'
import { StoredBlock, transactionHashesOf } from './storedBlock.ts'

// Block parameters are parsed by the RPC layer and by the fork's history, which is a chunk of its
// own in the worker's bundle: importing the chain's modules from there made the bundler split the
// startup chunk in two (+5 KB gzip). So they live in blockRef.ts.
export { BLOCK_TAGS, isPending, type BlockRef, type BlockTag } from './blockRef.ts'

/** The blocks below the next one whose hashes BLOCKHASH reads. */
const BLOCKHASH_WINDOW = 256

/** The last sealed batch `batches` holds (every block of it stored), if any. */
function lastSealedOf(batches: BatchIndex): bigint | undefined {
  const last = batches.last
  return last && (last.sealed ? last.number : last.number - 1n)
}

/**
 * The canonical chain held in memory: blocks by number and hash, transactions by hash. Every
 * read on the hot path is served from here; the store is only written to. It starts empty and
 * is usable once its genesis block is appended and stored.
 *
 * Read-committed: the miner appends blocks at the `tip` before the store has them; readers see
 * the chain only up to the last stored block, which the chain writer `publish`es once its commit
 * succeeded (`head`, `byNumber`, `blockByHash`, `transaction`, `range`, `find`). So no client sees
 * a block, a receipt or the state after it before a crash could no longer take it away. The
 * miner and the writer use the unpublished accessors (`tip`, `at`, `minedTransaction`).
 */
export class Chain {
  /** Block `firstNumber + i` at `i`. */
  private blocks: BlockRecord[] = []
  /**
   * The number of the chain's first block: 0, or a fork's block (the local chain continues the
   * upstream's numbering, and the blocks up to this one are the upstream's: fork/history.ts).
   */
  private firstNumber = 0
  /** The last stored block's position in `blocks`: what readers see as the head. */
  private published = -1
  private readonly byHash = new Map<PrefixedHexString, BlockRecord>()
  /** Where each transaction is: its block and index (a stored block is not decoded to index it). */
  private readonly txs = new Map<PrefixedHexString, { block: BlockRecord; index: number }>()
  private batches = new BatchIndex()
  /**
   * Whether `batches` follows the blocks appended: always, but on a restarted chain whose last
   * blocks hold no batch's start (its open batch began below them), until the older blocks come.
   */
  private batchesHeld = true
  /**
   * The first block held, while a start that restored the last blocks only waits for the older
   * ones (`restoreOlder`): until then the chain answers from those blocks only (Node.request
   * holds other calls back), and its batches are those that begin in them (`indexTailBatches`).
   */
  private partialFrom = 0
  /** A partial chain's genesis hash, as its store recorded it. */
  private heldGenesisHash: PrefixedHexString | undefined
  /**
   * Blocks restored from the store that are not in `byHash` and `txs` yet (`from` up to `to`):
   * a start answers before indexing 10,000 blocks' hashes, which happens in the background or
   * at the first lookup by hash, whichever comes first (`indexRestored`).
   */
  private unindexed: { from: number; to: number } | undefined
  /**
   * Makes a block's stored form from its record and its stored bytes (set by the node): see
   * `stored`. Without it, mined blocks stay as they were mined.
   */
  storedForm: ((block: BlockRecord, bytes: Uint8Array) => StoredBlock) | undefined
  /** Bytecodes published as factory dependencies, by versioned hash, with the block that first did. */
  private readonly bytecodes = new Map<PrefixedHexString, { bytecode: Uint8Array; block: bigint }>()
  private senders = new SenderIndex()

  /** `records`: where the stored blocks' records are kept (slabs shared by many, spilled or not). */
  constructor(readonly records = new RecordArena()) {}

  /** The number of the chain's first block (its genesis): 0, or the block a fork forked. */
  get first(): bigint {
    return BigInt(this.firstNumber)
  }

  /** The chain's first block (not held yet by a partial chain: `genesisHash`). */
  get genesis(): BlockRecord {
    return this.blocks[0]
  }

  /** The first block's hash, which a partial chain has from its store. */
  get genesisHash(): PrefixedHexString {
    return this.blocks[0]?.hash ?? this.heldGenesisHash!
  }

  /** Numbers the chain from `first` (a new node, a reset onto a fork): only while it is empty. */
  rebase(first: bigint): void {
    if (this.blocks.length > 0) throw new Error(`the chain cannot start at block ${first}: it holds blocks`)
    this.firstNumber = Number(first)
    this.batches = new BatchIndex()
  }

  /** Where block `number` is in `blocks` (may be out of range). */
  private slot(number: bigint): number {
    return Number(number) - this.firstNumber
  }

  /** The head as readers see it: the last stored block. */
  get head(): BlockRecord {
    return this.blocks[this.published]
  }

  /** The last block appended, stored or not: where the miner builds the next one. */
  get tip(): BlockRecord {
    return this.blocks[this.blocks.length - 1]
  }

  /**
   * Makes blocks up to `number` visible to readers: they are in the store now, and so is the
   * sealing of batches up to `sealedBatch` (a commit that stored a batch's sealing block).
   */
  publish(number: bigint, sealedBatch?: bigint): void {
    this.published = Math.min(this.slot(number), this.blocks.length - 1)
    if (sealedBatch !== undefined) this.batches.publishSealed(sealedBatch, (batch) => this.batchBlocks(batch))
  }

  /**
   * A block is in the store as `bytes`: the chain keeps it in its stored form from now on (the
   * bytes, the decoded parts while recently read), as a restored chain keeps every block. A
   * decoded block holds its header, transaction objects, receipts and logs (~10 times its
   * bytes), and the store's image (the CLI's state file) holds the bytes anyway: keeping both
   * for every block grew the heap with the chain (issue 19, item 7; bench/memory.ts).
   */
  stored(block: BlockRecord, bytes: Uint8Array): void {
    const n = this.slot(block.number)
    if (!this.storedForm || this.blocks[n] !== block || block instanceof StoredBlock) return
    const stored = this.storedForm(block, bytes)
    this.blocks[n] = stored
    if (this.byHash.get(block.hash) === block) this.byHash.set(block.hash, stored)
    block.transactions.forEach((tx, index) => {
      if (this.txs.get(tx.hash)?.block === block) this.txs.set(tx.hash, { block: stored, index })
    })
  }

  /** Block `number`, stored or not (the miner's BLOCKHASH, the writer). */
  at(number: bigint): BlockRecord | undefined {
    const n = this.slot(number)
    return n >= 0 && n < this.blocks.length ? this.blocks[n] : undefined
  }

  /** The last block of the last sealed L1 batch (as stored): what `safe` and `finalized` name. */
  get finalized(): BlockRecord {
    return this.blocks[Math.min(this.slot(this.batches.lastSealed.lastBlock), this.published)]
  }

  /** The batch new blocks join, if one is open. */
  get openBatch(): BatchRecord | undefined {
    return this.batches.open
  }

  /** The last batch sealed in the store (what readers see). */
  get lastSealedBatch(): BatchRecord {
    return this.batches.lastSealed
  }

  batch(number: bigint): BatchRecord | undefined {
    return this.batches.get(number)
  }

  /** Batch `number` once its sealing block is stored (an open batch, or one sealed by a block not yet stored, is not). */
  sealedBatch(number: bigint): BatchRecord | undefined {
    return this.batches.sealedBatch(number)
  }

  /** The blocks of a batch, first to last. */
  *batchBlocks(batch: BatchRecord): Generator<BlockRecord> {
    // Up to the tip: a batch is sealed by the block the miner appends, stored or not yet.
    const last = Math.min(this.slot(batch.lastBlock), this.blocks.length - 1)
    for (let n = this.slot(batch.firstBlock); n <= last; n++) yield this.blocks[n]
  }

  /** Which batch a block mined now with this timestamp joins. */
  nextBatchPlacement(timestamp: bigint): BatchPlacement {
    return this.batches.placementFor(timestamp)
  }

  /** A factory dependency published by a mined 0x71 transaction. */
  bytecode(hash: PrefixedHexString): Uint8Array | undefined {
    return this.bytecodes.get(hash.toLowerCase() as PrefixedHexString)?.bytecode
  }

  append(block: BlockRecord): void {
    this.extend(block)
    this.index(block)
  }

  /**
   * Appends blocks from the store (so published), indexed by hash later (`unindexed`). `first`:
   * the position of the first one (its number less the chain's first number), when the older
   * ones come later (`restoreOlder`).
   */
  restore(blocks: Iterable<StoredBlock>, first = 0, genesisHash?: PrefixedHexString): void {
    if (first > 0) {
      this.blocks.length = first
      this.partialFrom = first
      this.batchesHeld = false
      this.heldGenesisHash = genesisHash
    }
    this.extendRestored(blocks)
    if (first > 0) this.indexTailBatches()
    // Stored, so published, and so are the batches they seal.
    this.publish(BigInt(this.blocks.length - 1 + this.firstNumber), lastSealedOf(this.batches))
  }

  /** Appends restored blocks, to be indexed by hash later (`unindexed`). */
  private extendRestored(blocks: Iterable<BlockRecord>): void {
    const from = this.unindexed?.from ?? this.blocks.length
    for (const block of blocks) this.extend(block)
    if (this.blocks.length > from) this.unindexed = { from, to: this.blocks.length }
  }

  /**
   * A restarted chain's last blocks are indexed in batches from the first batch that begins in
   * them, so that the miner places and seals blocks before the older blocks come: blocks before
   * it belong to a batch sealed and stored (the next one began, or the tip sealed it). When the
   * open batch began below them (batches sealed by age, or many blocks each), it waits for them.
   */
  private indexTailBatches(): void {
    const tail = this.blocks.slice(this.partialFrom)
    const tip = tail[tail.length - 1]
    const begins = tail.findIndex((block, i) => i > 0 && block.l1BatchNumber !== tail[i - 1].l1BatchNumber)
    if (begins < 0 && !tip.sealsBatch) return
    const lead = begins < 0 ? tail.length : begins
    this.batches = new BatchIndex(begins < 0 ? tip.l1BatchNumber + 1n : tail[begins].l1BatchNumber)
    for (let i = 0; i < lead; i++) tail[i].batchSealed = true
    for (let i = lead; i < tail.length; i++) this.batches.add(tail[i], (batch) => this.batchBlocks(batch))
    this.batchesHeld = true
  }

  /** Whether the chain holds only its last blocks yet (a start that restores the older ones after). */
  get partial(): boolean {
    return this.partialFrom > 0
  }

  /** The first block a partial chain holds (the chain's first otherwise). */
  get firstHeld(): bigint {
    return BigInt(this.partialFrom + this.firstNumber)
  }

  /**
   * Whether the miner can add blocks now: always, but on a partial chain whose last blocks hold
   * no batch's start, or fewer than the 256 blocks BLOCKHASH reaches (the miner waits for the
   * older blocks then).
   */
  get mineable(): boolean {
    return !this.partial || (this.batchesHeld && this.blocks.length - this.partialFrom >= BLOCKHASH_WINDOW)
  }

  /**
   * The older blocks of a chain restored partially have come: the chain is rebuilt whole, the
   * last blocks as they were, and those mined since on them (published as they were: the
   * writer may be storing the newest).
   */
  restoreOlder(older: StoredBlock[]): void {
    const last = this.blocks.slice(this.partialFrom)
    const head = this.head.number
    // Without batches (the miner waited), every batch its blocks seal is stored.
    const sealedStored = this.batchesHeld ? this.batches.storedSealedNumber : undefined
    this.blocks = []
    this.published = -1
    this.partialFrom = 0
    this.batchesHeld = true
    this.byHash.clear()
    this.txs.clear()
    this.bytecodes.clear()
    this.batches = new BatchIndex()
    this.senders = new SenderIndex()
    this.unindexed = undefined
    this.extendRestored([...older, ...last])
    this.publish(head, sealedStored ?? lastSealedOf(this.batches))
  }

  /**
   * Indexes up to `limit` restored blocks by hash (all by default); true once none is left.
   * Every lookup by hash calls it first.
   */
  indexRestored(limit = Infinity): boolean {
    const range = this.unindexed
    if (!range) return true
    const end = Math.min(range.to, range.from + limit)
    for (let n = range.from; n < end; n++) this.index(this.blocks[n])
    range.from = end
    if (range.from < range.to) return false
    this.unindexed = undefined
    return true
  }

  private index(block: BlockRecord): void {
    this.byHash.set(block.hash, block)
    transactionHashesOf(block).forEach((hash, index) => this.txs.set(hash, { block, index }))
  }

  private extend(block: BlockRecord): void {
    if (block.number !== BigInt(this.blocks.length + this.firstNumber)) {
      throw new Error(`block ${block.number} does not extend the chain at ${this.blocks.length - 1 + this.firstNumber}`)
    }
    this.blocks.push(block)
    if (!(block instanceof StoredBlock) || block.publishesBytecode) {
      for (const tx of block.transactions) {
        tx.eip712?.factoryDeps.forEach((bytecode, i) => {
          const hash = bytesToHex(tx.eip712!.factoryDepHashes[i])
          if (!this.bytecodes.has(hash)) this.bytecodes.set(hash, { bytecode, block: block.number })
        })
      }
    }
    if (this.batchesHeld) this.batches.add(block, (batch) => this.batchBlocks(batch))
  }

  /**
   * Seals the open batch at the head (a batch that grew too old); returns the head, whose
   * record now says so, or undefined when no batch is open.
   */
  sealOpenBatch(): BlockRecord | undefined {
    const open = this.batches.open
    if (!open) return undefined
    this.batches.seal(this.batchBlocks(open), this.tip)
    return this.tip
  }

  /** Drops every block above `number` (a failed commit, later evm_revert). */
  truncate(number: bigint): BlockRecord[] {
    this.indexRestored()
    const keep = Math.max(this.slot(number) + 1, 0)
    const removed = this.blocks.splice(keep)
    if (this.published >= keep) this.published = keep - 1
    for (const block of removed) {
      this.byHash.delete(block.hash)
      for (const hash of transactionHashesOf(block)) this.txs.delete(hash)
    }
    for (const [hash, { block }] of this.bytecodes) if (block > number) this.bytecodes.delete(hash)
    this.batches.truncate(number, (batch) => this.batchBlocks(batch))
    this.senders.truncate(removed)
    return removed
  }

  byNumber(number: bigint): BlockRecord | undefined {
    const n = this.slot(number)
    return n >= 0 && n <= this.published ? this.blocks[n] : undefined
  }

  blockByHash(hash: PrefixedHexString): BlockRecord | undefined {
    this.indexRestored()
    const block = this.byHash.get(hash.toLowerCase() as PrefixedHexString)
    return block && this.slot(block.number) <= this.published ? block : undefined
  }

  /** A transaction in a stored block. */
  transaction(hash: PrefixedHexString): TransactionRecord | undefined {
    const found = this.located(hash)
    return found && this.slot(found.block.number) <= this.published ? found.block.transactions[found.index] : undefined
  }

  /** A transaction in any block, stored or not (the miner, telling a sender what became of it). */
  minedTransaction(hash: PrefixedHexString): TransactionRecord | undefined {
    const found = this.located(hash)
    return found?.block.transactions[found.index]
  }

  /** The mined transaction `from` sent with `nonce`. */
  transactionBySenderAndNonce(from: PrefixedHexString, nonce: bigint): TransactionRecord | undefined {
    const hash = this.senders.lookup(from, nonce, this.range(this.senders.indexedBelow, this.head.number))
    return hash && this.transaction(hash)
  }

  private located(hash: PrefixedHexString) {
    this.indexRestored()
    return this.txs.get(hash.toLowerCase() as PrefixedHexString)
  }

  /** Whether a transaction is mined (stored or not: admission must not take it again), without decoding its block. */
  hasTransaction(hash: PrefixedHexString): boolean {
    this.indexRestored()
    return this.txs.has(hash.toLowerCase() as PrefixedHexString)
  }

  /** Blocks `from`..`to` inclusive (clamped to the chain). */
  *range(from: bigint, to: bigint): Generator<BlockRecord> {
    const last = to < this.head.number ? to : this.head.number
    for (let n = from < this.first ? this.first : from; n <= last; n++) yield this.blocks[this.slot(n)]
  }

  /** The block a tag names. `pending` reads as the head: pending state is the head's state. */
  resolveTag(tag: BlockTag): BlockRecord {
    switch (tag) {
      case 'earliest':
        return this.blocks[0]
      case 'safe':
      case 'finalized':
        return this.finalized
      default:
        return this.head
    }
  }

  /** The block a parameter names, or undefined when there is none (yet). */
  find(ref: BlockRef): BlockRecord | undefined {
    switch (ref.kind) {
      case 'tag':
        return this.resolveTag(ref.tag)
      case 'number':
        return this.byNumber(ref.number)
      case 'hash':
        return this.blockByHash(ref.hash)
    }
  }
}
