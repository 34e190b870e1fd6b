/** pagenode's bytesToHex writes what ethereumjs' does, at every length either way of its two paths. */
import { bytesToHex as ethereumjsBytesToHex } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { bytesToHex } from '../../src/core/hexText.ts'

test('the same text as ethereumjs for 0 to 600 random bytes, and for 24 KB of code', () => {
  for (let length = 0; length <= 600; length++) {
    const bytes = crypto.getRandomValues(new Uint8Array(length))
    expect(bytesToHex(bytes)).toBe(ethereumjsBytesToHex(bytes))
  }
  const code = crypto.getRandomValues(new Uint8Array(24_576))
  expect(bytesToHex(code)).toBe(ethereumjsBytesToHex(code))
})

test('every byte value, and a view into a larger buffer', () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i)
  expect(bytesToHex(all)).toBe(ethereumjsBytesToHex(all))
  expect(bytesToHex(all.subarray(250, 253))).toBe('0xfafbfc')
  expect(bytesToHex(new Uint8Array())).toBe('0x')
})
