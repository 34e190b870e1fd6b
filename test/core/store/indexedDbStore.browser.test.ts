/**
 * Where a chain lives: one IndexedDB database per name, refused clearly when a newer pagenode
 * wrote it; nothing at all in IndexedDB for `persist: false`.
 */
import { deleteDB, openDB } from 'idb'
import { expect, test, vi } from 'vitest'
import { startNode } from '../../../src/client/index.ts'
import { SCHEMA_VERSION } from '../../../src/core/index.ts'
import { RLP } from '@ethereumjs/rlp'
import { IndexedDbStore } from '../../../src/core/store/indexedDbStore.ts'
import { MERGE_FILTER, PIECE_FILTER } from '../../../src/core/store/nodeFilter.ts'
import { packZeros, walkPacked } from '../../../src/core/store/packing.ts'
import { bytesToHex } from '../../../src/core/hexText.ts'
import { encodeSegment, readSegment, type StoredSegment } from '../../../src/core/store/segments.ts'
import { DEV, signTransfer, start, transfer, uniqueName } from '../../support/browser/nodes.ts'
import { layout7FilterOf } from '../../support/legacyNodeFilter.ts'

const databaseNames = async () => (await indexedDB.databases()).map((db) => db.name)

test('a stopped node’s chain is found by a new node on the same name, block for block', async () => {
  const name = uniqueName('persisted')
  const first = await start({ name })
  await transfer(first, 0, DEV[3].address, 7n)
  const block = await first.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', true] })
  await first.stop()
  expect(await databaseNames()).toContain(name)

  const second = await start({ name })
  expect(await second.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', true] })).toEqual(block)
  expect(await second.provider.request({ method: 'eth_getBalance', params: [DEV[3].address, 'latest'] })).toBe('0x21e19e0c9bab2400007')
})

test('persist: false keeps nothing in IndexedDB, and a new node starts again at block 0', async () => {
  const name = uniqueName('memory')
  const first = await start({ name, persist: false })
  await transfer(first)
  expect(await first.provider.request({ method: 'eth_blockNumber' })).toBe('0x1')
  expect(await databaseNames()).not.toContain(name)
  await first.stop()

  const second = await start({ name, persist: false })
  expect(await second.provider.request({ method: 'eth_blockNumber' })).toBe('0x0')
  expect(await databaseNames()).not.toContain(name)
})

test('two memory nodes with the same name are two chains, each its own leader', async () => {
  const name = uniqueName('memory-twins')
  const [a, b] = [await start({ name, persist: false }), await start({ name, persist: false })]
  expect([a.role, b.role]).toEqual(['leader', 'leader'])
  await transfer(a)
  expect(await a.provider.request({ method: 'eth_blockNumber' })).toBe('0x1')
  expect(await b.provider.request({ method: 'eth_blockNumber' })).toBe('0x0')
})

test('two names are two independent chains', async () => {
  const [a, b] = [await start({ name: uniqueName('left') }), await start({ name: uniqueName('right') })]
  expect([a.role, b.role]).toEqual(['leader', 'leader'])
  await transfer(a, 0, DEV[3].address, 5n)
  await transfer(a, 0, DEV[3].address, 5n)
  await transfer(b, 1, DEV[3].address, 7n)
  expect(await a.provider.request({ method: 'eth_blockNumber' })).toBe('0x2')
  expect(await b.provider.request({ method: 'eth_blockNumber' })).toBe('0x1')
  const balance = (node: typeof a) => node.provider.request({ method: 'eth_getBalance', params: [DEV[3].address, 'latest'] })
  expect(BigInt((await balance(a)) as string) - BigInt((await balance(b)) as string)).toBe(3n)
})

test('a chain id other than the stored chain’s is refused clearly', async () => {
  const name = uniqueName('chain-id')
  const first = await start({ name })
  await first.stop()
  await expect(startNode({ name, chainId: 300, serviceWorker: false })).rejects.toThrow(/chain id 260, not 300/)
})

test('a database whose record says a newer schema is refused with a clear error, and left as it was', async () => {
  const name = uniqueName('newer-schema')
  const first = await start({ name })
  await transfer(first)
  await first.stop()

  const db = await openDB(name)
  const meta = await db.get('meta', 'chain')
  await db.put('meta', { ...meta, schemaVersion: SCHEMA_VERSION + 1 }, 'chain')
  const commits = await db.getAll('commits')
  expect(commits.length).toBeGreaterThan(0)
  db.close()

  await expect(startNode({ name, serviceWorker: false })).rejects.toThrow(`written by a newer pagenode (schema ${SCHEMA_VERSION + 1}`)
  const after = await openDB(name)
  expect(await after.get('meta', 'chain')).toMatchObject({ schemaVersion: SCHEMA_VERSION + 1, headNumber: 1n })
  expect(await after.getAll('commits')).toEqual(commits)
  after.close()
})

test('a database with a newer IndexedDB layout is refused with a clear error', async () => {
  const name = uniqueName('newer-layout')
  const first = await start({ name })
  await first.stop()
  const current = await openDB(name)
  const version = current.version
  current.close()
  const db = await openDB(name, version + 1, { upgrade: (database) => void database.createObjectStore('from-the-future') })
  db.close()

  await expect(startNode({ name, serviceWorker: false })).rejects.toThrow(/written by a newer pagenode/)
  const after = await openDB(name)
  expect(after.version).toBe(version + 1)
  after.close()
})

test('a node that could not start leaves nothing behind: the name can be started again once fixed', async () => {
  const name = uniqueName('retry')
  const first = await start({ name })
  await first.stop()
  await expect(startNode({ name, chainId: 300, serviceWorker: false })).rejects.toThrow()
  const again = await start({ name })
  expect(again.role).toBe('leader')
  expect(await again.provider.request({ method: 'eth_chainId' })).toBe('0x104')
})

test('only the store opened last may write: a replaced leader’s commit is refused, not merged', async () => {
  const name = uniqueName('lease')
  const node = await start({ name })
  await transfer(node)
  await node.stop()

  const replaced = await IndexedDbStore.open(name)
  const { meta } = (await replaced.load())!
  const replacing = await IndexedDbStore.open(name)
  try {
    await expect(replaced.commit({ meta: { ...meta, headNumber: 7n }, nodes: new Map([['k', new Uint8Array([1])]]), blocks: [] })).rejects.toThrow(
      'another tab took this chain over',
    )
    expect((await replacing.load())!.meta.headNumber).toBe(1n)
    await expect(replaced.wipe()).rejects.toThrow('another tab took this chain over')
    expect(await replacing.load()).toBeDefined()
    await replacing.commit({ meta, nodes: new Map(), blocks: [] })
  } finally {
    await replaced.close()
    await replacing.close()
  }
  const again = await start({ name })
  expect(await again.provider.request({ method: 'eth_blockNumber' })).toBe('0x1')
})

test('a replaced store stays refused commit after commit, and its revocation is dropped once it is closed', async () => {
  const name = uniqueName('revoked')
  const node = await start({ name })
  await transfer(node)
  await node.stop()
  const revocations = async () => {
    const db = await openDB(name)
    const keys = (await db.getAllKeys('meta')).filter((key) => String(key).startsWith('revoked:'))
    db.close()
    return keys
  }
  // The node stopped: its store closed, so the one after it revokes nothing.
  const replaced = await IndexedDbStore.open(name)
  expect(await revocations()).toEqual([])
  const { meta } = (await replaced.load())!
  const replacing = await IndexedDbStore.open(name)
  const revokedFirst = await revocations()
  try {
    expect(revokedFirst).toHaveLength(1)
    for (const headNumber of [7n, 8n]) {
      await expect(replaced.commit({ meta: { ...meta, headNumber }, nodes: new Map([['k', new Uint8Array([1])]]), blocks: [] })).rejects.toThrow(
        'another tab took this chain over',
      )
    }
    expect((await replacing.load())!.meta.headNumber).toBe(1n)
    await replacing.commit({ meta: { ...meta, headNumber: 1n }, nodes: new Map(), blocks: [] })
  } finally {
    await replaced.close()
  }
  // `replaced` is gone now, `replacing` is alive: the next store drops the first revocation and writes the second.
  const third = await IndexedDbStore.open(name)
  const keys = await revocations()
  await third.close()
  await replacing.close()
  expect(keys).toHaveLength(1)
  expect(keys[0]).not.toBe(revokedFirst[0])
})

test('without Web Locks, a store replaced is revoked even once closed: nothing tells it apart from a frozen one', async () => {
  const name = uniqueName('no-locks')
  const locks = Object.getOwnPropertyDescriptor(Navigator.prototype, 'locks')!
  Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true })
  try {
    const first = await IndexedDbStore.open(name)
    await first.close()
    const second = await IndexedDbStore.open(name)
    await second.close()
    const db = await openDB(name)
    const keys = (await db.getAllKeys('meta')).filter((key) => String(key).startsWith('revoked:'))
    db.close()
    expect(keys).toHaveLength(1)
  } finally {
    delete (navigator as { locks?: unknown }).locks
    expect(Object.getOwnPropertyDescriptor(Navigator.prototype, 'locks')).toEqual(locks)
  }
})

