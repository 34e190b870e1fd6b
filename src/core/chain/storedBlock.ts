import type { BlockHeader } from '@ethereumjs/block'
import { type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { keccak256 } from '../exec/fastCrypto.ts'
import { logsBloomOfHeader, logsOfBlockRecord, summarizeBlockRecord, timestampOfHeader, transactionHashesOfRecord } from '../store/blockCodec.ts'
import { placeOf, type RecordSlab } from './recordArena.ts'
import type { BlockRecord, LogRecord, TransactionRecord } from './records.ts'

/**
 * A block restored from the store, indexed from its summary and decoded only when something reads
 * its header or transactions. Decoding every stored block at load made a warm start grow with
 * the chain (10,000 blocks: seconds); most of them are never read again, or only by a log query
 * that their bloom rules out.
 *
 * The decoded parts are kept while the block is among the recently read (`DecodedBlocks`), then
 * dropped and decoded again on the next read. The fields a node changes in place (the batch
 * flags, the edited state root) are plain fields, kept for the block's life, so this object is
 * the block wherever it is held.
 */
export class StoredBlock implements BlockRecord {
  readonly number: bigint
  readonly size: bigint
  readonly l1BatchNumber: bigint
  readonly l1BatchTimestamp: bigint
  readonly l1BatchTxOffset: number
  sealsBatch: boolean
  batchSealed = false
  declare editedStateRoot?: Uint8Array
  readonly transactionCount: number
  /** A ZKsync 0x71 transaction is in it (its factory dependencies are published). */
  readonly publishesBytecode: boolean
  // Where the record is, not a view of it: its slab may be spilled to disk (chain/recordArena.ts),
  // and a view is an object per block.
  readonly #slab: RecordSlab
  readonly #offset: number
  readonly #length: number
  // Where the header's RLP is in the record: offsets, not a view (an object per block, kept for its life).
  readonly #headerStart: number
  readonly #headerEnd: number
  readonly #decode: (bytes: Uint8Array) => BlockRecord
  readonly #recent: DecodedBlocks
  #decoded: BlockRecord | undefined
  // Made on first read: a start restores every block, and most are never asked for by hash.
  #hashBytes: Uint8Array | undefined
  #hash: PrefixedHexString | undefined
  #transactionHashes: PrefixedHexString[] | undefined
  #timestamp: bigint | undefined
  #logs: BlockLogs | undefined
  readonly #recentLogs: RecentLogs | undefined

  /**
   * `hash`: the block hash when the store kept it, else it is computed from the header.
   * `decoded`: the block these bytes encode, when the node has it decoded (a block it mined and
   * just stored: Chain.stored), kept as the recently read.
   */
  constructor(
    bytes: Uint8Array,
    decode: (bytes: Uint8Array) => BlockRecord,
    recent: DecodedBlocks,
    hash?: Uint8Array,
    recentLogs?: RecentLogs,
    decoded?: BlockRecord,
  ) {
    const summary = summarizeBlockRecord(bytes)
    const place = placeOf(bytes)
    this.#slab = place.slab
    this.#offset = place.offset
    this.#length = place.length
    this.#headerStart = summary.headerBytes.byteOffset - bytes.byteOffset
    this.#headerEnd = this.#headerStart + summary.headerBytes.length
    this.#decode = decode
    this.#recent = recent
    this.#recentLogs = recentLogs
    this.#hashBytes = hash
    this.number = summary.number
    this.size = summary.size
    this.l1BatchNumber = summary.l1BatchNumber
    this.l1BatchTimestamp = summary.l1BatchTimestamp
    this.l1BatchTxOffset = summary.l1BatchTxOffset
    this.sealsBatch = summary.sealsBatch
    if (summary.editedStateRoot) this.editedStateRoot = summary.editedStateRoot
    this.transactionCount = summary.transactionCount
    this.publishesBytecode = summary.publishesBytecode
    if (decoded) {
      this.#decoded = decoded
      this.#hash = decoded.hash
      this.batchSealed = decoded.batchSealed
      recent.touch(this)
    }
  }

  get hash(): PrefixedHexString {
    return (this.#hash ??= bytesToHex(this.#hashBytes ?? keccak256(this.#headerBytes())))
  }

  get transactionHashes(): PrefixedHexString[] {
    return (this.#transactionHashes ??= transactionHashesOfRecord(this.bytes))
  }

  /** Decoded on read (and kept while among the recently read): see `decoded`. */
  get header(): BlockHeader {
    return this.decoded().header
  }

  get transactions(): TransactionRecord[] {
    return this.decoded().transactions
  }

  /** The stored record's bytes (what the store holds for this block). */
  get bytes(): Uint8Array {
    return this.#slab.view(this.#offset, this.#length)
  }

  #headerBytes(): Uint8Array {
    return this.#slab.view(this.#offset + this.#headerStart, this.#headerEnd - this.#headerStart)
  }

  get logsBloom(): Uint8Array {
    // Not kept: a log query reads it once per block, and kept it would be an object per block.
    return this.#decoded?.header.logsBloom ?? logsBloomOfHeader(this.#headerBytes())
  }

  get timestamp(): bigint {
    return (this.#timestamp ??= this.#decoded?.header.timestamp ?? timestampOfHeader(this.#headerBytes()))
  }

  /**
   * The block's logs and, for each, its transaction's hash and index: read from the record's
   * receipts (no header, no transaction objects: decoding a block costs ~100× more), or taken
   * from the decoded block when it is among the recently read. Kept while the block is among the
   * `RecentLogs`, so a log query over thousands of blocks reads each record once.
   */
  logs(): BlockLogs {
    const kept = this.#logs
    if (kept) {
      this.#recentLogs?.touch(this, kept.logs.length)
      return kept
    }
    const logs: LogRecord[] = []
    const txs: LogTransaction[] = []
    const decoded = this.#decoded
    if (decoded) {
      for (const tx of decoded.transactions) {
        const at = { hash: tx.hash, index: tx.index }
        for (const log of tx.receipt.logs) {
          logs.push(log)
          txs.push(at)
        }
      }
    } else {
      let at: LogTransaction | undefined
      for (const { log, txIndex } of logsOfBlockRecord(this.bytes)) {
        if (at?.index !== txIndex) at = { hash: this.transactionHashes[txIndex], index: txIndex }
        logs.push(log)
        txs.push(at)
      }
    }
    const read = { logs, txs }
    if (this.#recentLogs) {
      this.#logs = read
      this.#recentLogs.touch(this, logs.length)
    }
    return read
  }

  /** Drops the kept logs (RecentLogs: others were read since). */
  forgetLogs(): void {
    this.#logs = undefined
  }

  /** The decoded block, decoding it now if it is not among the recently read. */
  decoded(): BlockRecord {
    if (!this.#decoded) {
      this.#decoded = this.#decode(this.bytes)
      if (this.#decoded.hash !== this.hash) throw new Error(`stored block ${this.number} is damaged: its header hashes to ${this.#decoded.hash}, not ${this.hash}`)
    }
    this.#recent.touch(this)
    return this.#decoded
  }

  /** Drops the decoded parts (the next read decodes them again). */
  forget(): void {
    this.#decoded = undefined
  }
}

/**
 * The stored blocks whose decoded parts are kept: the most recently read, up to `capacity`. A
 * block read again moves to the back; the one read longest ago is forgotten first.
 */
export class DecodedBlocks {
  private readonly blocks = new Set<StoredBlock>()

  constructor(private readonly capacity = 256) {}

  get size(): number {
    return this.blocks.size
  }

  touch(block: StoredBlock): void {
    this.blocks.delete(block)
    this.blocks.add(block)
    if (this.blocks.size <= this.capacity) return
    const oldest = this.blocks.values().next().value!
    this.blocks.delete(oldest)
    oldest.forget()
  }
}

/**
 * The stored blocks whose logs are kept (`StoredBlock.logs`): the most recently read, up to
 * `capacity` logs in all (the default holds a whole eth_getLogs answer at its result limit, a
 * few MB; a block without logs counts as one), forgetting the blocks read longest ago first.
 */
export class RecentLogs {
  private readonly blocks = new Map<StoredBlock, number>()
  private count = 0

  constructor(private readonly capacity = 20_000) {}

  /** How many logs are kept. */
  get size(): number {
    return this.count
  }

  /** `block` was read; `logs`: how many it keeps. */
  touch(block: StoredBlock, logs: number): void {
    // A block without logs counts as one, so that blocks keeping nothing are not kept without end.
    const weight = Math.max(1, logs)
    const kept = this.blocks.get(block)
    if (kept !== undefined) this.blocks.delete(block)
    else this.count += weight
    this.blocks.set(block, weight)
    // Iterate only when over capacity: a Map keeps deleted entries as holes until it rehashes,
    // and an iterator walks them, so looking at the oldest on every touch cost time growing with
    // the blocks read (an eth_getLogs over 10,000 cached blocks: ~100 ms instead of ~2 ms).
    if (this.count <= this.capacity) return
    for (const [oldest, count] of this.blocks) {
      if (this.count <= this.capacity || oldest === block) break
      this.blocks.delete(oldest)
      this.count -= count
      oldest.forgetLogs()
    }
  }
}

/** How many transactions a block holds, without decoding a stored one. */
export function transactionCount(block: BlockRecord): number {
  return block instanceof StoredBlock ? block.transactionCount : block.transactions.length
}

/** The hashes of a block's transactions, without decoding a stored one. */
export function transactionHashesOf(block: BlockRecord): PrefixedHexString[] {
  return block instanceof StoredBlock ? block.transactionHashes : block.transactions.map((tx) => tx.hash)
}

/** A block's timestamp, without decoding a stored one. */
export function timestampOf(block: BlockRecord): bigint {
  return block instanceof StoredBlock ? block.timestamp : block.header.timestamp
}

/** What a log's JSON names of its transaction. */
export interface LogTransaction {
  hash: PrefixedHexString
  index: number
}

/** A block's logs in order, and each one's transaction (`txs[i]` is `logs[i]`'s). */
export interface BlockLogs {
  logs: LogRecord[]
  txs: LogTransaction[]
}
