/**
 * Imported first by the node worker: it replaces `Uint8Array.fromHex` in this worker's realm
 * (the node's alone; no page code runs here) with a JavaScript loop of the same behaviour.
 *
 * Why: @noble/hashes decodes hex through that builtin when the browser has it (Chromium since
 * V8 14), and ethereumjs turns every bigint it serializes into bytes through a hex string
 * (`bigIntToBytes`): tens of calls a transaction. On short strings the builtin took ~1.1 µs a
 * call in Chromium 156 against ~0.2 µs for a loop, and it was the worker's largest single
 * function under 50 transfers in flight (~5% of its time; ~1.5% with the loop, bench/profile.ts).
 *
 * Replaced, not removed: noble reads whether the builtin exists once, when its module is
 * evaluated, which a bundle may do before this module (a shared chunk is imported first).
 */

const DIGITS = new Int8Array(128).fill(-1)
for (let i = 0; i < 10; i++) DIGITS[48 + i] = i
for (let i = 0; i < 6; i++) DIGITS[65 + i] = DIGITS[97 + i] = 10 + i

const digit = (code: number) => (code < 128 ? DIGITS[code] : -1)

/** `Uint8Array.fromHex`: a string of hex digit pairs, either case; else TypeError or SyntaxError, as the builtin. */
export function fromHex(hex: string): Uint8Array {
  if (typeof hex !== 'string') throw new TypeError('Uint8Array.fromHex expects a string')
  if (hex.length % 2 !== 0) throw new SyntaxError('Input string must contain hex characters in even length')
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) {
    const high = digit(hex.charCodeAt(2 * i))
    const low = digit(hex.charCodeAt(2 * i + 1))
    if (high < 0 || low < 0) throw new SyntaxError('Input string must only contain hex characters')
    bytes[i] = (high << 4) | low
  }
  return bytes
}

const typedArray = Uint8Array as { fromHex?: (hex: string) => Uint8Array }
if (typeof typedArray.fromHex === 'function') typedArray.fromHex = fromHex
