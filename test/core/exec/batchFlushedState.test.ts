import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, bytesToHex, createAddressFromString, MapDB, setLengthLeft, type Address } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { BatchFlushedStateManager } from '../../../src/core/exec/batchFlushedState.ts'
import { createChainCommon } from '../../../src/core/exec/chainCommon.ts'
import { random } from '../../support/random.ts'

const common = createChainCommon(260)

function stateManager<T extends MerkleStateManager>(Kind: new (options: ConstructorParameters<typeof MerkleStateManager>[0]) => T): T {
  const trie = new MerklePatriciaTrie({ db: new MapDB<string, Uint8Array>(), useKeyHashing: true, common, valueEncoding: 'view' })
  return new Kind({ common, trie, caches: new Caches() })
}


const slot = (n: number) => setLengthLeft(Uint8Array.of(n), 32)

/**
 * ethereumjs' state manager with the one fix BatchFlushedStateManager makes outside its flush: a
 * deleted account's storage trie is forgotten with it (ethereumjs reads and writes a re-created
 * account's slots over the old ones).
 */
class Reference extends MerkleStateManager {
  override async deleteAccount(address: Address): Promise<void> {
    await super.deleteAccount(address)
    this._storageTries = {}
  }
}

test("blocks of random account, slot, code and deletion changes leave the same state roots as ethereumjs' flush, and the state reads back after the caches are emptied", async () => {
  const reference = stateManager(Reference)
  const batched = stateManager(BatchFlushedStateManager)
  const both = async (change: (sm: MerkleStateManager) => Promise<unknown>) => {
    await change(reference)
    await change(batched)
  }
  const next = random(11)
  const addresses: Address[] = Array.from({ length: 12 }, (_, i) => createAddressFromString(`0x${(0x5000 + i).toString(16).padStart(40, '0')}`))
  const living = new Set<number>()

  for (let block = 0; block < 60; block++) {
    await both((sm) => sm.checkpoint())
    for (let change = 1 + next(8); change > 0; change--) {
      const i = next(addresses.length)
      const address = addresses[i]
      const roll = next(10)
      if (roll < 4 || !living.has(i)) {
        const balance = BigInt(next(1_000_000))
        await both(async (sm) => {
          const account = (await sm.getAccount(address)) ?? new Account()
          account.balance = balance
          await sm.putAccount(address, account)
        })
        living.add(i)
      } else if (roll < 8) {
        // Slots of every size, zero among them (a delete from the storage trie).
        const value = next(4) === 0 ? new Uint8Array(0) : Uint8Array.from({ length: 1 + next(32) }, () => next(256))
        const key = slot(next(24))
        await both((sm) => sm.putStorage(address, key, value))
      } else if (roll < 9) {
        const code = Uint8Array.from({ length: 1 + next(60) }, () => next(256))
        await both((sm) => sm.putCode(address, code))
      } else {
        await both((sm) => sm.deleteAccount(address))
        living.delete(i)
      }
    }
    await both((sm) => sm.commit())
    const expected = bytesToHex(await reference.getStateRoot())
    expect(bytesToHex(await batched.getStateRoot()), `block ${block}`).toBe(expected)

    if (block % 5 === 4) {
      // Emptied caches: every read goes through the tries, the storage tries ethereumjs keeps per
      // account among them.
      for (const sm of [reference, batched]) (sm as unknown as { _caches: Caches })._caches.clear()
      for (const address of addresses) {
        expect((await batched.getAccount(address))?.serialize()).toEqual((await reference.getAccount(address))?.serialize())
        expect(await batched.getCode(address)).toEqual(await reference.getCode(address))
        for (let n = 0; n < 24; n++) expect(await batched.getStorage(address, slot(n))).toEqual(await reference.getStorage(address, slot(n)))
      }
    }
  }
})

test('an account deleted and made again has none of its old slots, in its block and after', async () => {
  const state = stateManager(BatchFlushedStateManager)
  const address = createAddressFromString(`0x${'11'.repeat(20)}`)
  const block = async (change: () => Promise<void>) => {
    await state.checkpoint()
    await change()
    await state.commit()
    await state.getStateRoot()
  }
  await block(async () => {
    await state.putAccount(address, new Account(0n, 1n))
    await state.putStorage(address, slot(1), Uint8Array.of(5))
  })
  ;(state as unknown as { _caches: Caches })._caches.clear()
  expect(await state.getStorage(address, slot(1))).toEqual(Uint8Array.of(5))
  await block(async () => {
    await state.deleteAccount(address)
    await state.putAccount(address, new Account(0n, 2n))
    expect(await state.getStorage(address, slot(1))).toEqual(new Uint8Array())
    await state.putStorage(address, slot(2), Uint8Array.of(6))
  })
  ;(state as unknown as { _caches: Caches })._caches.clear()
  expect(await state.getStorage(address, slot(1))).toEqual(new Uint8Array())
  expect(await state.getStorage(address, slot(2))).toEqual(Uint8Array.of(6))
  const fresh = stateManager(BatchFlushedStateManager)
  await fresh.putAccount(address, new Account(0n, 2n))
  await fresh.putStorage(address, slot(2), Uint8Array.of(6))
  expect(bytesToHex(await state.getStateRoot())).toBe(bytesToHex(await fresh.getStateRoot()))
})
