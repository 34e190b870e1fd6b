/**
 * A Merkle-Patricia trie path: a key as nibbles, and the compact (hex-prefix) encoding leaves and
 * extensions keep it in (yellow paper, appendix C). Shared by the tries the node builds itself
 * (orderedTrie.ts, trieUpdate.ts).
 */

export function nibbles(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length * 2)
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i] >> 4
    out[2 * i + 1] = key[i] & 0x0f
  }
  return out
}

/** The compact encoding of a leaf's or an extension's path. */
export function hexPrefix(path: Uint8Array, leaf: boolean): Uint8Array {
  const odd = path.length % 2
  const out = new Uint8Array(Math.floor(path.length / 2) + 1)
  const flag = (leaf ? 2 : 0) + odd
  out[0] = (flag << 4) | (odd ? path[0] : 0)
  for (let i = odd, j = 1; i < path.length; i += 2, j++) out[j] = (path[i] << 4) | path[i + 1]
  return out
}

/** A compact path back to its nibbles, and whether it is a leaf's. */
export function fromHexPrefix(encoded: Uint8Array): { path: Uint8Array; leaf: boolean } {
  const flag = encoded[0] >> 4
  if (flag > 3) throw new Error(`a trie path's flag nibble is ${flag}, not 0 to 3`)
  const odd = flag & 1
  const path = new Uint8Array((encoded.length - 1) * 2 + odd)
  let at = 0
  if (odd) path[at++] = encoded[0] & 0x0f
  for (let i = 1; i < encoded.length; i++) {
    path[at++] = encoded[i] >> 4
    path[at++] = encoded[i] & 0x0f
  }
  return { path, leaf: flag >= 2 }
}

/** How many nibbles `a` from `aFrom` and `b` from `bFrom` have in common. */
export function sharedLength(a: Uint8Array, aFrom: number, b: Uint8Array, bFrom: number): number {
  let shared = 0
  while (aFrom + shared < a.length && bFrom + shared < b.length && a[aFrom + shared] === b[bFrom + shared]) shared++
  return shared
}

export function concatPaths(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}
