/**
 * RLP encoding into one buffer: the lengths first, then every byte written once. A block record
 * is encoded on every commit, and @ethereumjs/rlp's `encode` concatenates each list's encoded
 * items into a new array at every level (a block record: ~40 arrays and their copies), a large
 * share of the chain writer's work per block in a profile. The output is the same byte for byte.
 */

/** What RLP encodes: a byte string, or a list of such values. */
export type RlpValue = Uint8Array | readonly RlpValue[]

/** `allocate`: where the encoding goes, given its length (default: an array of its own). */
export function rlpEncode(value: RlpValue, allocate: (length: number) => Uint8Array = (length) => new Uint8Array(length)): Uint8Array {
  // The payload length of every list, in the order the writer meets them (depth first).
  const listLengths: number[] = []
  const out = allocate(measure(value, listLengths))
  write(value, out, 0, listLengths, { next: 0 })
  return out
}

/** The encoded length of `value`; pushes each list's payload length, parents before children. */
function measure(value: RlpValue, listLengths: number[]): number {
  if (value instanceof Uint8Array) {
    if (value.length === 1 && value[0] < 0x80) return 1
    return headerLength(value.length) + value.length
  }
  const slot = listLengths.length
  listLengths.push(0)
  let payload = 0
  for (const item of value) payload += measure(item, listLengths)
  listLengths[slot] = payload
  return headerLength(payload) + payload
}

function write(value: RlpValue, out: Uint8Array, at: number, listLengths: number[], cursor: { next: number }): number {
  if (value instanceof Uint8Array) {
    if (value.length === 1 && value[0] < 0x80) {
      out[at] = value[0]
      return at + 1
    }
    at = writeHeader(out, at, value.length, 0x80)
    out.set(value, at)
    return at + value.length
  }
  at = writeHeader(out, at, listLengths[cursor.next++], 0xc0)
  for (const item of value) at = write(item, out, at, listLengths, cursor)
  return at
}

function headerLength(payload: number): number {
  return payload < 56 ? 1 : 1 + bytesOf(payload)
}

function bytesOf(length: number): number {
  let count = 0
  for (let n = length; n > 0; n = Math.floor(n / 256)) count++
  return count
}

/** The prefix of a string (0x80) or list (0xc0) whose payload is `payload` bytes long. */
function writeHeader(out: Uint8Array, at: number, payload: number, offset: number): number {
  if (payload < 56) {
    out[at] = offset + payload
    return at + 1
  }
  const count = bytesOf(payload)
  out[at] = offset + 55 + count
  for (let i = count, n = payload; i > 0; i--, n = Math.floor(n / 256)) out[at + i] = n & 0xff
  return at + 1 + count
}
