import { SpillFile } from '../store/spillFile.ts'

/** Bytes a slab holds: ~250 records of an ERC-20 transfer's block; the unused tail of one is a small loss. */
const SLAB_BYTES = 256 * 1024
/** A record longer than this gets a slab of its own (it would waste most of a slab's tail). */
const LARGEST_PACKED = 16 * 1024
/** Spilled slabs kept in memory, most recently read (a log query walks consecutive blocks). */
const RESIDENT_SLABS = 8

/** The slab of every buffer that holds records, whichever arena made it (a view restored from a memory store is found). */
const slabs = new WeakMap<ArrayBufferLike, RecordSlab>()

/**
 * Records side by side in one buffer: in memory, or, once full and spilled (Node.js, a chain
 * whose store keeps nothing in memory), in the arena's spill file and read back by need.
 */
export class RecordSlab {
  /** Where the slab is in the spill file, once written there. */
  spilledAt = -1

  constructor(
    public bytes: Uint8Array | undefined,
    /** Bytes in use (what a spill writes and reads back). */
    public length: number,
    private readonly arena?: RecordArena,
  ) {}

  /** The record at `offset`, read back from the spill file if the slab is not in memory. */
  view(offset: number, length: number): Uint8Array {
    const bytes = this.bytes ?? this.arena!.load(this)
    return bytes.subarray(offset, offset + length)
  }
}

/** Where a record is: its slab, and its place there (what a StoredBlock keeps instead of a view). */
export interface RecordPlace {
  slab: RecordSlab
  offset: number
  length: number
}

/** Where `bytes`, a record, are kept: an arena's slab, or a slab over the buffer that holds them (made now). */
export function placeOf(bytes: Uint8Array): RecordPlace {
  let slab = slabs.get(bytes.buffer)
  if (!slab) {
    slab = new RecordSlab(new Uint8Array(bytes.buffer, 0, bytes.buffer.byteLength), bytes.buffer.byteLength)
    slabs.set(bytes.buffer, slab)
  }
  return { slab, offset: bytes.byteOffset, length: bytes.length }
}

/**
 * The chain's block records, packed into shared slabs instead of one ArrayBuffer each. A record
 * is ~1 KB and lives as long as the chain, while each ArrayBuffer costs its own objects, its own
 * allocation and the allocator's bookkeeping: at 20,000 ERC-20 blocks a Node.js process held
 * 1.0 KB a block more RSS with a record per ArrayBuffer than with slabs (bench/chainSizesNode.ts).
 *
 * With `spill` (Node.js, a node whose store keeps nothing in memory), each full slab is written
 * to a spill file and leaves memory, read back while among the recently read: a long chain's
 * blocks cost disk, not RAM. A memory store holds the records' bytes itself (it is what a
 * restart loads), so spilling them would free nothing.
 *
 * Records are only ever appended, never written over, so a place handed out stays valid as long
 * as it is held. Blocks cut by evm_revert or a reset leave their bytes in a slab that still holds
 * live blocks (at most what was cut, the next records following them); a slab holding only cut
 * blocks is collected with them.
 */
export class RecordArena {
  private slab: RecordSlab | undefined
  private used = 0
  private file: SpillFile | null | undefined
  private readonly resident: RecordSlab[] = []

  /** `spill`: write full slabs to a spill file where the platform has one; `slabBytes`: a slab's size (tests make it small). */
  constructor(
    private readonly spill = false,
    private readonly slabBytes = SLAB_BYTES,
  ) {}

  /** Bytes written to the spill file (0: nothing spilled, or no file to spill to). */
  get spilledBytes(): number {
    return this.file?.size ?? 0
  }

  /** `length` bytes for a block's record, to be written by the caller. */
  allocate(length: number): Uint8Array {
    if (!this.packs(length)) return this.own(new Uint8Array(length)).bytes!
    if (!this.slab || this.used + length > this.slab.length) {
      if (this.slab) this.sealed(this.slab)
      this.slab = this.own(new Uint8Array(this.slabBytes), true)
      this.used = 0
    }
    const out = this.slab.bytes!.subarray(this.used, this.used + length)
    this.used += length
    return out
  }

  /**
   * A block's record as the chain keeps it: copied into a slab if it has its ArrayBuffer to
   * itself (a record read from IndexedDB), else where it is (a view into a buffer holding many: a
   * memory store's slab, a state file's image).
   */
  hold(bytes: Uint8Array): Uint8Array {
    if (bytes.byteLength < bytes.buffer.byteLength || bytes.length === 0 || !this.packs(bytes.length)) return bytes
    const out = this.allocate(bytes.length)
    out.set(bytes)
    return out
  }

  /** A spilled slab's bytes, read back and kept among the recently read. */
  load(slab: RecordSlab): Uint8Array {
    const bytes = this.file!.read(slab.spilledAt, slab.length)
    slab.bytes = bytes
    slabs.set(bytes.buffer, slab)
    this.resident.push(slab)
    if (this.resident.length > RESIDENT_SLABS) this.resident.shift()!.bytes = undefined
    return bytes
  }

  /** Closes the spill file (the chain is not read again). */
  close(): void {
    this.file?.close()
    this.file = null
  }

  /** A record this long goes in a slab (a longer one would waste most of a slab's tail). */
  private packs(length: number): boolean {
    return length <= Math.min(LARGEST_PACKED, this.slabBytes)
  }

  /** A slab over `bytes`, found by its buffer from now on; `spillable`: one this arena packs. */
  private own(bytes: Uint8Array, spillable = false): RecordSlab {
    const slab = new RecordSlab(bytes, bytes.length, spillable ? this : undefined)
    slabs.set(bytes.buffer, slab)
    return slab
  }

  /** A full slab: written to the spill file, if this arena spills, and left to be collected. */
  private sealed(slab: RecordSlab): void {
    if (!this.spill || this.used === 0) return
    if (this.file === undefined) this.file = SpillFile.open(this) ?? null
    if (!this.file) return
    slab.length = this.used
    slab.spilledAt = this.file.write(slab.bytes!.subarray(0, this.used))
    slab.bytes = undefined
  }
}
