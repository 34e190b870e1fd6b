/**
 * The trie node store: nodes not stored yet and a bounded cache of hot ones in memory, the rest
 * read from the store's node source by need (issue 21), so that every stored node is found
 * whatever the cache holds.
 */
import { expect, test } from 'vitest'
import { TrieNodeStore } from '../../../src/core/store/trieNodeStore.ts'
import type { NodeSource } from '../../../src/core/store/store.ts'

const key = (n: number) => n.toString(16).padStart(64, '0')
const value = (n: number) => new Uint8Array([n & 255, (n >> 8) & 255, 7])

/** A store's node source over a map, counting reads. */
function source(entries: Map<string, Uint8Array> = new Map()) {
  const reads: string[] = []
  let fail = false
  const nodes: NodeSource = {
    async get(k) {
      if (fail) throw new Error('the disk said no')
      reads.push(k)
      return entries.get(k)
    },
  }
  return { nodes, entries, reads, failing: (on: boolean) => (fail = on) }
}

/** What a chain writer does with a commit that resolves: the store has them, then the node is told. */
function commit(nodes: TrieNodeStore, store: Map<string, Uint8Array>) {
  const drained = nodes.drainNew()
  for (const [k, v] of drained) store.set(k, v)
  nodes.stored(drained)
}

test('new nodes are read from memory until stored, then from the cache or the store; memory stays within the cache', async () => {
  const { nodes: src, entries, reads } = source()
  const nodes = new TrieNodeStore(src, 100)
  for (let i = 0; i < 1000; i++) await nodes.put(key(i), value(i))
  expect(await nodes.get(key(5))).toEqual(value(5))
  const drained = nodes.drainNew()
  expect(drained.size).toBe(1000)
  // Drained, the commit running: still readable, without the store.
  expect(await nodes.get(key(6))).toEqual(value(6))
  expect(reads).toEqual([])
  for (const [k, v] of drained) entries.set(k, v)
  nodes.stored(drained)
  expect(nodes.size).toBeLessThanOrEqual(100)
  // The last ones stored are cached; the first ones are read from the store, then cached.
  expect(await nodes.get(key(999))).toEqual(value(999))
  expect(reads).toEqual([])
  expect(await nodes.get(key(1))).toEqual(value(1))
  expect(await nodes.get(key(1))).toEqual(value(1))
  expect(reads).toEqual([key(1)])
  expect(await nodes.get(key(5000))).toBeUndefined()
})

test('a node in memory is not written again; a failed commit gives its nodes to the next one', async () => {
  const { nodes: src, entries } = source()
  const nodes = new TrieNodeStore(src, 100)
  await nodes.put(key(1), value(1))
  commit(nodes, entries)
  await nodes.put(key(1), value(1))
  expect(nodes.drainNew().size).toBe(0)

  await nodes.put(key(2), value(2))
  const failed = nodes.drainNew()
  nodes.restoreNew(failed)
  expect(await nodes.get(key(2))).toEqual(value(2))
  expect([...nodes.drainNew().keys()]).toEqual([key(2)])
})

test('a store without a node source leaves every node in memory', async () => {
  const nodes = new TrieNodeStore(undefined, 10)
  for (let i = 0; i < 50; i++) await nodes.put(key(i), value(i))
  nodes.stored(nodes.drainNew())
  expect(nodes.size).toBe(50)
  expect(await nodes.get(key(0))).toEqual(value(0))
})

test('a failed read is tried again; a read across a clear (the store was wiped) caches nothing', async () => {
  const { nodes: src, entries, failing } = source(new Map([[key(2), value(2)]]))
  failing(true)
  const nodes = new TrieNodeStore(src, 100)
  await expect(nodes.get(key(2))).rejects.toThrow('the disk said no')
  failing(false)
  expect(await nodes.get(key(2))).toEqual(value(2))

  let release!: () => void
  const slow: NodeSource = { get: () => new Promise((resolve) => (release = () => resolve(value(3)))) }
  const cleared = new TrieNodeStore(slow, 100)
  const reading = cleared.get(key(3))
  cleared.clear()
  release()
  expect(await reading).toBeUndefined()
  // Not cached: written again, it is a new node for the wiped store.
  await cleared.put(key(3), value(3))
  expect(cleared.drainNew().size).toBe(1)
  expect(entries.size).toBe(1)
})

test('the cache holds copies side by side in shared buffers, not the buffers it was given; a long value as it is', async () => {
  const { nodes: src, entries } = source()
  const nodes = new TrieNodeStore(src, 100)
  const given = [value(1), value(2)]
  const code = new Uint8Array(10_000).fill(0x60)
  await nodes.put(key(1), given[0])
  await nodes.put(key(2), given[1])
  await nodes.put(key(3), code)
  commit(nodes, entries)
  const [one, two] = [await nodes.get(key(1)), await nodes.get(key(2))]
  expect(one).toEqual(given[0])
  expect(two).toEqual(given[1])
  // Copies: the buffers handed over are free to go.
  expect(one!.buffer).not.toBe(given[0].buffer)
  expect(one!.buffer).toBe(two!.buffer)
  expect(await nodes.get(key(3))).toBe(code)
  // A wipe drops them; a node read again from the store is cached anew.
  nodes.clear()
  entries.set(key(1), value(1))
  const again = await nodes.get(key(1))
  expect(again).toEqual(value(1))
  expect(again!.buffer).not.toBe(one!.buffer)
})
