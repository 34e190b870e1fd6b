/**
 * Walking RLP without decoding it: an item's end, found without making an item, is where
 * rlpItem says it ends, for every prefix kind; a truncated item is refused.
 */
import { RLP } from '@ethereumjs/rlp'
import { expect, test } from 'vitest'
import { rlpItem, rlpItemEnd } from '../../../src/core/store/rlpWalk.ts'

test('rlpItemEnd ends every kind of item where rlpItem does, and refuses a truncated one', () => {
  const items = [
    Uint8Array.of(0x05), // a single byte
    new Uint8Array(0), // the empty string
    new Uint8Array(32).fill(7), // a hash
    new Uint8Array(300).fill(1), // a long string (two length bytes)
    [], // the empty list
    [new Uint8Array(32), new Uint8Array(0)], // a short list
    Array.from({ length: 17 }, () => new Uint8Array(32)), // a branch: a long list
  ]
  for (const item of items) {
    const encoded = RLP.encode(item)
    // Behind another item, as inside a list.
    const bytes = new Uint8Array([...RLP.encode(Uint8Array.of(1, 2)), ...encoded])
    const at = 3
    expect(rlpItemEnd(bytes, at)).toBe(rlpItem(bytes, at).end)
    expect(rlpItemEnd(bytes, at)).toBe(bytes.length)
    if (encoded.length > 1) expect(() => rlpItemEnd(bytes.subarray(0, bytes.length - 1), at)).toThrow('RLP ends early')
  }
  expect(() => rlpItemEnd(new Uint8Array(0), 0)).toThrow('RLP ends early')
})
