/**
 * The miner's state caches are emptied between blocks once they took enough entries
 * (ForkableStateManager.trimCaches): ethereumjs' default caches never evict, and would hold every
 * account and slot the chain ever touched. What they held stays readable from the trie.
 */
import { Account, createAddressFromBigInt, setLengthLeft } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import type { ForkableStateManager } from '../../../src/core/fork/forkedStateManager.ts'
import { rpc, startNode } from '../../support/chain.ts'

test('the caches are emptied past their limit, between blocks, and what they held reads back from the trie', async () => {
  const node = await startNode()
  const sm = node.state.vm.stateManager as ForkableStateManager
  const caches = (sm as unknown as { _caches: { account: { size(): number }; storage: { size(): number } } })._caches
  const addresses = Array.from({ length: 30 }, (_, i) => createAddressFromBigInt(0xc0ffee00n + BigInt(i)))
  for (const [i, address] of addresses.entries()) {
    await sm.putAccount(address, new Account(0n, BigInt(i + 1)))
    await sm.putStorage(address, setLengthLeft(Uint8Array.of(1), 32), Uint8Array.of(i + 1))
  }
  await sm.getStateRoot() // flushed, as a block's root flushes them
  expect(caches.account.size()).toBeGreaterThanOrEqual(30)
  sm.trimCaches(1_000_000)
  expect(caches.account.size()).toBeGreaterThanOrEqual(30)
  sm.trimCaches(60)
  expect([caches.account.size(), caches.storage.size()]).toEqual([0, 0])
  for (const [i, address] of addresses.entries()) {
    expect((await sm.getAccount(address))?.balance).toBe(BigInt(i + 1))
    expect(await sm.getStorage(address, setLengthLeft(Uint8Array.of(1), 32))).toEqual(Uint8Array.of(i + 1))
  }
  // The chain mines on as before.
  await rpc(node)('evm_mine')
  expect(await rpc(node)('eth_blockNumber')).toBe('0x1')
})
