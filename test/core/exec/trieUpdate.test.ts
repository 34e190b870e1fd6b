import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, equalsBytes, hexToBytes, KECCAK256_RLP, MapDB } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { updateTrie, type TrieNodeDb, type TrieWrite } from '../../../src/core/exec/trieUpdate.ts'
import { fromHexPrefix } from '../../../src/core/exec/triePath.ts'
import { random } from '../../support/random.ts'


/**
 * Keys and values shaped to reach every case: `keyBytes` short and from a small alphabet make
 * long shared paths, extensions and splits; short values make nodes small enough to be embedded.
 */
function shape(seed: number, { keyBytes, alphabet, maxValue }: { keyBytes: number; alphabet: number; maxValue: number }) {
  const next = random(seed)
  return {
    key: () => Uint8Array.from({ length: keyBytes }, () => next(alphabet) * (alphabet <= 16 ? 17 : 1)),
    value: () => Uint8Array.from({ length: 1 + next(maxValue) }, () => 1 + next(255)),
    next,
  }
}

/** A trie over `db` holding `entries`, by @ethereumjs/mpt. */
async function seeded(db: MapDB<string, Uint8Array>, hashed: boolean, entries: [Uint8Array, Uint8Array][]): Promise<MerklePatriciaTrie> {
  const trie = new MerklePatriciaTrie({ db, useKeyHashing: hashed, valueEncoding: 'view' })
  for (const [key, value] of entries) await trie.put(key, value)
  return trie
}

/** Every node the trie at `root` reaches in `db`, by hash (hex). */
async function reachable(db: TrieNodeDb, root: Uint8Array): Promise<Set<string>> {
  const found = new Set<string>()
  const visit = async (reference: unknown): Promise<void> => {
    if (Array.isArray(reference)) return walk(reference)
    const hash = reference as Uint8Array
    if (hash.length === 0 || found.has(bytesToHex(hash))) return
    found.add(bytesToHex(hash))
    const bytes = await db.get(hash)
    expect(bytes, `node ${bytesToHex(hash)}`).toBeDefined()
    await walk(RLP.decode(bytes!) as unknown[])
  }
  const walk = async (raw: unknown[]): Promise<void> => {
    if (raw.length === 17) for (const child of raw.slice(0, 16)) await visit(child)
    else if (!fromHexPrefix(raw[0] as Uint8Array).leaf) await visit(raw[1])
  }
  if (!equalsBytes(root, KECCAK256_RLP)) await visit(root)
  return found
}

/** A database that records what is put into it. */
function recording(db: TrieNodeDb): TrieNodeDb & { written: Map<string, Uint8Array> } {
  const written = new Map<string, Uint8Array>()
  return {
    written,
    get: (hash) => db.get(hash),
    put: async (hash, node) => {
      written.set(bytesToHex(hash), node)
      await db.put(hash, node)
    },
  }
}

/**
 * Applies `writes` both ways to the trie holding `entries`: with MPT's put and del one by one,
 * and with updateTrie in one batch; the roots must agree, every key must read back, and
 * updateTrie must have written only nodes of the new state.
 */
async function agree(
  hashed: boolean,
  entries: [Uint8Array, Uint8Array][],
  writes: { key: Uint8Array; value: Uint8Array | undefined }[],
  { oneByOne = true } = {},
) {
  const db = new MapDB<string, Uint8Array>()
  const reference = await seeded(db, hashed, entries)
  const before = reference.root()
  const batchDb = recording(reference.database())
  const applied: TrieWrite[] = writes.map(({ key, value }) => ({ key: hashed ? keccak_256(key) : key, value }))
  const root = await updateTrie(batchDb, before, applied, keccak_256)

  if (oneByOne) {
    for (const { key, value } of writes) {
      if (value === undefined) await reference.del(key)
      else await reference.put(key, value)
    }
    expect(bytesToHex(root)).toBe(bytesToHex(reference.root()))
  }

  const state = new Map(entries.map(([key, value]) => [bytesToHex(key), value]))
  for (const { key, value } of writes) {
    if (value === undefined) state.delete(bytesToHex(key))
    else state.set(bytesToHex(key), value)
  }
  // The same root as a trie built afresh from the state the writes leave.
  const fresh = await seeded(new MapDB(), hashed, [...state].map(([key, value]) => [hexToBytes(key as `0x${string}`), value]))
  expect(bytesToHex(root)).toBe(bytesToHex(fresh.root()))
  const reader = new MerklePatriciaTrie({ db, useKeyHashing: hashed, valueEncoding: 'view', root })
  for (const [key, value] of state) expect(bytesToHex((await reader.get(hexToBytes(key as `0x${string}`)))!)).toBe(bytesToHex(value))

  const reached = await reachable(reference.database(), root)
  for (const key of batchDb.written.keys()) expect(reached.has(key), `written node ${key} is in the new state`).toBe(true)
  return { root, written: batchDb.written }
}

