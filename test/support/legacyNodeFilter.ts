import { probesOf } from '../../src/core/store/nodeFilter.ts'

/**
 * A node piece's key filter as layouts 4 to 7 wrote it, by their rule written out: 16 bits a key
 * rounded up to a power of two (128 bytes at least), 4 probes h1 + i·h2 masked to the size, no
 * probe count stored. What a database of the landed version holds, for the tests that read one.
 */
export function layout7FilterOf(keys: string[]): Uint8Array {
  let size = 128
  while (size * 8 < keys.length * 16) size *= 2
  const bits = new Uint8Array(size)
  for (const key of keys) {
    const [h1, h2] = probesOf(key)
    for (let i = 0; i < 4; i++) {
      const bit = (h1 + i * h2) & (size * 8 - 1)
      bits[bit >>> 3] |= 1 << (bit & 7)
    }
  }
  return bits
}
