import { type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { BatchIndex, type BatchPlacement, type BatchRecord } from './batches.ts'
import type { BlockRecord, TransactionRecord } from './records.ts'
import { SenderIndex } from './senderIndex.ts'
import { StoredBlock, transactionHashesOf } from './storedBlock.ts'

/** A block parameter after parsing (hex number, tag, or an EIP-1898 object). */
export type BlockRef =
  | { kind: 'tag'; tag: BlockTag }
  | { kind: 'number'; number: bigint }
  | { kind: 'hash'; hash: PrefixedHexString; requireCanonical: boolean }

export const BLOCK_TAGS = ['latest', 'earliest', 'pending', 'safe', 'finalized', 'committed'] as const
export type BlockTag = (typeof BLOCK_TAGS)[number]

/** `pending`: what the next block would do, where a block's context matters (calls, estimates). */
export const isPending = (ref: BlockRef): boolean => ref.kind === 'tag' && ref.tag === 'pending'

/**
 * The canonical chain held in memory: blocks by number and hash, transactions by hash. Every
 * read on the hot path is served from here; the store is only written to. It starts empty and
 * is usable once its genesis block is appended.
 */
export class Chain {
  private readonly blocks: BlockRecord[] = []
  private readonly byHash = new Map<PrefixedHexString, BlockRecord>()
  /** Where each transaction is: its block and index (a stored block is not decoded to index it). */
  private readonly txs = new Map<PrefixedHexString, { block: BlockRecord; index: number }>()
  private readonly batches = new BatchIndex()
  /**
   * Blocks restored from the store that are not in `byHash` and `txs` yet (`from` up to `to`):
   * a start answers before indexing 10,000 blocks' hashes, which happens in the background or
   * at the first lookup by hash, whichever comes first (`indexRestored`).
   */
  private unindexed: { from: number; to: number } | undefined
  /** Bytecodes published as factory dependencies, by versioned hash, with the block that first did. */
  private readonly bytecodes = new Map<PrefixedHexString, { bytecode: Uint8Array; block: bigint }>()
  private readonly senders = new SenderIndex()

  get head(): BlockRecord {
    return this.blocks[this.blocks.length - 1]
  }

  /** The last block of the last sealed L1 batch: what `safe` and `finalized` name. */
  get finalized(): BlockRecord {
    return this.blocks[Number(this.batches.lastSealed.lastBlock)]
  }

  /** The batch new blocks join, if one is open. */
  get openBatch(): BatchRecord | undefined {
    return this.batches.open
  }

  get lastSealedBatch(): BatchRecord {
    return this.batches.lastSealed
  }

  batch(number: bigint): BatchRecord | undefined {
    return this.batches.get(number)
  }

  /** The blocks of a batch, first to last. */
  batchBlocks(batch: BatchRecord): Generator<BlockRecord> {
    return this.range(batch.firstBlock, batch.lastBlock)
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

  /** Appends blocks from the store, indexed by hash later (`unindexed`). */
  restore(blocks: Iterable<StoredBlock>): void {
    const from = this.unindexed?.from ?? this.blocks.length
    for (const block of blocks) this.extend(block)
    if (this.blocks.length > from) this.unindexed = { from, to: this.blocks.length }
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
    if (block.number !== BigInt(this.blocks.length)) {
      throw new Error(`block ${block.number} does not extend the chain at ${this.blocks.length - 1}`)
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
    this.batches.add(block, (batch) => this.batchBlocks(batch))
  }

  /**
   * Seals the open batch at the head (a batch that grew too old); returns the head, whose
   * record now says so, or undefined when no batch is open.
   */
  sealOpenBatch(): BlockRecord | undefined {
    const open = this.batches.open
    if (!open) return undefined
    this.batches.seal(this.batchBlocks(open), this.head)
    return this.head
  }

  /** Drops every block above `number` (a failed commit, later evm_revert). */
  truncate(number: bigint): BlockRecord[] {
    this.indexRestored()
    const removed = this.blocks.splice(Number(number) + 1)
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
    return number >= 0n && number < BigInt(this.blocks.length) ? this.blocks[Number(number)] : undefined
  }

  blockByHash(hash: PrefixedHexString): BlockRecord | undefined {
    this.indexRestored()
    return this.byHash.get(hash.toLowerCase() as PrefixedHexString)
  }

  transaction(hash: PrefixedHexString): TransactionRecord | undefined {
    this.indexRestored()
    const found = this.txs.get(hash.toLowerCase() as PrefixedHexString)
    return found?.block.transactions[found.index]
  }

  /** The mined transaction `from` sent with `nonce`. */
  transactionBySenderAndNonce(from: PrefixedHexString, nonce: bigint): TransactionRecord | undefined {
    const hash = this.senders.lookup(from, nonce, this.range(this.senders.indexedBelow, this.head.number))
    return hash && this.transaction(hash)
  }

  /** Whether a transaction is mined, without decoding its block. */
  hasTransaction(hash: PrefixedHexString): boolean {
    this.indexRestored()
    return this.txs.has(hash.toLowerCase() as PrefixedHexString)
  }

  /** Blocks `from`..`to` inclusive (clamped to the chain). */
  *range(from: bigint, to: bigint): Generator<BlockRecord> {
    const last = to < this.head.number ? to : this.head.number
    for (let n = from < 0n ? 0n : from; n <= last; n++) yield this.blocks[Number(n)]
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
