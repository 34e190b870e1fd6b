import { concatBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'

/**
 * The tree over a batch's L2→L1 logs (era's MiniMerkleTree): 2^14 leaves since protocol v23,
 * unused leaves the hash of 88 zero bytes, nodes keccak256(left ‖ right).
 */
export const LOGS_TREE_DEPTH = 14
export const LOGS_TREE_CAPACITY = 2 ** LOGS_TREE_DEPTH

const hashPair = (left: Uint8Array, right: Uint8Array) => keccak_256(concatBytes(left, right))

/** Roots of empty subtrees of depth 0 (an empty leaf) to LOGS_TREE_DEPTH (an empty tree). */
export const EMPTY_SUBTREE_ROOTS: readonly Uint8Array[] = (() => {
  const roots = [keccak_256(new Uint8Array(88))]
  for (let d = 1; d <= LOGS_TREE_DEPTH; d++) roots.push(hashPair(roots[d - 1], roots[d - 1]))
  return roots
})()

/**
 * Every level of the tree that holds a non-empty node, bottom up; a level stops where only empty
 * subtrees follow, so the work is proportional to the leaves, not to 2^14.
 */
function levels(leaves: readonly Uint8Array[]): Uint8Array[][] {
  if (leaves.length > LOGS_TREE_CAPACITY) {
    throw new RangeError(`a batch holds at most ${LOGS_TREE_CAPACITY} L2→L1 logs, this one has ${leaves.length}`)
  }
  const all = [leaves.slice()]
  for (let depth = 0; depth < LOGS_TREE_DEPTH; depth++) {
    const level = all[depth]
    const next: Uint8Array[] = []
    for (let i = 0; i < level.length; i += 2) next.push(hashPair(level[i], level[i + 1] ?? EMPTY_SUBTREE_ROOTS[depth]))
    all.push(next)
  }
  return all
}

export function logsTreeRoot(leaves: readonly Uint8Array[]): Uint8Array {
  return leaves.length === 0 ? EMPTY_SUBTREE_ROOTS[LOGS_TREE_DEPTH] : levels(leaves)[LOGS_TREE_DEPTH][0]
}

/** The root and the LOGS_TREE_DEPTH siblings (bottom up) that lead leaf `index` to it. */
export function logsTreePath(leaves: readonly Uint8Array[], index: number): { root: Uint8Array; path: Uint8Array[] } {
  if (!(index >= 0 && index < leaves.length)) throw new RangeError(`no leaf ${index} among ${leaves.length}`)
  const all = levels(leaves)
  const path: Uint8Array[] = []
  for (let depth = 0, i = index; depth < LOGS_TREE_DEPTH; depth++, i >>= 1) {
    path.push(all[depth][i ^ 1] ?? EMPTY_SUBTREE_ROOTS[depth])
  }
  return { root: all[LOGS_TREE_DEPTH][0], path }
}

