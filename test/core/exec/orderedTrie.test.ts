import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, KECCAK256_RLP } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { orderedTrieRoot } from '../../../src/core/exec/orderedTrie.ts'

/** What a block's transactions and receipts roots were computed with before: one MPT.put per item. */
async function mptRoot(values: Uint8Array[]): Promise<string> {
  const trie = new MerklePatriciaTrie()
  for (const [i, value] of values.entries()) await trie.put(RLP.encode(i), value)
  return bytesToHex(trie.root())
}

/** Deterministic bytes of varied lengths: short values make nodes small enough to be embedded. */
function values(count: number, maxLength: number): Uint8Array[] {
  let seed = count * 7919 + maxLength
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
  return Array.from({ length: count }, () => Uint8Array.from({ length: 1 + (next() % maxLength) }, () => next() % 256))
}

describe('orderedTrieRoot', () => {
  it('is the empty trie root for no values', () => {
    expect(orderedTrieRoot([])).toEqual(KECCAK256_RLP)
  })

  it.each([1, 2, 3, 15, 16, 17, 127, 128, 129, 255, 256, 257, 1000, 2100])('matches MerklePatriciaTrie for %i values', async (count) => {
    for (const maxLength of [3, 40, 300]) {
      const list = values(count, maxLength)
      expect(bytesToHex(orderedTrieRoot(list))).toBe(await mptRoot(list))
    }
  })
})
