import { walkPacked } from './packing.ts'

/**
 * A Bloom filter of the keys of one node segment (segments.ts): which segments a trie read that
 * missed may find its node in, so a restored chain reads those, not every node it ever stored
 * (10,000 ERC-20 blocks: ~44 MB of nodes, seconds to read and inflate on this machine's class).
 *
 * 16 bits and 4 probes per key: a key not in the segment passes ~0.2% of the time. Trie keys
 * are keccak hashes already, so the probes are taken from the key's own bytes (its first and last
 * words, so that keys differing at either end differ); other keys (text: preimages, …) are hashed
 * with FNV-1a.
 */
export class NodeFilter {
  constructor(readonly bits: Uint8Array) {}

  /** A filter of every key of these packed records. */
  static of(records: Uint8Array[]): NodeFilter {
    const keys = records.reduce((count, record) => count + walkPacked(record), 0)
    let size = 128 // bytes
    while (size * 8 < keys * BITS_PER_KEY) size *= 2
    const filter = new NodeFilter(new Uint8Array(size))
    for (const record of records) {
      walkPacked(record, (keyOffset, textKey) => filter.add(textKey === undefined ? probesOfBytes(record, keyOffset) : probesOfText(textKey)))
    }
    return filter
  }

  /** Whether the segment may hold `key` (a trie key: hex, no 0x; or a text key). */
  mayHold(key: string): boolean {
    return this.mayHoldProbes(probesOf(key))
  }

  mayHoldProbes([h1, h2]: Probes): boolean {
    const mask = this.bits.length * 8 - 1
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + i * h2) & mask
      if ((this.bits[bit >>> 3] & (1 << (bit & 7))) === 0) return false
    }
    return true
  }

  private add([h1, h2]: Probes): void {
    const mask = this.bits.length * 8 - 1
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + i * h2) & mask
      this.bits[bit >>> 3] |= 1 << (bit & 7)
    }
  }
}

const BITS_PER_KEY = 16
const PROBES = 4

/** Two 32-bit hashes of a key; probe i is h1 + i·h2 (double hashing). */
export type Probes = [number, number]

/** The probes of a key as the trie names it: 64 hex digits (a 32-byte hash), or text. */
export function probesOf(key: string): Probes {
  if (key.length === 64 && HEX64.test(key)) {
    const word = (at: number) => parseInt(key.slice(at * 8, at * 8 + 8), 16)
    return [(word(0) ^ word(7)) >>> 0, ((word(1) ^ word(6)) | 1) >>> 0]
  }
  return probesOfText(key)
}

const HEX64 = /^[0-9a-f]{64}$/

function probesOfBytes(record: Uint8Array, offset: number): Probes {
  const word = (at: number) => (record[offset + at * 4] << 24) | (record[offset + at * 4 + 1] << 16) | (record[offset + at * 4 + 2] << 8) | record[offset + at * 4 + 3]
  return [(word(0) ^ word(7)) >>> 0, ((word(1) ^ word(6)) | 1) >>> 0]
}

function probesOfText(key: string): Probes {
  return [fnv1a(key, 0x811c9dc5), (fnv1a(key, 0x01000193) | 1) >>> 0]
}

function fnv1a(text: string, seed: number): number {
  let hash = seed
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash >>> 0
}
