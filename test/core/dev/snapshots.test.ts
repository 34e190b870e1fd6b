import { expect, test } from 'vitest'
import { MemoryStore } from '../../../src/core/store/memoryStore.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { DEV, devWallet, rpc, startNode } from '../../support/chain.ts'

const A = '0x00000000000000000000000000000000000000a1'
async function open(config: Parameters<typeof startNode>[0] = {}) {
  const node = await startNode(config)
  return { node, call: rpc(node) }
}

test('nested snapshots: each revert goes back to its own point, and consumes the later snapshots', async () => {
  const { call } = await open()
  const balances = async () => call<string>('eth_getBalance', A, 'latest')
  const first = await call<string>('evm_snapshot')
  await call('anvil_setBalance', A, '0x1')
  await call('evm_mine')
  const second = await call<string>('evm_snapshot')
  await call('anvil_setBalance', A, '0x2')
  await call('evm_mine')
  const third = await call<string>('evm_snapshot')
  await call('anvil_setBalance', A, '0x3')
  expect([first, second, third]).toEqual(['0x1', '0x2', '0x3'])

  expect(await call('evm_revert', second)).toBe(true)
  expect([await balances(), await call('eth_blockNumber')]).toEqual(['0x1', '0x1'])
  // The third was taken after the second: its chain is gone, and so is the second itself.
  // Consumed: false, as Hardhat, anvil (1.7.1, run here) and ganache answer, and nothing moves.
  const head = await call('eth_blockNumber')
  expect(await call('evm_revert', third)).toBe(false)
  expect(await call('evm_revert', second)).toBe(false)
  expect(await call('eth_blockNumber')).toBe(head)
  // The first still stands, and ids are not reused.
  expect(await call('evm_snapshot')).toBe('0x4')
  expect(await call('evm_revert', first)).toBe(true)
  expect([await balances(), await call('eth_blockNumber')]).toEqual(['0x0', '0x0'])
})

test('a snapshot copies nothing: no trie node is written to take one', async () => {
  const { node, call } = await open()
  const wallet = devWallet(node)
  for (let i = 0; i < 3; i++) await (await wallet.sendTransaction({ to: A, value: 1n })).wait()
  const nodesBefore = node.state.nodes.size
  const id = await call<string>('evm_snapshot')
  expect(node.state.nodes.size).toBe(nodesBefore)
  await (await wallet.sendTransaction({ to: A, value: 1n })).wait()
  await call('evm_revert', id)
  // Re-mining the same content writes nothing new either: the nodes were all kept.
  expect(await call('eth_getBalance', A, 'latest')).toBe('0x3')
})

test('revert restores the pool, the clock and the next-block settings as they were', async () => {
  const { node, call } = await open({ mining: { mode: 'manual' } })
  const wallet = devWallet(node)
  const pooled = await wallet.sendTransaction({ to: A, value: 1n, nonce: 0 })
  await call('anvil_setCoinbase', A)
  const id = await call<string>('evm_snapshot')

  await call('evm_increaseTime', 86_400)
  await call('anvil_setCoinbase', DEV[2].address)
  await wallet.sendTransaction({ to: A, value: 2n, nonce: 1 })
  await call('evm_mine')
  expect(await call('txpool_status')).toEqual({ pending: '0x0', queued: '0x0' })

  await call('evm_revert', id)
  // The transaction pooled at the snapshot is pooled again; the later one is gone.
  expect(await call('txpool_status')).toEqual({ pending: '0x1', queued: '0x0' })
  expect(await call<{ hash: string }>('eth_getTransactionByHash', pooled.hash)).toMatchObject({ blockNumber: null })
  expect(await call('eth_coinbase')).toBe(A)
  await call('evm_mine')
  const block = await call<{ timestamp: string; miner: string; transactions: string[] }>('eth_getBlockByNumber', 'latest', false)
  expect(block.transactions).toEqual([pooled.hash])
  expect(block.miner).toBe(A)
  // The day added after the snapshot is undone with it.
  expect(Number(block.timestamp)).toBeLessThan(Date.now() / 1000 + 3600)
})

test('a revert is stored: a node reopened on the store finds the reverted chain', async () => {
  const store = new MemoryStore()
  const { node, call } = await open({ store })
  const id = await call<string>('evm_snapshot')
  await (await devWallet(node).sendTransaction({ to: A, value: 5n })).wait()
  await call('anvil_mine', '0x3')
  await call('evm_revert', id)
  await node.close()

  const reopened = rpc((await open({ store })).node)
  expect(await reopened('eth_blockNumber')).toBe('0x0')
  expect(await reopened('eth_getBalance', A, 'latest')).toBe('0x0')
  // Snapshots live in memory only.
  expect(await reopened('evm_revert', id)).toBe(false)
})

test('polling filters rewound by a revert report the blocks mined in place of the dropped ones', async () => {
  const { call } = await open()
  const id = await call<string>('evm_snapshot')
  const filter = await call<string>('eth_newBlockFilter')
  await call('anvil_mine', '0x2')
  expect(await call<string[]>('eth_getFilterChanges', filter)).toHaveLength(2)
  await call('evm_revert', id)
  await call('evm_mine')
  const [hash] = await call<string[]>('eth_getFilterChanges', filter)
  expect(hash).toBe((await call<{ hash: string }>('eth_getBlockByNumber', '0x1', false)).hash)
})

test('a snapshot id never taken is false; a malformed one gets a clear error', async () => {
  const { call } = await open()
  expect(await call('evm_revert', '0x99')).toBe(false)
  await expectRpcError(call('evm_revert', 'latest'), -32602, /^invalid argument 0 \(id\): expected a snapshot id as evm_snapshot returned it \(hex, like "0x1"\), got "latest"/)
  await expectRpcError(call('evm_revert'), -32602, 'missing value for required argument 0 (id)')
})
