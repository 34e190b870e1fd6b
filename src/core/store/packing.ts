/**
 * Compact encodings for what the IndexedDB store writes (measured in the browser bench: every
 * record of a commit costs time, and IndexedDB keeps strings as UTF-16).
 *
 * - A commit's trie nodes go in ONE record: a 32-byte hex key as its 32 bytes (not 128 bytes of
 *   UTF-16), any other key as UTF-8, each value length-prefixed.
 * - A block record's runs of zero bytes (empty logs blooms: 2 × 256 per block) are counted, not
 *   stored.
 */

import { ByteReader, ByteWriter, wordAt } from './byteStream.ts'

export const KIND_HEX = 0
export const KIND_TEXT = 1
const utf8 = new TextEncoder()
const fromUtf8 = new TextDecoder()


export function packNodes(nodes: Map<string, Uint8Array>): Uint8Array {
  let size = 4
  for (const value of nodes.values()) size += value.length + 40
  const out = new ByteWriter(size)
  writeNodes(out, nodes)
  return out.done()
}

/**
 * The same record, written into a buffer kept between calls and handed out as a view of it, for a
 * reader that copies it at once (NodeArchive.add: the memory stores): a commit's nodes packed
 * into a new buffer, then copied into the archive, made two short-lived buffers a block, and
 * their allocation was most of the memory store's commit in Node's profile.
 */
export function packNodesTransient(nodes: Map<string, Uint8Array>): Uint8Array {
  // A large commit (a state loaded whole) grows the buffer: not kept past it.
  if (transient.capacity > TRANSIENT_BYTES * 16) transient = new ByteWriter(TRANSIENT_BYTES)
  transient.reset()
  writeNodes(transient, nodes)
  return transient.view()
}

const TRANSIENT_BYTES = 64 * 1024
let transient = new ByteWriter(TRANSIENT_BYTES)

