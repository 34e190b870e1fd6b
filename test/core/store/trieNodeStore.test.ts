/**
 * The trie node store: nodes not stored yet and a bounded cache of hot ones in memory, the rest
 * read from the store's node source by need (issue 21), so that every stored node is found
 * whatever the cache holds.
 */
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches } from '@ethereumjs/statemanager'
import { Account, createAddressFromString, setLengthLeft } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { ChainStoreError } from '../../../src/core/errors.ts'
import { createChainCommon } from '../../../src/core/exec/chainCommon.ts'
import { ForkableStateManager } from '../../../src/core/fork/forkedStateManager.ts'
import { TrieNodeStore } from '../../../src/core/store/trieNodeStore.ts'
import type { NodeSource } from '../../../src/core/store/store.ts'
import { reachableNodeKeys } from '../../support/reachableNodes.ts'

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
  // A trie node no one stored: refused (test below).
  await expect(nodes.get(key(5000))).rejects.toThrow(ChainStoreError)
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

/** The chain's state manager over a node store whose source is a map, and `count` addresses. */
function chainState(count: number) {
  const { nodes: src, entries } = source()
  const nodes = new TrieNodeStore(src, 10_000)
  const common = createChainCommon(260)
  const state = new ForkableStateManager({ common, trie: new MerklePatriciaTrie({ db: nodes, useKeyHashing: true, common, valueEncoding: 'view' }), caches: new Caches() })
  const addresses = Array.from({ length: count }, (_, i) => createAddressFromString(`0x${(0x1000 + i).toString(16).padStart(40, '0')}`))
  return { src, entries, nodes, common, state, addresses }
}

test("a block's flush writes only nodes its new state root reaches (each once), and every node it reaches, storage tries included, is stored", async () => {
  const { src, entries, nodes, common, state, addresses } = chainState(40)
  const token = addresses[0]
  for (const address of addresses) await state.putAccount(address, new Account(0n, 10n ** 18n))
  const slot = (n: number) => setLengthLeft(Uint8Array.of(n), 32)
  for (let i = 0; i < 20; i++) await state.putStorage(token, slot(i), Uint8Array.of(i + 1))
  const first = await state.getStateRoot()
  commit(nodes, entries)

  // A block's flush: two balances, the token's account and two of its slots. ethereumjs' put per
  // key wrote the top of each trie once per key, all but the last version in no state.
  const puts: string[] = []
  const put = nodes.put.bind(nodes)
  nodes.put = (k, v) => (puts.push(k), put(k, v))
  await state.checkpoint()
  await state.putAccount(addresses[7], new Account(1n, 5n))
  await state.putAccount(addresses[23], new Account(0n, 6n))
  await state.putStorage(token, slot(3), Uint8Array.of(0x33))
  await state.putStorage(token, slot(30), Uint8Array.of(0x30))
  await state.commit()
  const root = await state.getStateRoot()
  const kept = nodes.drainNew()
  expect(new Set(puts).size).toBe(puts.length)
  for (const [k, v] of kept) entries.set(k, v)
  nodes.stored(kept)

  // Every node each root reaches is in the store, and each state reads whole from it alone.
  for (const at of [first, root]) {
    const fresh = new TrieNodeStore(src, 0)
    for (const k of await reachableNodeKeys(fresh, at)) expect(entries.has(k), k).toBe(true)
  }
  const reread = new ForkableStateManager({ common, trie: new MerklePatriciaTrie({ db: new TrieNodeStore(src, 0), useKeyHashing: true, common, valueEncoding: 'view', root }) })
  expect((await reread.getAccount(addresses[7]))?.balance).toBe(5n)
  expect(await reread.getStorage(token, slot(30))).toEqual(Uint8Array.of(0x30))
  expect(await reread.getStorage(token, slot(3))).toEqual(Uint8Array.of(0x33))
  expect(await reread.getStorage(token, slot(19))).toEqual(Uint8Array.of(20))
  // Nothing the flush wrote is out of the new state.
  const reachable = await reachableNodeKeys(new TrieNodeStore(src, 0), root)
  expect(reachable.size).toBeGreaterThan(40)
  expect(kept.size).toBeGreaterThanOrEqual(4) // the two tries' tops and leaves
  for (const k of kept.keys()) expect(reachable.has(k), k).toBe(true)
})

test('an SSTORE is written to the storage cache only: the storage trie is written once, by the flush', async () => {
  const written: string[] = []
  const nodes = new TrieNodeStore(undefined, 1000)
  const put = nodes.put.bind(nodes)
  nodes.put = (k, v) => (written.push(k), put(k, v))
  const common = createChainCommon(260)
  const state = new ForkableStateManager({ common, trie: new MerklePatriciaTrie({ db: nodes, useKeyHashing: true, common, valueEncoding: 'view' }), caches: new Caches() })
  const token = createAddressFromString(`0x${'aa'.repeat(20)}`)
  await state.putAccount(token, new Account())
  await state.getStateRoot()
  written.length = 0
  await state.checkpoint()
  await state.putStorage(token, setLengthLeft(Uint8Array.of(1), 32), Uint8Array.of(9))
  expect(await state.getStorage(token, setLengthLeft(Uint8Array.of(1), 32))).toEqual(Uint8Array.of(9))
  expect(written).toEqual([])
  await state.commit()
  expect(written.length).toBeGreaterThan(0)
  await expect(state.putStorage(createAddressFromString(`0x${'bb'.repeat(20)}`), setLengthLeft(Uint8Array.of(1), 32), Uint8Array.of(1))).rejects.toThrow(
    'putStorage() called on non-existing account',
  )
})

test("a trie node the store lost is refused, not read as state never written; the empty trie's root, code and preimages may be absent", async () => {
  const { src, entries, nodes, common, state, addresses } = chainState(20)
  for (const address of addresses) await state.putAccount(address, new Account(0n, 7n))
  const root = await state.getStateRoot()
  commit(nodes, entries)
  const reader = () =>
    new ForkableStateManager({ common, trie: new MerklePatriciaTrie({ db: new TrieNodeStore(src, 0), useKeyHashing: true, common, valueEncoding: 'view', root }) })

  // Whole: every account reads; one without storage reads its slots (the empty root) as zero.
  expect((await reader().getAccount(addresses[3]))?.balance).toBe(7n)
  expect(await reader().getStorage(addresses[3], setLengthLeft(Uint8Array.of(1), 32))).toEqual(new Uint8Array())
  expect(await reader().getCode(addresses[3])).toEqual(new Uint8Array())
  expect(await new TrieNodeStore(src, 0).get('preimage:00')).toBeUndefined()

  // A leaf gone from the store: the read fails, naming the node, where it read as no account.
  const leaves = [...(await reachableNodeKeys(new TrieNodeStore(src, 0), root))].filter((k) => entries.get(k)!.length < 120)
  const lost = leaves[0]
  entries.delete(lost)
  const failures = await Promise.all(addresses.map((address) => reader().getAccount(address).then(() => undefined, (error: unknown) => error)))
  const refused = failures.filter((error) => error !== undefined)
  expect(refused.length).toBe(1)
  expect(refused[0]).toBeInstanceOf(ChainStoreError)
  expect((refused[0] as Error).message).toContain(`trie node ${lost} is missing from the store`)
})
