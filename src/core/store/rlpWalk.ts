/**
 * Reads the shape of RLP without decoding it: where an item's payload starts and ends, and where
 * each element of a list is. Loading a stored chain only needs a few fields of each block record
 * (its number, its transactions' hashes); walking to them allocates nothing, where a full
 * `RLP.decode` allocates an array and a view per item.
 */

/** An item: it begins at `offset` (its prefix), its payload is bytes[start, end), and it ends at `end`. */
export interface RlpItem {
  list: boolean
  offset: number
  start: number
  end: number
}

export function rlpItem(bytes: Uint8Array, offset: number): RlpItem {
  const prefix = bytes[offset]
  if (prefix === undefined) throw new Error('RLP ends early')
  if (prefix < 0x80) return { list: false, offset, start: offset, end: offset + 1 }
  if (prefix <= 0xb7) return item(bytes, false, offset, offset + 1, prefix - 0x80)
  if (prefix < 0xc0) return long(bytes, false, offset, prefix - 0xb7)
  if (prefix <= 0xf7) return item(bytes, true, offset, offset + 1, prefix - 0xc0)
  return long(bytes, true, offset, prefix - 0xf7)
}

function long(bytes: Uint8Array, list: boolean, offset: number, lengthOfLength: number): RlpItem {
  return item(bytes, list, offset, offset + 1 + lengthOfLength, longLength(bytes, offset, lengthOfLength))
}

/** The payload length a long item's prefix at `offset` gives in its next `lengthOfLength` bytes. */
function longLength(bytes: Uint8Array, offset: number, lengthOfLength: number): number {
  let length = 0
  for (let i = 1; i <= lengthOfLength; i++) length = length * 256 + bytes[offset + i]
  return length
}

function item(bytes: Uint8Array, list: boolean, offset: number, start: number, length: number): RlpItem {
  const end = start + length
  if (end > bytes.length) throw new Error('RLP ends early')
  return { list, offset, start, end }
}

/** The elements of the list `list`, in order. */
export function rlpElements(bytes: Uint8Array, list: RlpItem): RlpItem[] {
  if (!list.list) throw new Error('RLP: a list was expected')
  const elements: RlpItem[] = []
  for (let offset = list.start; offset < list.end; ) {
    const element = rlpItem(bytes, offset)
    elements.push(element)
    offset = element.end
  }
  return elements
}

/** The element at `index` of `list`, skipping the ones before it without reading them. */
export function rlpElement(bytes: Uint8Array, list: RlpItem, index: number): RlpItem | undefined {
  let offset = list.start
  for (let i = 0; offset < list.end; i++) {
    const element = rlpItem(bytes, offset)
    if (i === index) return element
    offset = element.end
  }
  return undefined
}

export function payload(bytes: Uint8Array, item: RlpItem): Uint8Array {
  return bytes.subarray(item.start, item.end)
}

/** The whole item, prefix included (its own RLP). */
export function encoded(bytes: Uint8Array, item: RlpItem): Uint8Array {
  return bytes.subarray(item.offset, item.end)
}

/** A big-endian unsigned integer payload (RLP drops leading zeros). */
export function payloadBigInt(bytes: Uint8Array, item: RlpItem): bigint {
  let value = 0n
  for (let i = item.start; i < item.end; i++) value = (value << 8n) | BigInt(bytes[i])
  return value
}

export function payloadNumber(bytes: Uint8Array, item: RlpItem): number {
  let value = 0
  for (let i = item.start; i < item.end; i++) value = value * 256 + bytes[i]
  return value
}