test('a long chain’s per-commit records are merged into segments, and the chain read back from them is the same', async () => {
  const name = uniqueName('segments')
  const first = await start({ name })
  await transfer(first, 0, DEV[3].address, 9n)
  await first.provider.request({ method: 'anvil_mine', params: ['0x258'] }) // 600 blocks: past the merge threshold
  await transfer(first, 1, DEV[3].address, 4n)
  const ask = (node: typeof first) =>
    Promise.all([
      node.provider.request({ method: 'eth_getBlockByNumber', params: ['0x1', true] }),
      node.provider.request({ method: 'eth_getBlockByNumber', params: ['0x12c', false] }),
      node.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', true] }),
      node.provider.request({ method: 'eth_getBalance', params: [DEV[3].address, '0x1'] }),
      node.provider.request({ method: 'eth_getBalance', params: [DEV[3].address, 'latest'] }),
    ])
  const before = await ask(first)
  await first.stop()

  const db = await openDB(name)
  expect(await db.count('segments')).toBeGreaterThan(0)
  expect(await db.count('blocks')).toBeLessThan(600)
  // Blocks and trie nodes in segments of their own: the nodes under string keys, read after start.
  expect((await db.getAllKeys('segments')).some((key) => typeof key === 'string')).toBe(true)
  // Layout 6: node segments deflated, in pieces, with one record of their filters per merge; block segments raw.
  const stored = await db.getAll('segments')
  expect(stored.every((segment) => 'deflated' in segment || 'pieces' in segment || 'raw' in segment)).toBe(true)
  expect(stored.some((segment) => 'deflated' in segment) && stored.some((segment) => 'raw' in segment)).toBe(true)
  db.close()
  const second = await start({ name })
  expect(await ask(second)).toEqual(before)
  expect(await second.provider.request({ method: 'eth_blockNumber' })).toBe('0x25a')
})

