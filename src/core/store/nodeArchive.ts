import { wordAt } from './byteStream.ts'
import { deflate, inflate } from './deflate.ts'
import { KIND_HEX, KIND_TEXT, hexKeyBytes, walkPacked } from './packing.ts'
import { SpillFile } from './spillFile.ts'
import type { NodeSource } from './store.ts'

/**
 * Raw bytes a chunk takes before it is sealed (and deflated): an old node's read inflates its
 * chunk, so small; big enough that a node's previous version is often in the same chunk (what
 * deflate finds).
 */
const CHUNK_BYTES = 64 * 1024
/** Sealed chunks kept inflated, most recently read. */
const INFLATED_CHUNKS = 16
/**
 * A chunk's buffer: room past CHUNK_BYTES for the record that fills it, so that it is not grown.
 * Every chunk's bytes (open, sealing, inflated) live in buffers of this size, taken back once
 * the chunk is deflated or evicted and handed to the next one. So the archive's churn is not
 * garbage: a 64 KiB chunk inflated for one old node, dropped ~70 blocks later, had outlived the
 * young generation and waited for a full GC in the C allocator's heap, and tens of megabytes of
 * them left that heap fragmented for good (Node.js's RSS, issue 21).
 */
const CHUNK_CAPACITY = CHUNK_BYTES + 16 * 1024
/** Free chunk buffers kept for the next chunk (the rest are let go). */
const SPARE_BUFFERS = 4

const utf8 = new TextEncoder()

interface Chunk {
  /** The packed records' bytes: growing while the chunk is open, then until deflated or evicted. */
  raw: Uint8Array | undefined
  length: number
  deflated: Uint8Array | undefined
  /** Where the deflated bytes are in the spill file, once written there (then `deflated` is not kept). */
  spilled?: { at: number; length: number }
  inflating?: Promise<void>
}

/**
 * Trie nodes and code of the commits a store holds in memory (the memory store, the CLI's state
 * file image, the node that keeps nothing), kept compact so that memory grows by a fraction of a
 * chain's state bytes (issue 21): the commits' packed records (packing.ts) appended into 64 KiB
 * chunks, each deflated once full (trie nodes deflate ~4×: a node written again differs from its
 * previous version in one child hash), with a table of where each key is — 12 bytes a slot in
 * typed arrays, not a string and a map entry per node (~150 bytes). The trie reads through it
 * (TrieNodeStore) only when its own cache of hot nodes misses.
 *
 * In Node.js a sealed chunk is written to a spill file (spillFile.ts) and read back from there
 * when one of its nodes is, so a chain's state history costs disk rather than memory: at 20,000
 * ERC-20 blocks the deflated chunks were ~1.9 KB a block, a fifth of the process's growth.
 *
 * A value read is a copy: a view would keep its whole chunk alive in a cache.
 */
export class NodeArchive implements NodeSource {
  private chunks: Chunk[] = []
  /** Per slot: the key's first four bytes (its hash; text keys FNV-1a), chunk + 1 (0: empty), and where its entry starts. */
  private slotHash = new Int32Array(1024)
  private slotChunk = new Int32Array(1024)
  private slotOffset = new Int32Array(1024)
  private count = 0
  private inflatedOrder: Chunk[] = []
  private readonly spare: Uint8Array[] = []
  private sealing: Promise<void> = Promise.resolve()
  /** Opened when the first chunk seals (a short chain never opens one); null: none to be had. */
  private spill: SpillFile | null | undefined

  /** `compress`: deflate full chunks, and spill them where the platform can (false: keep them raw, for a short-lived archive). */
  constructor(private readonly compress = true) {}

  /** Nodes held (a node written twice counts twice). */
  get size(): number {
    return this.count
  }

  /** Bytes held: raw chunks, deflated ones, and the key table. */
  get bytes(): number {
    let bytes = this.slotHash.byteLength * 3
    for (const chunk of this.chunks) bytes += (chunk.raw?.byteLength ?? 0) + (chunk.deflated?.byteLength ?? 0)
    return bytes
  }

