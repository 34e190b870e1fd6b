/**
 * The trie node store of a restored chain: nodes the store read at start, and the rest read on
 * the first read that misses (or when asked), so that every stored node is found either way.
 */
import { expect, test } from 'vitest'
import { TrieNodeStore } from '../../src/core/exec/trieNodeStore.ts'
import { packNodes } from '../../src/core/store/packing.ts'

const key = (n: number) => n.toString(16).padStart(64, '0')
const value = (n: number) => new Uint8Array([n, n + 1, n + 2])

test('a read that misses the nodes read at start waits for the rest, which are read once', async () => {
  let reads = 0
  const later = async () => {
    reads++
    return [packNodes(new Map([[key(2), value(2)]]))]
  }
  const nodes = new TrieNodeStore([], [packNodes(new Map([[key(1), value(1)]]))], later)
  expect(await nodes.get(key(1))).toEqual(value(1))
  expect(reads).toBe(0)
  expect(await nodes.get(key(2))).toEqual(value(2))
  expect(await nodes.get(key(3))).toBeUndefined()
  await nodes.loadLater()
  expect(reads).toBe(1)
  // A node already stored is not stored again.
  await nodes.put(key(2), value(2))
  expect(nodes.drainNew().size).toBe(0)
})

test('a failed read of the rest is tried again; a store cleared meanwhile keeps none of them', async () => {
  let fail = true
  const nodes = new TrieNodeStore([], [], async () => {
    if (fail) throw new Error('the disk said no')
    return [packNodes(new Map([[key(2), value(2)]]))]
  })
  await expect(nodes.get(key(2))).rejects.toThrow('the disk said no')
  fail = false
  expect(await nodes.get(key(2))).toEqual(value(2))

  let release!: () => void
  const cleared = new TrieNodeStore([], [], () => new Promise((resolve) => (release = () => resolve([packNodes(new Map([[key(2), value(2)]]))]))))
  const loading = cleared.loadLater()
  cleared.clear()
  release()
  await loading
  expect(await cleared.get(key(2))).toBeUndefined()
})
