import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { hexToBytes } from '@ethereumjs/util'
import { parseEther, Transaction, Wallet } from 'ethers'
import { expect, test } from 'vitest'
import type { RpcError } from '../../../src/core/index.ts'
import type { Node } from '../../../src/core/node.ts'
import { FlakyStore } from '../../support/flakyStore.ts'
import type { ChainCommit } from '../../../src/core/store/store.ts'
import { DEV, devWallet, rpc, startNode } from '../../support/chain.ts'
import { keccak256 } from '../../../src/core/exec/fastCrypto.ts'
import { bytesToHex } from '../../../src/core/hexText.ts'

let node: Node

test('a block the store refuses is not acknowledged, and the chain rolls back to its parent', async () => {
  const store = new FlakyStore()
  node = await startNode({ store })
  const call = rpc(node)
  const wallet = devWallet(node)
  await (await wallet.sendTransaction({ to: DEV[1].address, value: parseEther('1') })).wait()
  const head = await call<{ hash: string }>('eth_getBlockByNumber', 'latest', false)
  const balance = await call('eth_getBalance', DEV[0].address, 'latest')

  store.failing = true
  const raw = await wallet.signTransaction({ to: DEV[1].address, value: parseEther('2'), nonce: 1, chainId: 260, gasLimit: 21_000, maxFeePerGas: 45_250_000n, maxPriorityFeePerGas: 0n, type: 2 })
  const error = (await call('eth_sendRawTransaction', raw).then(
    () => expect.unreachable('the transaction was acknowledged'),
    (e: unknown) => e,
  )) as RpcError
  expect(error.code).toBe(-32000)
  expect(error.message).toMatch(/block 2 could not be stored \(QuotaExceededError.*\); the chain is back at block 1/)

  // Nothing of the failed block is visible: head, state, nonce, the transaction itself.
  expect(await call('eth_blockNumber')).toBe('0x1')
  expect((await call<{ hash: string }>('eth_getBlockByNumber', 'latest', false)).hash).toBe(head.hash)
  expect(await call('eth_getBalance', DEV[0].address, 'latest')).toBe(balance)
  expect(await call('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x1')
  expect(await call('eth_getTransactionByHash', Transaction.from(raw).hash)).toBeNull()

  // Once the store works again the same transaction goes through, and its block carries the
  // trie nodes the failed commit could not write.
  store.failing = false
  const hash = await call<string>('eth_sendRawTransaction', raw)
  expect(await call('eth_blockNumber')).toBe('0x2')
  expect((await call<{ status: string }>('eth_getTransactionReceipt', hash)).status).toBe('0x1')
  const last = store.commits.at(-1)!
  expect(last.blocks.map((b) => b.number)).toEqual([2n])
  expect(last.nodes.size).toBeGreaterThan(0)
})

test('the genesis block and every mined block reach the store, each in one commit', async () => {
  const store = new FlakyStore()
  node = await startNode({ store })
  const wallet = devWallet(node)
  for (let i = 0; i < 3; i++) await (await wallet.sendTransaction({ to: DEV[1].address, value: 1n })).wait()
  expect(store.commits.map((c) => c.blocks.map((b) => b.number))).toEqual([[0n], [1n], [2n], [3n]])
  expect(store.commits.map((c) => c.meta.headNumber)).toEqual([0n, 1n, 2n, 3n])
  expect(store.commits[0].nodes.size).toBeGreaterThan(0)
})

/** A store whose commits take a while, as IndexedDB's do, and that can refuse on demand. */
class SlowStore extends FlakyStore {
  override async commit(commit: ChainCommit): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 15))
    await super.commit(commit)
  }
}

async function signedTransfers(count: number) {
  const wallet = new Wallet(DEV[0].key)
  return Promise.all(
    Array.from({ length: count }, (_, nonce) =>
      wallet.signTransaction({ to: DEV[1].address, value: 1n, nonce, chainId: 260, gasLimit: 21_000, maxFeePerGas: 45_250_000n, maxPriorityFeePerGas: 0n, type: 2 }),
    ),
  )
}