/** A chain of 600 blocks a round (a transfer to DEV[3] each), merged into segments, and what it answers. */
async function mergedChain(name: string, rounds = 1) {
  const node = await start({ name })
  await transfer(node, 0, DEV[3].address, 9n)
  for (let round = 1; round <= rounds; round++) {
    await node.provider.request({ method: 'anvil_mine', params: ['0x258'] })
    await transfer(node, round % 3, DEV[3].address, 4n)
  }
  const ask = (of: typeof node) =>
    Promise.all([
      of.provider.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] }),
      of.provider.request({ method: 'eth_getBlockByNumber', params: ['0x12c', false] }),
      of.provider.request({ method: 'eth_getBalance', params: [DEV[3].address, '0x1'] }),
      of.provider.request({ method: 'eth_getBalance', params: [DEV[3].address, 'latest'] }),
      of.provider.request({ method: 'eth_blockNumber' }),
    ])
  const answers = await ask(node)
  await node.stop()
  return { answers, ask }
}

test('a chain stored by the previous layout (3: segments as they are, records zero-packed) is opened and read the same', async () => {
  const source = uniqueName('layout4')
  const { answers, ask } = await mergedChain(source)
  // The same records, as layout 3 wrote them, in a database of version 3.
  const name = uniqueName('layout3')
  const from = await openDB(source)
  const old = await openDB(name, 3, {
    upgrade(database) {
      for (const store of ['nodes', 'blocks', 'meta']) database.createObjectStore(store)
      database.createObjectStore('nodeBatches', { autoIncrement: true })
      database.createObjectStore('segments', { autoIncrement: true })
    },
  })
  await copyStores(from, old, ['meta', 'nodes'])
  await copyAsLayout9Records(from, old)
  const segmentKeys = await from.getAllKeys('segments')
  const segments = (await from.getAll('segments')) as StoredSegment[]
  for (const [i, key] of segmentKeys.entries()) {
    if (typeof key === 'string' && key.startsWith('f')) continue // layout 3 had no filters
    const { blocks, nodes } = await readSegment(segments[i])
    await old.put('segments', encodeSegment(blocks.map((block) => ({ ...block, record: packZeros(block.record) })), [nodes]), key)
  }
  from.close()
  old.close()

  const reopened = await start({ name })
  expect(await ask(reopened)).toEqual(answers)
  await reopened.stop()
  // The upgrade listed its node segments, which have no filter: starts read that list, not every key.
  const upgraded = await openDB(name)
  const nodeSegments = segmentKeys.filter((key) => typeof key === 'string' && key.startsWith('n'))
  expect(nodeSegments.length).toBeGreaterThan(0)
  expect(await upgraded.get('meta', 'unfiltered')).toEqual(nodeSegments)
  upgraded.close()
})

