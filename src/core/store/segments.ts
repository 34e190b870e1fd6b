import { keccak256 } from '../exec/fastCrypto.ts'
import { headerBytesOf } from './blockCodec.ts'
import { ByteReader, ByteWriter } from './byteStream.ts'
import { deflate, inflate } from './deflate.ts'
import { unpackZeros } from './packing.ts'

/**
 * A segment: many commits' records merged into one IndexedDB record. Reading a record costs
 * IndexedDB several microseconds whatever its size, and bytes cost ~1.5 ms per MB (measured in
 * Chromium on this machine): a chain of 10,000 blocks kept as 20,000 records took half a second
 * to read, the same bytes as 40 records a few tens of milliseconds. The store writes a commit's
 * records as before and merges them into a segment in the background (indexedDbStore.ts).
 *
 *   segment = [varint blockCount, (varint number, hash[32], varint length, record)…, nodes…]
 *
 * record is a block record (blockCodec.ts); hash is its header's keccak, computed when the
 * segment is made so that loading never hashes a header; nodes is the concatenation of the
 * merged per-commit records' nodes (packed nodes concatenate).
 *
 * IndexedDB layout 4 keeps a node segment deflated (`{ deflated }`, deflate.ts: a quarter of the
 * bytes on disk) and a block segment as it is, its records not zero-packed (`{ raw }`): a start
 * reads every block segment, and neither unpacking each record's zeros in JavaScript (a third of
 * a 10,000-block warm start, profiled) nor inflating them (measured: ~30 ms more than reading the
 * bytes) is worth the bytes saved. Layout 3 kept both kinds as they are (a Uint8Array), with each
 * record zero-packed as the `blocks` store holds it; those are still read.
 *
 * A merge writes its blocks and its nodes as two segments: the blocks under the store's next
 * number, the nodes (a segment with no blocks) under a string key (`nodeSegmentKey`). Keys of
 * both kinds sort apart (IndexedDB orders every number before every string), so a start reads
 * the block segments and leaves the trie nodes, most of the bytes, for when the state is first
 * read. A reader of layout 3 that reads every segment reads these as it reads the mixed ones.
 */
export interface SegmentBlock {
  number: number
  hash: Uint8Array
  /** The block record (not zero-packed). */
  record: Uint8Array
}

/** A segment as IndexedDB holds it: layout 4's node (deflated) and block (raw) segments, or layout 3's. */
export type StoredSegment = { deflated: Uint8Array } | { raw: Uint8Array } | Uint8Array

export function storedBlockSegment(blocks: SegmentBlock[]): StoredSegment {
  return { raw: encodeSegment(blocks, []) }
}

export async function storedNodeSegment(nodeRecords: Uint8Array[]): Promise<StoredSegment> {
  return { deflated: await deflate(encodeSegment([], nodeRecords)) }
}

export async function readSegment(stored: StoredSegment): Promise<DecodedSegment> {
  if ('raw' in stored) return decodeSegment(stored.raw)
  if ('deflated' in stored) return decodeSegment(await inflate(stored.deflated))
  const { blocks, nodes } = decodeSegment(stored)
  return { blocks: blocks.map((block) => ({ ...block, record: unpackZeros(block.record) })), nodes }
}

export function encodeSegment(blocks: SegmentBlock[], nodeRecords: Uint8Array[]): Uint8Array {
  let size = 8
  for (const block of blocks) size += 16 + 32 + block.record.length
  for (const record of nodeRecords) size += record.length
  const out = new ByteWriter(size)
  out.varint(blocks.length)
  for (const block of blocks) {
    out.varint(block.number)
    out.bytes(block.hash)
    out.varint(block.record.length)
    out.bytes(block.record)
  }
  for (const record of nodeRecords) out.bytes(record)
  return out.done()
}

export interface DecodedSegment {
  blocks: SegmentBlock[]
  /** Packed nodes (a view into the segment). */
  nodes: Uint8Array
}

export function decodeSegment(segment: Uint8Array): DecodedSegment {
  const input = new ByteReader(segment, 'a stored segment')
  const blocks: SegmentBlock[] = []
  for (let count = input.varint(); count > 0; count--) {
    const number = input.varint()
    const hash = input.view(32)
    blocks.push({ number, hash, record: input.view(input.varint()) })
  }
  return { blocks, nodes: segment.subarray(input.offset) }
}

/** The hash of a block from its record: the keccak of its header. */
export function blockHashOfRecord(record: Uint8Array): Uint8Array {
  return keccak256(headerBytesOf(record))
}

/** The key of a merge's node segment: "n" and the key of the first per-commit record merged into it (never reused), zero-padded so keys sort as merged. */
export function nodeSegmentKey(firstBatchKey: number): string {
  return `n${String(firstBatchKey).padStart(16, '0')}`
}

/** The key of a node segment's filter (nodeFilter.ts): "f" and the same digits. */
export function nodeFilterKey(firstBatchKey: number): string {
  return `f${String(firstBatchKey).padStart(16, '0')}`
}

/** The node segment a filter key is of. */
export const segmentOfFilter = (filterKey: string): string => `n${filterKey.slice(1)}`

/** Block segments (and layout-3 segments holding both): the numeric keys. */
export const blockSegmentKeys = (): IDBKeyRange => IDBKeyRange.bound(-Infinity, Infinity)

/** Node segments: the string keys of "n". */
export const nodeSegmentKeys = (): IDBKeyRange => IDBKeyRange.bound('n', 'n\uffff')

/** Their filters: the string keys of "f" (none for the segments of layout 3). */
export const nodeFilterKeys = (): IDBKeyRange => IDBKeyRange.bound('f', 'f\uffff')
