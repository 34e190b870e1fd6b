import { wordAt } from './byteStream.ts'
import { walkPacked } from './packing.ts'

/**
 * A Bloom filter of the keys of one node segment (segments.ts), or of every segment of a merge:
 * which segments a trie read that missed may find its node in, so a restored chain reads those,
 * not every node it ever stored (10,000 ERC-20 blocks: ~44 MB of nodes, seconds to read and
 * inflate on this machine's class).
 *
 * A read that reaches old nodes tests a merge's filter for each merge, newest first (~160 at
 * 50,000 ERC-20 blocks), and the filters of the pieces (~25) of those whose filter let it
 * through. A merge's filter only saves tests, so it may let through ~1 key in 120 that it does
 * not hold (10 bits and 7 probes a key: a read of a node from genesis at 100,000 blocks tests the
 * pieces of ~3 merges in vain); a piece's filter saves a read and inflate (~1–2 ms in Chromium),
 * so it lets through ~1 in 2,000 (16 bits, 11 probes: ~0.05 wasted reads for that node). Without
 * merge filters (merges stored before them) every piece's filter was tested, ~3,900 at 50,000
 * blocks (~2 ms, in a worker just started, of a ~10 ms first state read), and each let ~1 in 100,000
 * through (24 bits, 16 probes); the filters before those (16–32 bits, 4 probes) ~1 in 1,000.
 * Each is read with the probe count it was written with (`probes`, 4 when not stored); the probe
 * sequence is the same, so any count up to it is correct.
 *
 * Trie keys are keccak hashes already, so the probes are taken from the key's own bytes (its
 * first and last words, so that keys differing at either end differ); other keys (text:
 * preimages, …) are hashed with FNV-1a.
 */
export class NodeFilter {
  private readonly size: number

  constructor(
    readonly bits: Uint8Array,
    readonly probes = LEGACY_PROBES,
  ) {
    this.size = bits.length * 8
  }

  /** A filter of every key of these packed records, as dense as `density` says. */
  static of(records: Uint8Array[], { bitsPerKey, probes }: FilterDensity): NodeFilter {
    const keys = records.reduce((count, record) => count + walkPacked(record), 0)
    const filter = new NodeFilter(new Uint8Array(Math.max(16, Math.ceil((keys * bitsPerKey) / 8))), probes)
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
    for (let i = 0; i < this.probes; i++) {
      const bit = this.bitOf(h1, h2, i)
      if ((this.bits[bit >>> 3] & (1 << (bit & 7))) === 0) return false
    }
    return true
  }

  private add([h1, h2]: Probes): void {
    for (let i = 0; i < this.probes; i++) {
      const bit = this.bitOf(h1, h2, i)
      this.bits[bit >>> 3] |= 1 << (bit & 7)
    }
  }

  /** Probe i's bit: h1 + i·h2 (below 2^37, so exact) modulo the size, which for the power-of-two sizes written before is the mask they used. */
  private bitOf(h1: number, h2: number, i: number): number {
    return ((h1 + i * h2) >>> 0) % this.size
  }
}

/** Bits a key and probes: the rate of keys a filter lets through that it does not hold. */
export interface FilterDensity {
  bitsPerKey: number
  probes: number
}

/** A piece's filter: ~1 in 2,000 let through (a wasted segment read each). */
export const PIECE_FILTER: FilterDensity = { bitsPerKey: 16, probes: 11 }
/** A merge's filter: ~1 in 120 let through (its pieces' filters tested in vain). */
export const MERGE_FILTER: FilterDensity = { bitsPerKey: 10, probes: 7 }
/** The probes of the filters stored without a count. */
const LEGACY_PROBES = 4

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
  const word = (at: number) => wordAt(record, offset + at * 4)
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