type Database = Awaited<ReturnType<typeof openDB>>

/** Copies `stores` of `from` into `to`, record for record under the same keys. */
async function copyStores(from: Database, to: Database, stores: string[]): Promise<void> {
  for (const store of stores) {
    const keys = await from.getAllKeys(store)
    const values = await from.getAll(store)
    for (const [i, key] of keys.entries()) await to.put(store, values[i], key)
  }
}

/**
 * Copies `from`'s unmerged per-commit records into `old` as layouts 2–9 kept them: each commit's
 * packed nodes alone in `nodeBatches` (under the same key), its blocks in `blocks` by number.
 */
async function copyAsLayout9Records(from: Database, old: Database): Promise<void> {
  const keys = await from.getAllKeys('commits')
  const commits = (await from.getAll('commits')) as { nodes?: Uint8Array; blocks: [number, Uint8Array][] }[]
  for (const [i, { nodes, blocks }] of commits.entries()) {
    if (nodes) await old.put('nodeBatches', nodes, keys[i])
    for (const [number, bytes] of blocks) await old.put('blocks', bytes, number)
  }
}

/** The keys of a node piece's packed nodes, as the trie names them. */
function keysOf(packed: Uint8Array): string[] {
  const keys: string[] = []
  walkPacked(packed, (keyOffset, textKey) => keys.push(textKey ?? bytesToHex(packed.subarray(keyOffset, keyOffset + 32)).slice(2)))
  return keys
}

test('a chain stored by layout 7 (filters of 4 probes, no count stored) is opened and its old nodes are found through them', async () => {
  const source = uniqueName('layout8')
  const { answers, ask } = await mergedChain(source, 2)
  const name = uniqueName('layout7')
  const from = await openDB(source)
  const old = await openDB(name, 7, {
    upgrade(database) {
      for (const store of ['nodes', 'blocks', 'meta', 'pool', 'fork']) database.createObjectStore(store)
      database.createObjectStore('nodeBatches', { autoIncrement: true })
      database.createObjectStore('segments', { autoIncrement: true })
    },
  })
  await copyStores(from, old, ['meta', 'nodes', 'pool'])
  await copyAsLayout9Records(from, old)
  const segmentKeys = await from.getAllKeys('segments')
  const segments = (await from.getAll('segments')) as StoredSegment[]
  const byKey = new Map(segmentKeys.map((key, i) => [key, segments[i]]))
  let rewritten = 0
  for (const [key, segment] of byKey) {
    if (!(typeof key === 'string' && key.startsWith('f'))) {
      await old.put('segments', segment, key)
      continue
    }
    const { pieces } = segment as unknown as { pieces: { segment: string; filter: Uint8Array; probes?: number }[] }
    const legacy = await Promise.all(pieces.map(async ({ segment: id }) => ({ segment: id, filter: layout7FilterOf(keysOf((await readSegment(byKey.get(id)!)).nodes)) })))
    await old.put('segments', { pieces: legacy } as unknown as StoredSegment, key)
    rewritten += pieces.length
  }
  from.close()
  old.close()
  expect(rewritten).toBeGreaterThanOrEqual(2)

  // Block 1's balance is read from the oldest pieces, found through their layout-7 filters.
  const reopened = await start({ name })
  expect(await ask(reopened)).toEqual(answers)
  await reopened.stop()
  const upgraded = await openDB(name)
  expect(upgraded.version).toBe(10)
  expect(await upgraded.get('meta', 'unfiltered')).toBeUndefined()
  upgraded.close()
})