  /** Adds a commit's packed nodes (packNodes), copied at once: `record` may be a transient view (packNodesTransient). */
  add(record: Uint8Array): void {
    if (record.length === 0) return
    let chunk = this.chunks[this.chunks.length - 1]
    if (!chunk || chunk.deflated || chunk.length >= CHUNK_BYTES || !chunk.raw) chunk = this.openChunk(record.length)
    if (chunk.length + record.length > chunk.raw!.length) {
      const grown = new Uint8Array(Math.max(chunk.raw!.length * 2, chunk.length + record.length))
      grown.set(chunk.raw!.subarray(0, chunk.length))
      this.recycle(chunk.raw!)
      chunk.raw = grown
    }
    const base = chunk.length
    chunk.raw!.set(record, base)
    chunk.length += record.length
    const index = this.chunks.length - 1
    const raw = chunk.raw!
    walkPacked(record, (keyOffset, _textKey, _valueStart, _valueEnd, entryOffset) => {
      this.insert(hashAt(raw, base + entryOffset), index, base + entryOffset)
    })
    if (chunk.length >= CHUNK_BYTES) this.seal(index)
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const wanted = keyBytes(key)
    const hash = hashOfKey(wanted)
    // The tables as they are now: a commit added while a chunk inflates may grow (replace) them.
    const hashes = this.slotHash
    const chunkOf = this.slotChunk
    const offsets = this.slotOffset
    const chunks = this.chunks
    const mask = hashes.length - 1
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const chunk = chunkOf[slot]
      if (chunk === 0) return undefined
      if (hashes[slot] !== hash) continue
      const offset = offsets[slot]
      const value = await this.withBytes(chunks[chunk - 1], (bytes) => valueIfKey(bytes, offset, wanted)?.slice())
      if (value) return value
    }
  }

  /** Every node held, chunk by chunk (a state file's snapshot). */
  async *entries(): AsyncGenerator<[string, Uint8Array]> {
    for (const chunk of this.chunks) {
      const out: [string, Uint8Array][] = []
      await this.withBytes(chunk, (raw) => {
        const bytes = raw.subarray(0, chunk.length)
        walkPacked(bytes, (keyOffset, textKey, valueStart, valueEnd) => {
          out.push([textKey ?? hexOf(bytes, keyOffset), bytes.slice(valueStart, valueEnd)])
        })
      })
      yield* out
    }
  }

  clear(): void {
    this.chunks = []
    this.slotHash = new Int32Array(1024)
    this.slotChunk = new Int32Array(1024)
    this.slotOffset = new Int32Array(1024)
    this.count = 0
    this.inflatedOrder = []
    this.spill?.truncate()
  }

  /** Closes the spill file (the archive is not read again). */
  close(): void {
    this.spill?.close()
    this.spill = null
  }

  /** Resolves once every full chunk is deflated (a measurement's settled memory). */
  settled(): Promise<void> {
    return this.sealing
  }

  private openChunk(first: number): Chunk {
    const chunk: Chunk = { raw: this.buffer(first), length: 0, deflated: undefined }
    this.chunks.push(chunk)
    return chunk
  }

  private seal(index: number): void {
    const chunk = this.chunks[index]
    const open = chunk.raw!
    if (!this.compress) {
      // Kept for good: its own exact copy, and the buffer goes to the next chunk.
      chunk.raw = open.slice(0, chunk.length)
      this.recycle(open)
      return
    }
    chunk.raw = open.subarray(0, chunk.length)
    const chunks = this.chunks
    this.sealing = this.sealing.then(async () => {
      const deflated = await deflate(chunk.raw!)
      if (this.chunks !== chunks) return // cleared meanwhile
      if (this.spill === undefined) this.spill = SpillFile.open(this) ?? null
      if (this.spill) chunk.spilled = { at: this.spill.write(deflated), length: deflated.length }
      else chunk.deflated = deflated
      this.release(chunk)
    })
  }

  /**
   * Runs `use` on the chunk's bytes, inflating them first if they are not held. `use` runs in the
   * same synchronous stretch as the check, never after an await: once this thread awaits, another
   * read may evict the chunk and hand its buffer to the next chunk inflated.
   */
  private async withBytes<T>(chunk: Chunk, use: (bytes: Uint8Array) => T): Promise<T> {
    while (!chunk.raw) await this.inflateChunk(chunk)
    return use(chunk.raw)
  }

  private inflateChunk(chunk: Chunk): Promise<void> {
    const chunks = this.chunks
    chunk.inflating ??= inflate(chunk.deflated ?? this.spill!.read(chunk.spilled!.at, chunk.spilled!.length))
      .then((inflated) => {
        // Copied into a chunk buffer: the platform's output dies young, at once.
        chunk.raw = this.buffer(inflated.length).subarray(0, inflated.length)
        chunk.raw.set(inflated)
        // Cleared meanwhile: the reads waiting end on it, and it is not kept.
        if (this.chunks !== chunks) return
        this.inflatedOrder.push(chunk)
        while (this.inflatedOrder.length > INFLATED_CHUNKS) this.release(this.inflatedOrder.shift()!)
      })
      .finally(() => (chunk.inflating = undefined))
    return chunk.inflating
  }

  /** Drops a sealed chunk's bytes (it is read back from its deflated copy), keeping the buffer. */
  private release(chunk: Chunk): void {
    if (!chunk.raw || !(chunk.deflated || chunk.spilled)) return
    this.recycle(chunk.raw)
    chunk.raw = undefined
  }

  /** A chunk buffer with room for `length` bytes: a spare one where it fits. */
  private buffer(length: number): Uint8Array {
    if (length > CHUNK_CAPACITY) return new Uint8Array(length)
    return this.spare.pop() ?? new Uint8Array(CHUNK_CAPACITY)
  }

  /** Takes back a chunk's buffer for the next chunk, if it is one of the standard size. */
  private recycle(bytes: Uint8Array): void {
    if (bytes.buffer.byteLength !== CHUNK_CAPACITY || this.spare.length >= SPARE_BUFFERS) return
    this.spare.push(new Uint8Array(bytes.buffer))
  }

  private insert(hash: number, chunk: number, offset: number): void {
    if ((this.count + 1) * 4 > this.slotHash.length * 3) this.grow()
    const mask = this.slotHash.length - 1
    let slot = hash & mask
    while (this.slotChunk[slot] !== 0) slot = (slot + 1) & mask
    this.slotHash[slot] = hash
    this.slotChunk[slot] = chunk + 1
    this.slotOffset[slot] = offset
    this.count++
  }

  private grow(): void {
    const [hashes, chunks, offsets] = [this.slotHash, this.slotChunk, this.slotOffset]
    const capacity = hashes.length * 2
    this.slotHash = new Int32Array(capacity)
    this.slotChunk = new Int32Array(capacity)
    this.slotOffset = new Int32Array(capacity)
    const mask = capacity - 1
    for (let i = 0; i < hashes.length; i++) {
      if (chunks[i] === 0) continue
      let slot = hashes[i] & mask
      while (this.slotChunk[slot] !== 0) slot = (slot + 1) & mask
      this.slotHash[slot] = hashes[i]
      this.slotChunk[slot] = chunks[i]
      this.slotOffset[slot] = offsets[i]
    }
  }
}

