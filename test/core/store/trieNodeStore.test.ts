/**
 * The trie node store of a restored chain: nodes the store read at start, and the rest read by
 * need, a segment at a time, so that every stored node is found either way.
 */
import { expect, test } from 'vitest'
import { TrieNodeStore } from '../../../src/core/store/trieNodeStore.ts'
import { bytesToHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { NodeFilter } from '../../../src/core/store/nodeFilter.ts'
import { packNodes } from '../../../src/core/store/packing.ts'
import type { LaterNodes } from '../../../src/core/store/store.ts'

const key = (n: number) => n.toString(16).padStart(64, '0')
const value = (n: number) => new Uint8Array([n, n + 1, n + 2])

/** A store's later nodes: segments of packed nodes, each with its filter, counting reads. */
function segments(...contents: Map<string, Uint8Array>[]) {
  const reads: string[] = []
  let fail = false
  const all = contents.map((nodes, i) => ({ id: `n${i}`, nodes: packNodes(nodes), filter: NodeFilter.of([packNodes(nodes)]) }))
  const later: LaterNodes = {
    async read(key) {
      if (fail) throw new Error('the disk said no')
      const wanted = all.filter((segment) => segment.filter.mayHold(key))
      reads.push(...wanted.map((segment) => segment.id))
      return wanted
    },
  }
  return { later, reads, failing: (value: boolean) => (fail = value) }
}

test('a read that misses the nodes read at start reads the segments that may hold its node, not the others', async () => {
  const { later, reads } = segments(new Map([[key(2), value(2)]]), new Map([[key(3), value(3)], ['preimage:abc', value(9)]]))
  const nodes = new TrieNodeStore([], [packNodes(new Map([[key(1), value(1)]]))], later)
  expect(await nodes.get(key(1))).toEqual(value(1))
  expect(reads).toEqual([])
  expect(await nodes.get(key(2))).toEqual(value(2))
  expect(reads).toEqual(['n0'])
  expect(await nodes.get('preimage:abc')).toEqual(value(9))
  expect(reads).toEqual(['n0', 'n1'])
  expect(await nodes.get(key(4))).toBeUndefined()
  expect(nodes.size).toBe(4)
  // A node already stored is not stored again.
  await nodes.put(key(2), value(2))
  expect(nodes.drainNew().size).toBe(0)
})

test('a filter lets through the keys of its segment and very few others', () => {
  const keys = Array.from({ length: 2000 }, (_, i) => key(i * 7919 + 1).replace(/^0+/, (zeros) => 'a'.repeat(zeros.length)))
  const filter = NodeFilter.of([packNodes(new Map(keys.map((k) => [k, value(1)])))])
  expect(keys.every((k) => filter.mayHold(k))).toBe(true)
  const others = Array.from({ length: 10_000 }, (_, i) => bytesToHex(keccak_256(new Uint8Array([i >> 8, i & 255]))).slice(2))
  expect(others.filter((k) => filter.mayHold(k)).length).toBeLessThan(100)
})

test('a failed read is tried again; a store cleared meanwhile keeps none of the nodes', async () => {
  const { later, failing } = segments(new Map([[key(2), value(2)]]))
  failing(true)
  const nodes = new TrieNodeStore([], [], later)
  await expect(nodes.get(key(2))).rejects.toThrow('the disk said no')
  failing(false)
  expect(await nodes.get(key(2))).toEqual(value(2))

  let release!: () => void
  const slow: LaterNodes = {
    read: () => new Promise((resolve) => (release = () => resolve([{ id: 'n0', nodes: packNodes(new Map([[key(2), value(2)]])) }]))),
  }
  const cleared = new TrieNodeStore([], [], slow)
  const reading = cleared.get(key(2))
  cleared.clear()
  release()
  expect(await reading).toBeUndefined()
  expect(await cleared.get(key(2))).toBeUndefined()
})
