/**
 * The big-endian 32-bit word at `offset`, as a signed int32: a key's first bytes as its hash
 * (trie keys are keccak hashes already) in the store's tables and filters.
 */
export function wordAt(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]
}

/** Bytes and LEB128 varints written to a growing buffer and read back: the store's encodings (packing.ts, segments.ts). */
export class ByteWriter {
  private buffer: Uint8Array
  length = 0
  constructor(size: number) {
    this.buffer = new Uint8Array(Math.max(size, 16))
  }
  private reserve(extra: number) {
    if (this.length + extra <= this.buffer.length) return
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra))
    grown.set(this.buffer.subarray(0, this.length))
    this.buffer = grown
  }
  byte(value: number) {
    this.reserve(1)
    this.buffer[this.length++] = value
  }
  varint(value: number) {
    while (value >= 0x80) {
      this.byte((value & 0x7f) | 0x80)
      value = Math.floor(value / 128)
    }
    this.byte(value)
  }
  bytes(value: Uint8Array) {
    this.reserve(value.length)
    this.buffer.set(value, this.length)
    this.length += value.length
  }
  done(): Uint8Array {
    return this.buffer.slice(0, this.length)
  }
  /** What was written, as a view of the buffer: valid until the writer writes again. */
  view(): Uint8Array {
    return this.buffer.subarray(0, this.length)
  }
  /** Starts again from empty, keeping the buffer. */
  reset(): void {
    this.length = 0
  }
  get capacity(): number {
    return this.buffer.length
  }
}

export class ByteReader {
  offset = 0
  /** `what`: the bytes' name in the error when they end early. */
  constructor(
    private readonly buffer: Uint8Array,
    private readonly what = 'packed record',
  ) {}
  get more(): boolean {
    return this.offset < this.buffer.length
  }
  byte(): number {
    if (this.offset >= this.buffer.length) throw new Error(`${this.what} ends early`)
    return this.buffer[this.offset++]
  }
  varint(): number {
    let value = 0
    let scale = 1
    for (;;) {
      const byte = this.byte()
      value += (byte & 0x7f) * scale
      if (byte < 0x80) return value
      scale *= 128
    }
  }
  /** The next `length` bytes, copied. */
  bytes(length: number): Uint8Array {
    return this.view(length).slice()
  }

  /** The next `length` bytes, a view into the buffer. */
  view(length: number): Uint8Array {
    if (this.offset + length > this.buffer.length) throw new Error(`${this.what} ends early`)
    const out = this.buffer.subarray(this.offset, this.offset + length)
    this.offset += length
    return out
  }
}
