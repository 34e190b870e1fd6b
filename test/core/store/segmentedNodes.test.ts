/**
 * The IndexedDB store's trie nodes as the node reads them: the records since the last merge from
 * memory, then the segments whose key filter (and whose merge's) may hold the key, newest first, a
 * few kept read.
 */
import { bytesToHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { expect, test, vi } from 'vitest'
import { MERGE_FILTER, NodeFilter, PIECE_FILTER } from '../../../src/core/store/nodeFilter.ts'
import { packNodes } from '../../../src/core/store/packing.ts'
import { SegmentedNodes, type NodeMerge } from '../../../src/core/store/segmentedNodes.ts'
import { layout7FilterOf } from '../../support/legacyNodeFilter.ts'

const key = (n: number) => bytesToHex(keccak_256(new Uint8Array([n >> 8, n & 255]))).slice(2)
const value = (n: number) => new Uint8Array([n & 255, 1, 2])

/** A merge of these pieces (id, packed nodes), with its filters as the IndexedDB store makes them. */
function mergeOf(pieces: [string, Uint8Array][]): NodeMerge {
  return {
    pieces: pieces.map(([id, packed]) => ({ id, filter: NodeFilter.of([packed], PIECE_FILTER) })),
    filter: NodeFilter.of(pieces.map(([, packed]) => packed), MERGE_FILTER),
  }
}

function segments(count: number) {
  const stored = new Map<string, Uint8Array>()
  const store = (id: string, packed: Uint8Array) => stored.set(id, packed)
  const reads: string[] = []
  let fail = false
  // A cache of ~4 of these segments.
  const nodes = new SegmentedNodes(async (id) => {
    if (fail) throw new Error('the disk said no')
    reads.push(id)
    return stored.get(id)!
  }, 4 * 90)
  for (let s = 0; s < count; s++) {
    const packed = packNodes(new Map([[key(s), value(s)], [`preimage:${s}`, value(s)]]))
    stored.set(`n${s}`, packed)
    nodes.addMerge(mergeOf([[`n${s}`, packed]]))
  }
  return { nodes, reads, store, failing: (on: boolean) => (fail = on) }
}

test('a read reads the segments that may hold its key, not the others, and keeps the last few', async () => {
  const { nodes, reads } = segments(10)
  expect(await nodes.get(key(3))).toEqual(value(3))
  expect(reads).toEqual(['n3'])
  expect(await nodes.get(key(3))).toEqual(value(3))
  expect(await nodes.get('preimage:7')).toEqual(value(7))
  expect(reads).toEqual(['n3', 'n7'])
  expect(await nodes.get(key(99))).toBeUndefined()
  // Four stay read: after five others, n3 is read again.
  for (const s of [0, 1, 2, 4, 5]) await nodes.get(key(s))
  await nodes.get(key(3))
  expect(reads.filter((id) => id === 'n3')).toHaveLength(2)
})

test('records since the last merge are read from memory; a merge makes them a segment', async () => {
  const { nodes, reads, store } = segments(0)
  const first = packNodes(new Map([[key(1), value(1)]]))
  nodes.addRecord(1, first)
  nodes.addRecord(2, packNodes(new Map([[key(2), value(2)]])))
  expect(await nodes.get(key(1))).toEqual(value(1))
  expect(reads).toEqual([])
  // Record 1 merged into segment m1 (and deleted from the store): read from there now.
  store('m1', first)
  nodes.addMerge(mergeOf([['m1', first]]), 1)
  expect(await nodes.get(key(2))).toEqual(value(2))
  expect(reads).toEqual([])
  expect(await nodes.get(key(1))).toEqual(value(1))
  expect(reads).toEqual(['m1'])
})

test('a failed segment read is tried again by the next read', async () => {
  const { nodes, failing } = segments(2)
  failing(true)
  await expect(nodes.get(key(1))).rejects.toThrow('the disk said no')
  failing(false)
  expect(await nodes.get(key(1))).toEqual(value(1))
})

test("a piece's filter lets through the keys of its segment and very few others, a merge's a few more", () => {
  const keys = Array.from({ length: 2000 }, (_, i) => key(i))
  const others = Array.from({ length: 10_000 }, (_, i) => bytesToHex(keccak_256(new Uint8Array([9, i >> 8, i & 255]))).slice(2))
  const packed = [packNodes(new Map(keys.map((k) => [k, value(1)])))]
  // Each let-through of a piece's filter is a segment read in vain: ~1 in 2,000, so ~5 in 10,000.
  const piece = NodeFilter.of(packed, PIECE_FILTER)
  expect(keys.every((k) => piece.mayHold(k))).toBe(true)
  expect(others.filter((k) => piece.mayHold(k)).length).toBeLessThan(15)
  // A merge's costs its pieces' tests only: ~1 in 120, so ~80 in 10,000.
  const merge = NodeFilter.of(packed, MERGE_FILTER)
  expect(keys.every((k) => merge.mayHold(k))).toBe(true)
  expect(others.filter((k) => merge.mayHold(k)).length).toBeLessThan(150)
  expect(merge.bits.length).toBeLessThan(piece.bits.length)
})

test("a read tests the pieces' filters of the merges whose filter may hold its key only, and reads the one piece that holds it", async () => {
  // 60 merges of 10 pieces of 30 keys: key(merge * 1000 + piece * 30 + k).
  const stored = new Map<string, Uint8Array>()
  const reads: string[] = []
  const nodes = new SegmentedNodes(async (id) => (reads.push(id), stored.get(id)!))
  for (let m = 0; m < 60; m++) {
    const pieces = Array.from({ length: 10 }, (_, p): [string, Uint8Array] => [
      `n${m}.${p}`,
      packNodes(new Map(Array.from({ length: 30 }, (_, k) => [key(m * 1000 + p * 30 + k), value(k)]))),
    ])
    for (const [id, packed] of pieces) stored.set(id, packed)
    nodes.addMerge(mergeOf(pieces))
  }
  const tests = vi.spyOn(NodeFilter.prototype, 'mayHoldProbes')
  // In the oldest merge's first piece: 60 merge filters, that merge's 10 pieces, and a few more of
  // the merges let through in vain (600 tests and more without merge filters).
  expect(await nodes.get(key(5))).toEqual(value(5))
  expect(tests.mock.calls.length).toBeLessThan(60 + 10 + 20)
  expect(reads).toEqual(['n0.0'])
  tests.mockRestore()
})

test('a merge stored without a filter of its own has each of its pieces tested', async () => {
  const packed = [0, 1, 2].map((n) => packNodes(new Map([[key(n), value(n)]])))
  const nodes = new SegmentedNodes(async (id) => packed[Number(id.slice(1))])
  nodes.addMerge({ pieces: packed.map((p, n) => ({ id: `n${n}`, filter: NodeFilter.of([p], PIECE_FILTER) })) })
  for (const n of [0, 1, 2]) expect(await nodes.get(key(n))).toEqual(value(n))
  expect(await nodes.get(key(3))).toBeUndefined()
})

test('a filter stored before probe counts (4 probes, a power-of-two size) is read as it was written', () => {
  const keys = Array.from({ length: 500 }, (_, i) => key(i))
  const filter = new NodeFilter(layout7FilterOf(keys))
  expect(keys.every((k) => filter.mayHold(k))).toBe(true)
  const others = Array.from({ length: 10_000 }, (_, i) => bytesToHex(keccak_256(new Uint8Array([9, i >> 8, i & 255]))).slice(2))
  expect(others.filter((k) => filter.mayHold(k)).length).toBeLessThan(100)
})

test('segments a load found are indexed after it: a read waits for the index, a failed index read is tried again, and one merged meanwhile is kept once', async () => {
  const packed = (n: number) => packNodes(new Map([[key(n), value(n)]]))
  const stored = new Map([0, 1, 2].map((n) => [`n${n}`, packed(n)]))
  const nodes = new SegmentedNodes(async (id) => stored.get(id)!)
  let indexReads = 0
  let failNext = true
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  nodes.indexLater(async () => {
    indexReads++
    if (failNext) {
      failNext = false
      throw new Error('the disk said no')
    }
    await gate
    return [0, 1].map((n) => mergeOf([[`n${n}`, stored.get(`n${n}`)!]]))
  })
  // The read begun at once failed: the next read tries again, and waits for it.
  await Promise.resolve()
  const read = nodes.get(key(0))
  // A merge after the load adds a newer segment before the index is in.
  nodes.addMerge(mergeOf([['n2', stored.get('n2')!]]))
  let done = false
  void read.then(() => (done = true))
  await new Promise((resolve) => setTimeout(resolve, 10))
  expect(done).toBe(false)
  release()
  expect(await read).toEqual(value(0))
  expect(await nodes.get(key(2))).toEqual(value(2))
  expect(indexReads).toBe(2)
  // Indexed once: no more index reads, and the absent key is absent.
  expect(await nodes.get(key(9))).toBeUndefined()
  expect(indexReads).toBe(2)
})