function writeNodes(out: ByteWriter, nodes: Map<string, Uint8Array>): void {
  for (const [key, value] of nodes) {
    // By char codes, not a regex and 32 slices and parseInts per node: packNodes runs on every
    // durable block (~10 nodes each) and showed in the worker's profile.
    const keyBytes = key.length === 64 ? hexKeyBytes(key) : undefined
    if (keyBytes) {
      out.byte(KIND_HEX)
      out.bytes(keyBytes)
    } else {
      const bytes = utf8.encode(key)
      out.byte(KIND_TEXT)
      out.varint(bytes.length)
      out.bytes(bytes)
    }
    out.varint(value.length)
    out.bytes(value)
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

export function unpackNodes(packed: Uint8Array, into: [string, Uint8Array][] = []): [string, Uint8Array][] {
  const input = new ByteReader(packed)
  while (input.more) {
    const kind = input.byte()
    let key: string
    if (kind === KIND_HEX) {
      key = ''
      for (let i = 0; i < 32; i++) key += HEX[input.byte()]
    } else if (kind === KIND_TEXT) {
      key = fromUtf8.decode(input.bytes(input.varint()))
    } else {
      throw new Error(`packed trie nodes: unknown key kind ${kind}`)
    }
    into.push([key, input.bytes(input.varint())])
  }
  return into
}

/** First byte of a zero-packed record: a block record itself is an RLP list (0xc0 and up). */
const ZERO_PACKED = 0x00
const LITERAL = 0x01
const ZEROS = 0x02
/** Shorter zero runs stay in the literal (a token costs 2–3 bytes). */
const MIN_ZERO_RUN = 4

export function packZeros(bytes: Uint8Array): Uint8Array {
  const out = new ByteWriter(bytes.length / 2 + 8)
  out.byte(ZERO_PACKED)
  let literalStart = 0
  let i = 0
  const flush = (end: number) => {
    if (end <= literalStart) return
    out.byte(LITERAL)
    out.varint(end - literalStart)
    out.bytes(bytes.subarray(literalStart, end))
  }
  while (i < bytes.length) {
    if (bytes[i] !== 0) {
      i++
      continue
    }
    let end = i
    while (end < bytes.length && bytes[end] === 0) end++
    if (end - i >= MIN_ZERO_RUN) {
      flush(i)
      out.byte(ZEROS)
      out.varint(end - i)
      literalStart = end
    }
    i = end
  }
  flush(bytes.length)
  return out.done()
}

/** The bytes `packZeros` packed; anything else (a record written before packing) as it is. */
export function unpackZeros(stored: Uint8Array): Uint8Array {
  if (stored[0] !== ZERO_PACKED) return stored
  // Two passes over the tokens (their sizes, then the bytes) so the output is allocated once:
  // a warm start unpacks every stored block.
  let length = 0
  forEachToken(stored, (token, count) => (length += count))
  const out = new Uint8Array(length)
  let offset = 0
  forEachToken(stored, (token, count, at) => {
    if (token === LITERAL) out.set(stored.subarray(at, at + count), offset)
    offset += count
  })
  return out
}

/** Each token of a zero-packed record: its kind, its byte count, and where a literal's bytes are. */
function forEachToken(stored: Uint8Array, visit: (token: number, count: number, at: number) => void): void {
  const input = new ByteReader(stored)
  input.offset = 1
  while (input.more) {
    const token = input.byte()
    const count = input.varint()
    if (token === LITERAL) {
      visit(token, count, input.offset)
      input.view(count)
    } else if (token === ZEROS) {
      visit(token, count, input.offset)
    } else {
      throw new Error(`zero-packed record: unknown token ${token}`)
    }
  }
}

/**
 * The entries of packed node records (`packNodes`), found where they lie: a table of where each
 * 32-byte key is, built by one walk over the records, instead of a string key and a map entry
 * per node (unpacking 150,000 nodes of a 10,000-block chain took most of a second). A value is
 * a view into its record. Keys that are not 32 bytes (rare) go in a map.
 */
export class PackedNodes {
  readonly records: Uint8Array[]
  /** Per slot: record index + 1 (0: empty), and where the key starts in that record. */
  private readonly slotRecord: Int32Array
  private readonly slotOffset: Int32Array
  private readonly mask: number
  private readonly textKeys = new Map<string, Uint8Array>()
  private count = 0

  constructor(records: Uint8Array[]) {
    this.records = records
    let entries = 0
    for (const record of records) entries += walkPacked(record)
    let capacity = 16
    while (capacity < entries * 2) capacity *= 2
    this.slotRecord = new Int32Array(capacity)
    this.slotOffset = new Int32Array(capacity)
    this.mask = capacity - 1
    records.forEach((record, index) => walkPacked(record, (keyOffset, textKey, valueStart, valueEnd) => this.add(index, keyOffset, textKey, valueStart, valueEnd)))
  }

  get size(): number {
    return this.count + this.textKeys.size
  }

  get(key: string): Uint8Array | undefined {
    if (key.length !== 64) return this.textKeys.get(key)
    const wanted = hexKeyBytes(key)
    if (!wanted) return this.textKeys.get(key)
    const slot = this.find(wanted, 0)
    if (slot < 0) return undefined
    const record = this.records[this.slotRecord[slot] - 1]
    return valueAt(record, this.slotOffset[slot] + 32)
  }

  has(key: string): boolean {
    return this.get(key) !== undefined
  }

  private add(recordIndex: number, keyOffset: number, textKey: string | undefined, valueStart: number, valueEnd: number) {
    const record = this.records[recordIndex]
    if (textKey !== undefined) {
      this.textKeys.set(textKey, record.subarray(valueStart, valueEnd))
      return
    }
    const slot = this.find(record, keyOffset)
    if (slot >= 0) return // the same node in two records: content-addressed, so the same bytes
    const free = ~slot
    this.slotRecord[free] = recordIndex + 1
    this.slotOffset[free] = keyOffset
    this.count++
  }

  /** The slot holding the key at `bytes[offset..+32]`, or ~(the free slot where it would go). */
  private find(bytes: Uint8Array, offset: number): number {
    // Keys are hashes: their first four bytes are as good a hash as any.
    let slot = wordAt(bytes, offset) & this.mask
    for (;;) {
      const recordIndex = this.slotRecord[slot]
      if (recordIndex === 0) return ~slot
      if (sameKey(this.records[recordIndex - 1], this.slotOffset[slot], bytes, offset)) return slot
      slot = (slot + 1) & this.mask
    }
  }
}

function sameKey(a: Uint8Array, aOffset: number, b: Uint8Array, bOffset: number): boolean {
  for (let i = 0; i < 32; i++) if (a[aOffset + i] !== b[bOffset + i]) return false
  return true
}

/** A 64-digit lowercase hex key as its 32 bytes, or undefined when it is not one. */
export function hexKeyBytes(key: string): Uint8Array | undefined {
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) {
    const high = hexDigit(key.charCodeAt(2 * i))
    const low = hexDigit(key.charCodeAt(2 * i + 1))
    if (high < 0 || low < 0) return undefined
    out[i] = (high << 4) | low
  }
  return out
}

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48
  if (code >= 97 && code <= 102) return code - 87
  return -1
}

/** The length-prefixed value at `offset` of a packed record, as a view. */
function valueAt(record: Uint8Array, offset: number): Uint8Array {
  const input = new ByteReader(record)
  input.offset = offset
  return input.view(input.varint())
}

/** Calls `visit` for each entry of a packed record (a 32-byte key by its offset, the value by its bounds); returns how many. */
export function walkPacked(
  record: Uint8Array,
  visit?: (keyOffset: number, textKey: string | undefined, valueStart: number, valueEnd: number, entryOffset: number) => void,
): number {
  const input = new ByteReader(record)
  let entries = 0
  while (input.more) {
    const entryOffset = input.offset
    const kind = input.byte()
    let keyOffset = input.offset
    let textKey: string | undefined
    if (kind === KIND_HEX) {
      input.view(32)
    } else if (kind === KIND_TEXT) {
      const length = input.varint()
      keyOffset = input.offset
      const key = input.view(length)
      if (visit) textKey = fromUtf8.decode(key)
    } else {
      throw new Error(`packed trie nodes: unknown key kind ${kind}`)
    }
    const length = input.varint()
    const valueStart = input.offset
    input.view(length)
    visit?.(keyOffset, textKey, valueStart, input.offset, entryOffset)
    entries++
  }
  return entries
}
