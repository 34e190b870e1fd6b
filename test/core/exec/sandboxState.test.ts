/**
 * A sandbox's tries remember their reads across runs (each run ends in a revert): what they
 * answer must stay what a fresh trie at the same root answers, whatever the runs wrote.
 */
import { Account, createAddressFromString, MapDB, setLengthLeft, type Address } from '@ethereumjs/util'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { describe, expect, test } from 'vitest'
import { ReadMemoTrie, SandboxStateManager } from '../../../src/core/exec/sandboxState.ts'
import { createChainCommon } from '../../../src/core/exec/chainCommon.ts'

const bytes = (...values: number[]) => new Uint8Array(values)
const slot = (n: number) => setLengthLeft(bytes(n), 32)
const TOKEN = createAddressFromString('0x00000000000000000000000000000000000000aa')
const HOLDER = createAddressFromString('0x00000000000000000000000000000000000000bb')

describe('ReadMemoTrie', () => {
  test('a read follows the root: after a write, at another root, after a revert', async () => {
    const trie = new ReadMemoTrie({ db: new MapDB() })
    await trie.put(bytes(1), bytes(10))
    const first = trie.root()
    expect(await trie.get(bytes(1))).toEqual(bytes(10))
    expect(await trie.get(bytes(2))).toBeNull()

    await trie.put(bytes(1), bytes(11))
    await trie.put(bytes(2), bytes(20))
    expect(await trie.get(bytes(1))).toEqual(bytes(11))
    expect(await trie.get(bytes(2))).toEqual(bytes(20))

    trie.root(first)
    expect(await trie.get(bytes(1))).toEqual(bytes(10))
    expect(await trie.get(bytes(2))).toBeNull()

    trie.checkpoint()
    await trie.del(bytes(1))
    expect(await trie.get(bytes(1))).toBeNull()
    await trie.revert()
    expect(await trie.get(bytes(1))).toEqual(bytes(10))
  })

  test('its copies (storage tries) remember too, each for itself', async () => {
    const trie = new ReadMemoTrie({ db: new MapDB() })
    await trie.put(bytes(1), bytes(10))
    const copy = trie.shallowCopy(false)
    expect(copy).toBeInstanceOf(ReadMemoTrie)
    await copy.put(bytes(1), bytes(12))
    expect(await copy.get(bytes(1))).toEqual(bytes(12))
    expect(await trie.get(bytes(1))).toEqual(bytes(10))
  })
})

describe('SandboxStateManager', () => {
  const common = createChainCommon(260)

  /** A state with a token (two slots) and a holder, committed; its root. */
  async function seeded(): Promise<{ db: MapDB<string, Uint8Array>; roots: Uint8Array[] }> {
    const db = new MapDB<string, Uint8Array>()
    const writer = new MerkleStateManager({ common, trie: new MerklePatriciaTrie({ db, useKeyHashing: true, common, valueEncoding: 'view' }) })
    const roots: Uint8Array[] = []
    await writer.putAccount(TOKEN, new Account(1n, 0n))
    await writer.putAccount(HOLDER, new Account(0n, 100n))
    await writer.putStorage(TOKEN, slot(0), bytes(7))
    await writer.putStorage(TOKEN, slot(1), bytes(8))
    roots.push(await writer.getStateRoot())
    await writer.putStorage(TOKEN, slot(0), bytes(9))
    await writer.putAccount(HOLDER, new Account(0n, 50n))
    roots.push(await writer.getStateRoot())
    return { db, roots }
  }

  function sandboxAt(db: MapDB<string, Uint8Array>, root: Uint8Array) {
    const trie = new ReadMemoTrie({ db, useKeyHashing: true, common, valueEncoding: 'view', root })
    return new SandboxStateManager({ common, trie, caches: new Caches() })
  }

  const balance = async (state: MerkleStateManager, address: Address) => (await state.getAccount(address))?.balance

  /** One sandbox use: everything in it is reverted. */
  async function run(state: MerkleStateManager, work: () => Promise<void>): Promise<void> {
    await state.checkpoint()
    try {
      await work()
    } finally {
      await state.revert()
    }
  }

  test('reads stay the root’s whatever runs wrote, cleared or read before', async () => {
    const { db, roots } = await seeded()
    const state = sandboxAt(db, roots[0])
    for (let i = 0; i < 2; i++) {
      await run(state, async () => {
        expect(await state.getStorage(TOKEN, slot(0))).toEqual(bytes(7))
        expect(await balance(state, HOLDER)).toBe(100n)
        await state.putStorage(TOKEN, slot(0), bytes(1))
        await state.putAccount(HOLDER, new Account(0n, 1n))
        expect(await state.getStorage(TOKEN, slot(0))).toEqual(bytes(1))
        expect(await balance(state, HOLDER)).toBe(1n)
      })
    }
    // A whole storage replaced in a run (a `state` override) moves the kept storage trie's root.
    await run(state, async () => {
      await state.clearStorage(TOKEN)
      expect(await state.getStorage(TOKEN, slot(1))).toEqual(new Uint8Array())
    })
    expect(await state.getStorage(TOKEN, slot(0))).toEqual(bytes(7))
    expect(await state.getStorage(TOKEN, slot(1))).toEqual(bytes(8))
    expect(await balance(state, HOLDER)).toBe(100n)
  })

  test('moved to a later root, it reads that root', async () => {
    const { db, roots } = await seeded()
    const state = sandboxAt(db, roots[0])
    await run(state, async () => {
      expect(await state.getStorage(TOKEN, slot(0))).toEqual(bytes(7))
    })
    await state.setStateRoot(roots[1])
    await run(state, async () => {
      expect(await state.getStorage(TOKEN, slot(0))).toEqual(bytes(9))
      expect(await state.getStorage(TOKEN, slot(1))).toEqual(bytes(8))
      expect(await balance(state, HOLDER)).toBe(50n)
    })
    await state.setStateRoot(roots[0])
    expect(await state.getStorage(TOKEN, slot(0))).toEqual(bytes(7))
    expect(await balance(state, HOLDER)).toBe(100n)
  })

  test('the same storage trie serves every run while its root stays', async () => {
    const { db, roots } = await seeded()
    const state = sandboxAt(db, roots[0])
    const tries = new Set<unknown>()
    const internals = state as unknown as { _getStorageTrie(address: Address, account: Account): MerklePatriciaTrie }
    for (let i = 0; i < 3; i++) {
      await run(state, async () => {
        tries.add(internals._getStorageTrie(TOKEN, (await state.getAccount(TOKEN))!))
      })
    }
    expect(tries.size).toBe(1)
    expect(await state.getStorage(TOKEN, slot(0))).toEqual(bytes(7))
  })
})
