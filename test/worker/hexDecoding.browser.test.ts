/**
 * The node worker's `Uint8Array.fromHex` (src/worker/hexDecoding.ts) answers as the browser's
 * own: the same bytes for every input, and the same kind of error where it refuses one.
 */
import { expect, test } from 'vitest'

type FromHex = (hex: unknown) => Uint8Array
const builtin = (Uint8Array as unknown as { fromHex?: FromHex }).fromHex

const outcome = (fromHex: FromHex, input: unknown) => {
  try {
    return { bytes: Array.from(fromHex(input)) }
  } catch (error) {
    return { error: (error as Error).constructor.name }
  }
}

test('decodes and refuses exactly what the builtin does, and takes its place in the realm', async () => {
  expect(builtin, 'this Chromium has Uint8Array.fromHex').toBeTypeOf('function')
  const { fromHex } = await import('../../src/worker/hexDecoding.ts')
  expect((Uint8Array as unknown as { fromHex: FromHex }).fromHex).toBe(fromHex)

  const random = (length: number) => Array.from({ length }, () => '0123456789abcdefABCDEF'[Math.floor(Math.random() * 22)]).join('')
  const inputs: unknown[] = ['', '00', 'ff', 'FF', 'aB09', '0x00', 'g0', '0g', 'é0', '0', '000', ' 00', '00 ', '\u0660\u0660', 'a\u0000', 42, undefined, null]
  for (let length = 0; length < 80; length += 2) inputs.push(random(length), random(length + 1))
  for (const input of inputs) expect(outcome(fromHex as FromHex, input), JSON.stringify(input)).toEqual(outcome(builtin!.bind(Uint8Array), input))
})
