/**
 * Compact encodings for what the IndexedDB store writes (measured in the browser bench: every
 * record of a commit costs time, and IndexedDB keeps strings as UTF-16).
 *
 * - A commit's trie nodes go in ONE record: a 32-byte hex key as its 32 bytes (not 128 bytes of
 *   UTF-16), any other key as UTF-8, each value length-prefixed.
 * - A block record's runs of zero bytes (empty logs blooms: 2 × 256 per block) are counted, not
 *   stored.
 */

const HEX_KEY = /^[0-9a-f]{64}$/
const KIND_HEX = 0
const KIND_TEXT = 1
const utf8 = new TextEncoder()
const fromUtf8 = new TextDecoder()

class Writer {
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
}

class Reader {
  offset = 0
  constructor(private readonly buffer: Uint8Array) {}
  get more(): boolean {
    return this.offset < this.buffer.length
  }
  byte(): number {
    if (this.offset >= this.buffer.length) throw new Error('packed record ends early')
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
  bytes(length: number): Uint8Array {
    if (this.offset + length > this.buffer.length) throw new Error('packed record ends early')
    const out = this.buffer.slice(this.offset, this.offset + length)
    this.offset += length
    return out
  }
}

export function packNodes(nodes: Map<string, Uint8Array>): Uint8Array {
  let size = 4
  for (const value of nodes.values()) size += value.length + 40
  const out = new Writer(size)
  for (const [key, value] of nodes) {
    if (HEX_KEY.test(key)) {
      out.byte(KIND_HEX)
      for (let i = 0; i < 64; i += 2) out.byte(parseInt(key.slice(i, i + 2), 16))
    } else {
      const bytes = utf8.encode(key)
      out.byte(KIND_TEXT)
      out.varint(bytes.length)
      out.bytes(bytes)
    }
    out.varint(value.length)
    out.bytes(value)
  }
  return out.done()
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

export function unpackNodes(packed: Uint8Array, into: [string, Uint8Array][] = []): [string, Uint8Array][] {
  const input = new Reader(packed)
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
  const out = new Writer(bytes.length / 2 + 8)
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
  const input = new Reader(stored)
  input.byte()
  const parts: Uint8Array[] = []
  let length = 0
  while (input.more) {
    const token = input.byte()
    const count = input.varint()
    if (token === ZEROS) parts.push(new Uint8Array(count))
    else if (token === LITERAL) parts.push(input.bytes(count))
    else throw new Error(`zero-packed record: unknown token ${token}`)
    length += count
  }
  const out = new Uint8Array(length)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}