test('a chain stored by layout 9 (a commit’s nodes and blocks in two stores) is read the same, and its records are merged with the new ones', async () => {
  const source = uniqueName('layout10')
  const node = await start({ name: source })
  for (const from of [0, 1, 2]) await transfer(node, from, DEV[3].address, 7n)
  await node.provider.request({ method: 'anvil_mine', params: ['0x40'] })
  await transfer(node, 0, DEV[3].address, 5n)
  const ask = (of: typeof node, block: string) =>
    Promise.all([
      of.provider.request({ method: 'eth_getBlockByNumber', params: ['0x2', true] }),
      of.provider.request({ method: 'eth_getBlockByNumber', params: [block, false] }),
      of.provider.request({ method: 'eth_getBalance', params: [DEV[3].address, '0x2'] }),
      of.provider.request({ method: 'eth_getBalance', params: [DEV[3].address, 'latest'] }),
      of.provider.request({ method: 'eth_blockNumber' }),
    ])
  const answers = await ask(node, '0x44')
  await node.stop()

  // The same chain as layout 9 kept it: nothing merged yet, every commit as two records.
  const name = uniqueName('layout9')
  const from = await openDB(source)
  expect(await from.count('segments')).toBe(0)
  const old = await openDB(name, 9, {
    upgrade(database) {
      for (const store of ['nodes', 'blocks', 'pool', 'fork']) database.createObjectStore(store)
      database.createObjectStore('meta').createIndex('writer', 'writer', { unique: true })
      database.createObjectStore('nodeBatches', { autoIncrement: true })
      database.createObjectStore('segments', { autoIncrement: true })
    },
  })
  await copyStores(from, old, ['meta', 'pool'])
  await copyAsLayout9Records(from, old)
  expect(await old.count('blocks')).toBe(0x45)
  from.close()
  old.close()

  const reopened = await start({ name })
  expect(await ask(reopened, '0x44')).toEqual(answers)
  // New commits beside the old records, then past the merge threshold: one merge takes both.
  await transfer(reopened, 1, DEV[3].address, 3n)
  await reopened.provider.request({ method: 'anvil_mine', params: ['0x258'] })
  await transfer(reopened, 2, DEV[3].address, 2n)
  const grown = await ask(reopened, '0x45')
  await reopened.stop()

  const upgraded = await openDB(name)
  expect(upgraded.version).toBe(10)
  expect(upgraded.objectStoreNames.contains('nodeBatches')).toBe(false)
  expect(await upgraded.count('blocks')).toBe(0)
  expect(await upgraded.count('segments')).toBeGreaterThan(0)
  upgraded.close()
  const again = await start({ name })
  expect(await ask(again, '0x45')).toEqual(grown)
  expect(grown[4]).toBe('0x29e')
})

test('a block stored again while a merge deflates is kept: the merge deletes only the records it read', async () => {
  const name = uniqueName('merge-race')
  const store = await IndexedDbStore.open(name)
  // Block records as the store sees them: opaque but for the header (the first item) it hashes.
  const record = (number: number, version: number) => RLP.encode([RLP.encode([number, version]), version])
  const meta = { schemaVersion: SCHEMA_VERSION, chainId: 260, genesisHash: '0x00', headNumber: 599n }
  try {
    await store.commit({ meta, nodes: new Map(), blocks: Array.from({ length: 600 }, (_, n) => ({ number: BigInt(n), bytes: record(n, 1) })) })
    // That commit started a merge (600 records): it now reads them and deflates.
    await store.commit({ meta, nodes: new Map(), blocks: [{ number: 5n, bytes: record(5, 2) }] })
  } finally {
    await store.close()
  }
  const reopened = await IndexedDbStore.open(name)
  try {
    const chain = (await reopened.load())!
    expect(chain.blocks).toHaveLength(600)
    expect(chain.blocks[5]).toEqual(record(5, 2))
    expect(chain.blocks[6]).toEqual(record(6, 1))
  } finally {
    await reopened.close()
    await deleteDB(name)
  }
})

