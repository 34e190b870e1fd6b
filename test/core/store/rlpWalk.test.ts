/** Walking RLP without decoding it: an item ends where its encoding does, for every prefix kind; a truncated item is refused. */
import { RLP } from '@ethereumjs/rlp'
import { expect, test } from 'vitest'
import { rlpItem } from '../../../src/core/store/rlpWalk.ts'

test('rlpItem ends every kind of item where its encoding ends, and refuses a truncated one', () => {
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
    expect(rlpItem(bytes, at).end).toBe(bytes.length)
    expect(rlpItem(bytes, at).list).toBe(Array.isArray(item))
    if (encoded.length > 1) expect(() => rlpItem(bytes.subarray(0, bytes.length - 1), at)).toThrow('RLP ends early')
  }
  expect(() => rlpItem(new Uint8Array(0), 0)).toThrow('RLP ends early')
})
