/**
 * The memory stores' trie nodes, kept compact (issue 21): packed records in chunks, deflated once
 * full, with a table of where each key is. Every node added is found, whichever chunk holds it.
 */
import { expect, test, vi } from 'vitest'
import { NodeArchive } from '../../../src/core/store/nodeArchive.ts'
import { packNodes, packNodesTransient } from '../../../src/core/store/packing.ts'
import { SpillFile } from '../../../src/core/store/spillFile.ts'

const key = (n: number) => (n * 2654435761 >>> 0).toString(16).padStart(8, '0') + n.toString(16).padStart(56, '0')
const value = (n: number, size = 40) => Uint8Array.from({ length: size }, (_, i) => (n + i) & 255)
/** 250 bytes that do not deflate. */
const random = (n: number) => Uint8Array.from({ length: 250 }, (_, i) => (Math.imul(n + 1, 2654435761) >>> (i % 24)) ^ (i * 131) & 255)

/**
 * 1,000 commits of 20 random nodes (keys 0 to 19,999): ~5 MB packed, ~80 sealed chunks. Packed as
 * the memory stores pack them, into one buffer each commit overwrites: the archive copies.
 */
async function randomCommits(archive: NodeArchive): Promise<void> {
  for (let c = 0; c < 1000; c++) {
    const nodes = new Map<string, Uint8Array>()
    for (let i = 0; i < 20; i++) nodes.set(key(c * 20 + i), random(c * 20 + i))
    archive.add(packNodesTransient(nodes))
  }
  await archive.settled()
}

test('every node of many commits is found, in deflated chunks too; text keys and absent keys', async () => {
  const archive = new NodeArchive()
  const commits = 400
  for (let c = 0; c < commits; c++) {
    const nodes = new Map<string, Uint8Array>()
    for (let i = 0; i < 20; i++) nodes.set(key(c * 20 + i), value(c * 20 + i, 200))
    nodes.set(`preimage:${c}`, value(c, 20))
    archive.add(packNodes(nodes))
  }
  await archive.settled()
  expect(archive.size).toBe(commits * 21)
  // 400 × 20 × ~235 bytes: ~1.9 MB packed, the first MiB deflated (these values deflate well).
  expect(archive.bytes).toBeLessThan(1.9e6)
  for (const n of [0, 1, 777, 4000, commits * 20 - 1]) expect(await archive.get(key(n))).toEqual(value(n, 200))
  expect(await archive.get('preimage:0')).toEqual(value(0, 20))
  expect(await archive.get(`preimage:${commits - 1}`)).toEqual(value(commits - 1, 20))
  expect(await archive.get(key(commits * 20))).toBeUndefined()
  expect(await archive.get('preimage:x')).toBeUndefined()

  const all = new Map<string, Uint8Array>()
  for await (const [k, v] of archive.entries()) all.set(k, v)
  expect(all.size).toBe(commits * 21)
  expect(all.get(key(123))).toEqual(value(123, 200))
})

test('a value read is a copy, not a view that keeps its chunk', async () => {
  const archive = new NodeArchive()
  archive.add(packNodes(new Map([[key(1), value(1)]])))
  const read = (await archive.get(key(1)))!
  expect(read.buffer.byteLength).toBe(read.length)
})

test('clear forgets every node', async () => {
  const archive = new NodeArchive()
  archive.add(packNodes(new Map([[key(1), value(1)]])))
  archive.clear()
  expect(await archive.get(key(1))).toBeUndefined()
  expect(archive.size).toBe(0)
})

test('in Node.js, sealed chunks are spilled to a file and leave memory: every node still found', async () => {
  const archive = new NodeArchive()
  await randomCommits(archive)
  // In memory: the key table and the chunk still open, not the ~5 MB of chunks.
  expect(archive.bytes).toBeLessThan(1e6)
  for (const n of [0, 1, 9999, 19_999]) expect(await archive.get(key(n))).toEqual(random(n))
  archive.clear()
  expect(await archive.get(key(0))).toBeUndefined()
  archive.add(packNodes(new Map([[key(5), value(5)]])))
  expect(await archive.get(key(5))).toEqual(value(5))
  archive.close()
})

test('reads of many sealed chunks at once each find their own node, while chunk buffers are reused', async () => {
  const archive = new NodeArchive()
  // ~80 chunks: far more than the 16 kept inflated, so reads evict and reuse buffers.
  await randomCommits(archive)
  // One node of every ~12th commit (a different chunk each, near enough), all in flight at once, twice.
  const wanted = Array.from({ length: 160 }, (_, i) => (i * 125 + (i % 20)) % 20_000)
  for (let round = 0; round < 2; round++) {
    const read = await Promise.all(wanted.map((n) => archive.get(key(n))))
    read.forEach((value, i) => expect(value, `node ${wanted[i]}`).toEqual(random(wanted[i])))
  }
  // Commits added while reads are in flight (the key table grows under them) leave the reads whole.
  const reads = wanted.map((n) => archive.get(key(n)))
  // 6,000 more keys: past three quarters of the table's 32,768 slots, so it grows.
  for (let n = 20_000; n < 26_000; n += 15) archive.add(packNodes(new Map(Array.from({ length: 15 }, (_, i) => [key(n + i), random(n + i)]))))
  ;(await Promise.all(reads)).forEach((value, i) => expect(value).toEqual(random(wanted[i])))
  for (const n of [20_000, 25_999]) expect(await archive.get(key(n))).toEqual(random(n))
  archive.close()
})

test('a read probing past a key of the same hash finds its own after the key table grew under it', async () => {
  const archive = new NodeArchive()
  // Same first four bytes (the table's hash), all bits set: the two land elsewhere once it grows.
  const first = `ffffffff${'0'.repeat(55)}1`
  const second = `ffffffff${'0'.repeat(55)}2`
  archive.add(packNodes(new Map([[first, value(1, 200)]])))
  for (let n = 0; n < 600; n++) archive.add(packNodes(new Map([[key(n), value(n, 200)]])))
  archive.add(packNodes(new Map([[second, value(2, 200)]])))
  await archive.settled()
  // Its first probe holds `first`: the read awaits that chunk, and meanwhile the table grows.
  const read = archive.get(second)
  for (let n = 1000; n < 3000; n += 10) archive.add(packNodes(new Map(Array.from({ length: 10 }, (_, i) => [key(n + i), value(n + i)]))))
  expect(await read).toEqual(value(2, 200))
  expect(await archive.get(first)).toEqual(value(1, 200))
})

test('a read of a sealed chunk in flight when the archive is cleared ends, spilled or kept in memory', async () => {
  for (const spill of [true, false]) {
    // No spill file (a browser, or one refused): the deflated chunks stay readable after the clear.
    const refused = spill ? undefined : vi.spyOn(SpillFile, 'open').mockReturnValue(undefined)
    const archive = new NodeArchive()
    for (let c = 0; c < 600; c++) archive.add(packNodes(new Map([[key(c), value(c, 200)]])))
    await archive.settled()
    const read = archive.get(key(0))
    archive.clear()
    const ended = await Promise.race([read.then(() => 'ended', () => 'ended'), new Promise((resolve) => setTimeout(() => resolve('still reading'), 2000))])
    expect(ended, spill ? 'spilled' : 'in memory').toBe('ended')
    archive.close()
    refused?.mockRestore()
  }
})
