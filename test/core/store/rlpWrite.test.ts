import { RLP } from '@ethereumjs/rlp'
import { expect, test } from 'vitest'
import { rlpEncode, type RlpValue } from '../../../src/core/store/rlpWrite.ts'

/** A deterministic pseudo-random generator, so that a failure is reproducible. */
function generator(seed: number) {
  let state = seed
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31
    return state % below
  }
}

function randomValue(next: (below: number) => number, depth: number): RlpValue {
  if (depth > 0 && next(3) === 0) return Array.from({ length: next(8) }, () => randomValue(next, depth - 1))
  // Lengths around each boundary: 0, 1 (below and above 0x80), 55/56, 255/256, and long ones.
  const length = [0, 1, 1, 2, 55, 56, 57, 255, 256, 300, 70_000][next(11)]
  return Uint8Array.from({ length }, () => next(256))
}

test('encodes exactly as @ethereumjs/rlp does, at every length boundary and nesting', () => {
  const next = generator(7)
  for (let i = 0; i < 500; i++) {
    const value = randomValue(next, 4)
    expect(Buffer.from(rlpEncode(value)).equals(Buffer.from(RLP.encode(value as never))), `case ${i}`).toBe(true)
  }
})

test('single bytes below 0x80 are themselves; empty strings and lists are 0x80 and 0xc0', () => {
  expect([...rlpEncode(Uint8Array.of(0x7f))]).toEqual([0x7f])
  expect([...rlpEncode(Uint8Array.of(0x80))]).toEqual([0x81, 0x80])
  expect([...rlpEncode(new Uint8Array())]).toEqual([0x80])
  expect([...rlpEncode([])]).toEqual([0xc0])
  expect([...rlpEncode([[], [[]]])]).toEqual([0xc3, 0xc0, 0xc1, 0xc0])
  // A list whose payload needs two length bytes (0x0100 = 256).
  const long = rlpEncode([new Uint8Array(254)])
  expect([...long.subarray(0, 5)]).toEqual([0xf9, 0x01, 0x00, 0xb8, 0xfe])
})
