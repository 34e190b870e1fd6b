import { RLP, type Input } from '@ethereumjs/rlp'
import { KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from './fastCrypto.ts'
import { hexPrefix, nibbles } from './triePath.ts'

/**
 * Root of the Merkle-Patricia trie holding `values[i]` under the key RLP(i): a block's
 * transactions and receipts tries. The same root as putting each pair into a MerklePatriciaTrie,
 * built the way geth's StackTrie builds it: from the sorted keys, each node encoded and hashed
 * once. MPT.put re-hashes the whole path on every insertion and its constructor sets up a debug
 * logger: bench measured 0.55 s of the 1.0 s that producing a 2,000-transaction block took in
 * those two tries, and ~0.2 ms of every one-transaction block.
 */
export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  if (values.length === 0) return KECCAK256_RLP
  const items = values.map((value, i): Item => ({ path: nibbles(RLP.encode(i)), value }))
  items.sort((a, b) => comparePaths(a.path, b.path))
  return keccak256(RLP.encode(node(items, 0, items.length, 0)))
}

interface Item {
  path: Uint8Array
  value: Uint8Array
}

/** The raw node (an RLP list) for `items[lo, hi)`, which share their first `depth` nibbles. */
function node(items: Item[], lo: number, hi: number, depth: number): Input[] {
  const first = items[lo]
  if (hi - lo === 1) return [hexPrefix(first.path.subarray(depth), true), first.value]

  // Sorted paths: what the first and the last share, every path between them shares too.
  const last = items[hi - 1].path
  let shared = 0
  while (depth + shared < first.path.length && depth + shared < last.length && first.path[depth + shared] === last[depth + shared]) shared++
  if (shared > 0) {
    return [hexPrefix(first.path.subarray(depth, depth + shared), false), reference(node(items, lo, hi, depth + shared))]
  }

  const branch: Input[] = Array.from({ length: 17 }, () => new Uint8Array(0))
  let i = lo
  // A path that ends here sorts first; its value is the branch's own.
  if (first.path.length === depth) branch[16] = items[i++].value
  while (i < hi) {
    const nibble = items[i].path[depth]
    let end = i + 1
    while (end < hi && items[end].path[depth] === nibble) end++
    branch[nibble] = reference(node(items, i, end, depth + 1))
    i = end
  }
  return branch
}

/** How a parent refers to a child: embedded when its encoding is under 32 bytes, else by hash. */
function reference(raw: Input[]): Input {
  const encoded = RLP.encode(raw)
  return encoded.length < 32 ? raw : keccak256(encoded)
}

function comparePaths(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}