/** A key as it is packed: 32 bytes for a 64-digit hex key, else its UTF-8 bytes (a text key). */
type PackedKey = { hex: Uint8Array } | { text: Uint8Array }

function keyBytes(key: string): PackedKey {
  const hex = key.length === 64 ? hexKeyBytes(key) : undefined
  return hex ? { hex } : { text: utf8.encode(key) }
}

/** A hex key's first four bytes (keys are hashes already), a text key's FNV-1a. */
function hashOfKey(key: PackedKey): number {
  return 'hex' in key ? wordAt(key.hex, 0) : fnv1a(key.text, 0, key.text.length)
}

/** The hash of the key of the packed entry at `offset` (its kind byte). */
function hashAt(bytes: Uint8Array, offset: number): number {
  if (bytes[offset] === KIND_HEX) return wordAt(bytes, offset + 1)
  const { value: length, next } = varintAt(bytes, offset + 1)
  return fnv1a(bytes, next, next + length)
}

/** The value of the packed entry at `offset` when its key is `wanted`. */
function valueIfKey(bytes: Uint8Array, offset: number, wanted: PackedKey): Uint8Array | undefined {
  const kind = bytes[offset]
  let at = offset + 1
  if (kind === KIND_HEX) {
    if (!('hex' in wanted) || !sameBytes(bytes, at, wanted.hex)) return undefined
    at += 32
  } else if (kind === KIND_TEXT) {
    const { value: length, next } = varintAt(bytes, at)
    if (!('text' in wanted) || length !== wanted.text.length || !sameBytes(bytes, next, wanted.text)) return undefined
    at = next + length
  } else {
    return undefined
  }
  const { value: length, next } = varintAt(bytes, at)
  return bytes.subarray(next, next + length)
}

function sameBytes(bytes: Uint8Array, offset: number, wanted: Uint8Array): boolean {
  for (let i = 0; i < wanted.length; i++) if (bytes[offset + i] !== wanted[i]) return false
  return true
}

function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193)
  return hash | 0
}

function varintAt(bytes: Uint8Array, offset: number): { value: number; next: number } {
  let value = 0
  let scale = 1
  for (;;) {
    const byte = bytes[offset++]
    value += (byte & 0x7f) * scale
    if (byte < 0x80) return { value, next: offset }
    scale *= 128
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

function hexOf(bytes: Uint8Array, offset: number): string {
  let out = ''
  for (let i = 0; i < 32; i++) out += HEX[bytes[offset + i]]
  return out
}