test('a tail dropped (evm_revert) stays gone once reopened, before a merge and after it; the blocks stored since replace it', async () => {
  const name = uniqueName('dropped-tail')
  const record = (number: number, version: number) => RLP.encode([RLP.encode([number, version]), version])
  const meta = (head: number) => ({ schemaVersion: SCHEMA_VERSION, chainId: 260, genesisHash: '0x00', headNumber: BigInt(head) })
  const blocks = (from: number, to: number, version: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ number: BigInt(from + i), bytes: record(from + i, version) }))
  const read = async () => {
    const store = await IndexedDbStore.open(name)
    try {
      const chain = (await store.load())!
      return { blocks: chain.blocks, head: chain.meta.headNumber }
    } finally {
      await store.close()
    }
  }
  try {
    const store = await IndexedDbStore.open(name)
    try {
      await store.commit({ meta: meta(5), nodes: new Map(), blocks: blocks(0, 5, 1) })
      await store.commit({ meta: meta(2), nodes: new Map(), blocks: blocks(2, 2, 2), dropAbove: 2n })
      await store.commit({ meta: meta(3), nodes: new Map(), blocks: blocks(3, 3, 2) })
    } finally {
      await store.close()
    }
    const expected = [...blocks(0, 1, 1), ...blocks(2, 3, 2)].map(({ bytes }) => bytes)
    expect(await read()).toEqual({ blocks: expected, head: 3n })

    // Past the merge threshold (a close waits for the merge), the dropped blocks 4 and 5 merged
    // with the rest: still gone.
    const more = await IndexedDbStore.open(name)
    try {
      await more.commit({ meta: meta(3), nodes: new Map(), blocks: Array.from({ length: 600 }, () => ({ number: 3n, bytes: record(3, 3) })) })
    } finally {
      await more.close()
    }
    const db = await openDB(name)
    expect([await db.count('commits'), await db.count('segments')]).toEqual([0, 1])
    db.close()
    expect(await read()).toEqual({ blocks: [...expected.slice(0, 3), record(3, 3)], head: 3n })
  } finally {
    await deleteDB(name)
  }
})

test('a reopened chain reads the node segment that holds a trie node it needs, not every segment', async () => {
  const name = uniqueName('node-filters')
  const { answers } = await mergedChain(name, 2)
  const db = await openDB(name)
  const keys = await db.getAllKeys('segments')
  const nodeSegments = keys.filter((key) => typeof key === 'string' && key.startsWith('n'))
  expect(nodeSegments.length).toBeGreaterThanOrEqual(2)
  // One record of filters per merge (two), naming its pieces, with a filter of all its keys.
  const filterKeys = keys.filter((key) => typeof key === 'string' && key.startsWith('f'))
  expect(filterKeys).toHaveLength(2)
  for (const key of filterKeys) {
    const { pieces, merge } = (await db.get('segments', key)) as { pieces: { probes: number }[]; merge: { filter: Uint8Array; probes: number } }
    expect(pieces.every(({ probes }) => probes === PIECE_FILTER.probes)).toBe(true)
    expect(merge.probes).toBe(MERGE_FILTER.probes)
    expect(merge.filter.length).toBeGreaterThan(0)
  }
  db.close()

  const store = await IndexedDbStore.open(name)
  try {
    const listed = vi.spyOn(IDBObjectStore.prototype, 'getAllKeys')
    await store.load()
    const block1 = answers[0] as { stateRoot: string }
    const root = block1.stateRoot.slice(2)
    const get = vi.spyOn(IDBObjectStore.prototype, 'get')
    const found = await store.nodes.get(root)
    const segmentReads = get.mock.calls.map(([key]) => key).filter((key) => typeof key === 'string' && key.startsWith('n'))
    get.mockRestore()
    expect(segmentReads).toEqual([nodeSegments[0]])
    // Found from the filter records: the node segments' keys were never listed (layout 8).
    const ranges = listed.mock.calls.map(([range]) => (range instanceof IDBKeyRange ? range.lower : range))
    listed.mockRestore()
    expect(ranges).toContain('f')
    expect(ranges).not.toContain('n')
    expect(found).toBeInstanceOf(Uint8Array)
  } finally {
    await store.close()
  }
  // And the node finds it: the balance at block 1 is read from there.
  const node = await start({ name })
  expect(await node.provider.request({ method: 'eth_getBalance', params: [DEV[3].address, '0x1'] })).toBe(answers[2])
})

