/**
 * The memory stores' trie nodes, kept compact (issue 21): packed records in chunks, deflated once
 * full, with a table of where each key is. Every node added is found, whichever chunk holds it.
 */
import { expect, test } from 'vitest'
import { NodeArchive } from '../../../src/core/store/nodeArchive.ts'
import { packNodes } from '../../../src/core/store/packing.ts'

const key = (n: number) => (n * 2654435761 >>> 0).toString(16).padStart(8, '0') + n.toString(16).padStart(56, '0')
const value = (n: number, size = 40) => Uint8Array.from({ length: size }, (_, i) => (n + i) & 255)

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
