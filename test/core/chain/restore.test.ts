import { expect, test } from 'vitest'
import { createNode, type Node } from '../../../src/core/node.ts'
import { ChainStoreError } from '../../../src/core/errors.ts'
import { MemoryStore } from '../../../src/core/store/memoryStore.ts'
import { SCHEMA_VERSION } from '../../../src/core/store/store.ts'
import { DEV, deploy, devWallet, rpc, startNode } from '../../support/chain.ts'

const open = (store: MemoryStore, config = {}): Promise<Node> => startNode({ store, ...config })

test('a node opened on the store of another finds the same chain and carries on from it', async () => {
  const store = new MemoryStore()
  const first = await open(store)
  const wallet = devWallet(first)
  const token = await deploy(wallet, 'Token', 'Kept', 'K', 1000n)
  const tokenAddress = (await token.getAddress()).toLowerCase()
  const sent = await (await wallet.sendTransaction({ to: DEV[1].address, value: 12345n })).wait()
  const before = rpc(first)
  const head = await before<Record<string, unknown>>('eth_getBlockByNumber', 'latest', true)
  const logs = await before('eth_getLogs', { fromBlock: '0x0', address: tokenAddress })
  const receipt = await before('eth_getTransactionReceipt', sent!.hash)
  const code = await before('eth_getCode', tokenAddress, 'latest')
  const pastBalance = await before('eth_getBalance', DEV[1].address, '0x1')
  await first.close()

  const second = await open(store)
  const after = rpc(second)
  expect(await after('eth_getBlockByNumber', 'latest', true)).toEqual(head)
  expect(await after('eth_getLogs', { fromBlock: '0x0', address: tokenAddress })).toEqual(logs)
  expect(await after('eth_getTransactionReceipt', sent!.hash)).toEqual(receipt)
  expect(await after('eth_getCode', tokenAddress, 'latest')).toBe(code)
  expect(await after('eth_getBalance', DEV[1].address, '0x1')).toBe(pastBalance)

  // The restored chain is live: the next transaction takes the next nonce and block.
  const response = await devWallet(second).sendTransaction({ to: DEV[2].address, value: 1n })
  expect(response.nonce).toBe(2)
  expect((await response.wait())!.blockNumber).toBe(Number(head.number) + 1)
  expect((await after<{ parentHash: string }>('eth_getBlockByNumber', 'latest', false)).parentHash).toBe(head.hash)
})

test('a store holding another chain id is refused with a clear error', async () => {
  const store = new MemoryStore()
  await (await open(store, { chainId: 270 })).close()
  await expect(createNode({ store })).rejects.toThrow(
    new ChainStoreError('the stored chain has chain id 270, not 260: open it with chainId 270 or use another store'),
  )
})

test('a store written by a newer schema is refused, not misread', async () => {
  const store = new MemoryStore()
  const node = await open(store)
  await store.commit({ meta: { ...node.writer.meta(), schemaVersion: SCHEMA_VERSION + 1 }, nodes: new Map(), blocks: [] })
  await expect(createNode({ store })).rejects.toThrow(
    `written by a newer pagenode (schema ${SCHEMA_VERSION + 1}; this version reads ${SCHEMA_VERSION})`,
  )
})

test('a store whose blocks do not reach its head is refused', async () => {
  const store = new MemoryStore()
  const node = await open(store)
  await store.commit({ meta: { ...node.writer.meta(), headNumber: 5n }, nodes: new Map(), blocks: [] })
  await expect(createNode({ store })).rejects.toThrow('the stored chain is incomplete: its head is block 5 but 1 blocks are stored')
})