test('blocks mined while a commit is in flight join the next commit (group commit)', async () => {
  const store = new SlowStore()
  node = await startNode({ store })
  const raws = await signedTransfers(20)
  const hashes = await Promise.all(raws.map((raw) => rpc(node)('eth_sendRawTransaction', raw)))
  expect(hashes).toHaveLength(20)
  // Every transaction got its own block (automine), every block is stored, in fewer commits.
  expect(await rpc(node)('eth_blockNumber')).toBe('0x14')
  const stored = store.commits.flatMap((c) => c.blocks.map((b) => b.number))
  expect(stored).toEqual(Array.from({ length: 21 }, (_, i) => BigInt(i)))
  expect(store.commits.length).toBeLessThan(21)
  expect(store.commits.at(-1)!.meta.headNumber).toBe(20n)
})

test('a refused group commit fails every block not yet stored, and the chain carries on from the last stored one', async () => {
  const store = new SlowStore()
  node = await startNode({ store })
  const raws = await signedTransfers(10)
  await rpc(node)('eth_sendRawTransaction', raws[0])
  store.failing = true
  const outcomes = await Promise.allSettled(raws.slice(1, 6).map((raw) => rpc(node)('eth_sendRawTransaction', raw)))
  expect(outcomes.every((o) => o.status === 'rejected' && /could not be stored/.test((o.reason as RpcError).message))).toBe(true)
  expect(await rpc(node)('eth_blockNumber')).toBe('0x1')
  expect(await rpc(node)('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x1')

  store.failing = false
  for (const raw of raws.slice(1)) await rpc(node)('eth_sendRawTransaction', raw)
  expect(await rpc(node)('eth_blockNumber')).toBe('0xa')
  expect(store.commits.at(-1)!.meta.headNumber).toBe(10n)
  // What the store holds opens as the same chain.
  const reopened = await startNode({ store })
  expect(await rpc(reopened)('eth_getBlockByNumber', 'latest', false)).toEqual(await rpc(node)('eth_getBlockByNumber', 'latest', false))
  await reopened.close()
})

test('under manual mining, transactions of a block the store refuses stay pending and are mined later', async () => {
  const store = new FlakyStore()
  node = await startNode({ store, mining: { mode: 'manual' } })
  const hashes = await Promise.all((await signedTransfers(2)).map((raw) => rpc(node)<string>('eth_sendRawTransaction', raw)))
  store.failing = true
  await expect(node.miner.mine()).rejects.toThrow(/could not be stored/)
  for (const hash of hashes) {
    expect(await rpc(node)<{ blockHash: string | null }>('eth_getTransactionByHash', hash)).toMatchObject({ blockHash: null })
  }
  store.failing = false
  await node.miner.mine()
  for (const hash of hashes) expect((await rpc(node)<{ status: string }>('eth_getTransactionReceipt', hash)).status).toBe('0x1')
})

test('a transaction whose execution needs a trie node the store lost fails with that node named; it is not mined as dropped, and the chain stays where it was', async () => {
  const store = new FlakyStore()
  node = await startNode({ store })
  const wallet = devWallet(node)
  await (await wallet.sendTransaction({ to: DEV[1].address, value: parseEther('1') })).wait()
  // The recipient's account leaf: found by the trie's own path to it, from the head's state.
  const trie = new MerklePatriciaTrie({ db: node.state.nodes, useKeyHashing: true, valueEncoding: 'view', root: node.chain.head.header.stateRoot })
  const { node: leaf } = await trie.findPath(keccak256(hexToBytes(DEV[2].address as `0x${string}`)))
  expect(leaf).not.toBeNull()
  const lost = bytesToHex(keccak256(leaf!.serialize())).slice(2)
  await node.close()

  const get = store.nodes.get.bind(store.nodes)
  store.nodes.get = async (key) => (key === lost ? undefined : get(key))
  node = await startNode({ store })
  const call = rpc(node)
  const raw = await wallet.signTransaction({ to: DEV[2].address, value: 1n, nonce: 1, chainId: 260, gasLimit: 21_000, maxFeePerGas: 45_250_000n, maxPriorityFeePerGas: 0n, type: 2 })
  const error = (await call('eth_sendRawTransaction', raw).then(
    () => expect.unreachable('the transaction was acknowledged'),
    (e: unknown) => e,
  )) as RpcError
  expect(error.code).toBe(-32603)
  expect(error.message).toContain(`trie node ${lost} is missing from the store`)
  expect(await call('eth_blockNumber')).toBe('0x1')
  expect(await call('eth_getTransactionByHash', Transaction.from(raw).hash)).toBeNull()
  await node.close()
})