test('the pool and the dev-node settings are stored with the chain, and a new node on the name resumes with them', async () => {
  const name = uniqueName('pool')
  const first = await start({ name, mining: { mode: 'manual' } })
  const raws = [await signTransfer(0, 1), await signTransfer(0, 0)]
  const hashes: unknown[] = []
  for (const raw of raws) hashes.push(await first.provider.request({ method: 'eth_sendRawTransaction', params: [raw] }))
  await first.provider.request({ method: 'evm_increaseTime', params: [3600] })
  const snapshot = await first.provider.request({ method: 'evm_snapshot', params: [] })
  await first.stop()

  const second = await start({ name })
  expect(await second.provider.request({ method: 'eth_mining', params: [] })).toBe(false)
  const content = (await second.provider.request({ method: 'txpool_content', params: [] })) as { pending: Record<string, Record<string, { hash: string }>> }
  expect(Object.values(content.pending).flatMap((byNonce) => Object.values(byNonce).map((tx) => tx.hash))).toEqual([hashes[1], hashes[0]])
  await second.provider.request({ method: 'evm_mine', params: [] })
  const block = (await second.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { transactions: string[]; timestamp: string }
  expect(block.transactions).toEqual([hashes[1], hashes[0]])
  expect(Number(block.timestamp)).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 3590)
  expect(await second.provider.request({ method: 'evm_revert', params: [snapshot] })).toBe(true)
  expect(await second.provider.request({ method: 'eth_blockNumber', params: [] })).toBe('0x0')
})

test('a long chain is loaded from its last block segments, the older ones after the start; the chain reads the same', async () => {
  const name = uniqueName('tail-first')
  const { answers, ask } = await mergedChain(name, 4)
  const store = await IndexedDbStore.open(name)
  try {
    const chain = (await store.load())!
    // The head and the blocks of the last two segments; the rest when asked.
    expect(chain.firstBlock).toBeGreaterThan(0)
    expect(BigInt(chain.firstBlock! + chain.blocks.length - 1)).toBe(chain.meta.headNumber)
    const older = await chain.older!()
    expect(older.blocks).toHaveLength(chain.firstBlock!)
    expect(older.blocks.every((bytes) => bytes.length > 0)).toBe(true)
  } finally {
    await store.close()
  }
  const node = await start({ name })
  const hash = ((await node.provider.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] })) as { hash: string }).hash
  expect(await ask(node)).toEqual(answers)
  expect(await node.provider.request({ method: 'eth_getBlockByHash', params: [hash, false] })).toEqual(answers[0])
  expect(await node.provider.request({ method: 'zks_getL1BatchBlockRange', params: ['0x1'] })).toEqual(['0x1', '0x1'])
  await transfer(node, 2, DEV[3].address, 1n)
  expect(await node.provider.request({ method: 'eth_blockNumber' })).toBe(`0x${(BigInt(answers[4] as string) + 1n).toString(16)}`)
})

test('a long chain mines on its last block segments before the older ones are read, and stores blocks a restart reads whole', async () => {
  const name = uniqueName('tail-mining')
  const { answers, ask } = await mergedChain(name, 4)
  const head = BigInt(answers[4] as string)
  const first = await start({ name })
  // The first call is a transaction: mined on the last segments (the older ones are read a second after the start).
  await transfer(first, 2, DEV[3].address, 1n)
  const mined = (await first.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { number: string; parentHash: string; l1BatchNumber: string | null }
  expect(BigInt(mined.number)).toBe(head + 1n)
  expect(mined.l1BatchNumber).not.toBeNull()
  await first.stop()

  const second = await start({ name })
  expect(await ask(second)).toEqual([...answers.slice(0, 3), expect.any(String), `0x${(head + 1n).toString(16)}`])
  expect(await second.provider.request({ method: 'eth_getBlockByNumber', params: [mined.number, false] })).toMatchObject(mined)
  const parent = (await second.provider.request({ method: 'eth_getBlockByNumber', params: [`0x${head.toString(16)}`, false] })) as { hash: string }
  expect(mined.parentHash).toBe(parent.hash)
  expect(await second.provider.request({ method: 'zks_L1BatchNumber' })).toBe(mined.l1BatchNumber)
})