/** `count` writes drawn from the trie's own keys (updates and deletes) and new ones. */
function mixedWrites(draw: ReturnType<typeof shape>, entries: [Uint8Array, Uint8Array][], count: number) {
  return Array.from({ length: count }, () => {
    const roll = draw.next(10)
    const key = entries.length > 0 && roll < 6 ? entries[draw.next(entries.length)][0] : draw.key()
    return { key, value: roll % 3 === 0 ? undefined : draw.value() }
  })
}

describe('updateTrie', () => {
  it('writes into the empty trie, and deleting everything gives the empty root again', async () => {
    const draw = shape(1, { keyBytes: 32, alphabet: 256, maxValue: 80 })
    const writes = Array.from({ length: 20 }, () => ({ key: draw.key(), value: draw.value() }))
    const { root } = await agree(true, [], writes)
    expect(root).not.toEqual(KECCAK256_RLP)
    const entries = writes.map(({ key, value }): [Uint8Array, Uint8Array] => [key, value])
    const { root: emptied, written } = await agree(true, entries, writes.map(({ key }) => ({ key, value: undefined })))
    expect(emptied).toEqual(KECCAK256_RLP)
    expect(written.size).toBe(0)
  })

  it.each([
    ['hashed keys, account-sized values', true, { keyBytes: 32, alphabet: 256, maxValue: 80 }],
    ['hashed keys, slot-sized values', true, { keyBytes: 32, alphabet: 256, maxValue: 4 }],
    ['short keys of few nibbles (extensions, splits, merges, embedded nodes)', false, { keyBytes: 3, alphabet: 4, maxValue: 3 }],
    ['one-byte keys', false, { keyBytes: 1, alphabet: 16, maxValue: 40 }],
  ] as const)('agrees with MerklePatriciaTrie on random puts and deletes: %s', async (_name, hashed, keyShape) => {
    for (let seed = 1; seed <= 40; seed++) {
      const draw = shape(seed, keyShape)
      const size = draw.next(60)
      const entries: [Uint8Array, Uint8Array][] = Array.from({ length: size }, () => [draw.key(), draw.value()])
      await agree(hashed, entries, mixedWrites(draw, entries, 1 + draw.next(12)))
    }
  })

  // Compared with a trie built afresh only: MPT's del of a branch's child, where the branch keeps
  // a value and one other child, collapses the branch and loses the value (the key reads as
  // absent after it). Only keys of different lengths make such a branch; the state's are all 32
  // bytes.
  it('agrees on keys of different lengths, a branch holding a value of its own', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed)
      const key = () => Uint8Array.from({ length: 1 + next(3) }, () => next(3) * 17)
      const value = () => Uint8Array.from({ length: 1 + next(40) }, () => 1 + next(255))
      const entries: [Uint8Array, Uint8Array][] = Array.from({ length: next(20) }, () => [key(), value()])
      const writes = Array.from({ length: 1 + next(8) }, () => ({ key: next(3) === 0 && entries.length ? entries[next(entries.length)][0] : key(), value: next(3) === 0 ? undefined : value() }))
      await agree(false, entries, writes, { oneByOne: false })
    }
  })

  it('writes each changed node once and nothing for writes that change nothing', async () => {
    const draw = shape(7, { keyBytes: 32, alphabet: 256, maxValue: 80 })
    const entries: [Uint8Array, Uint8Array][] = Array.from({ length: 300 }, () => [draw.key(), draw.value()])
    const unchanged = await agree(true, entries, [
      { key: entries[3][0], value: entries[3][1] },
      { key: draw.key(), value: undefined },
    ])
    expect(unchanged.written.size).toBe(0)
    // Three accounts changed in a trie of 300 (a root branch over 16 branches, most leaves one level
    // below them): the root once, and at most three nodes on each key's path below it.
    const three = await agree(true, entries, [0, 1, 2].map((i) => ({ key: entries[i][0], value: draw.value() })))
    expect(three.written.size).toBeGreaterThanOrEqual(4)
    expect(three.written.size).toBeLessThanOrEqual(1 + 3 * 3)
  })

  it('names a node the database lacks', async () => {
    const db = new MapDB<string, Uint8Array>()
    const trie = await seeded(db, true, [[Uint8Array.of(1), Uint8Array.of(2, 3)]])
    const missing = trie.root()
    db.del(bytesToHex(missing).slice(2))
    await expect(updateTrie(trie.database(), missing, [{ key: keccak_256(Uint8Array.of(5)), value: Uint8Array.of(9) }], keccak_256)).rejects.toThrow(
      `the trie node ${bytesToHex(missing)} is not in the trie's database`,
    )
  })
})
