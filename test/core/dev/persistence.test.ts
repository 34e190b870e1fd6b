import { hexToBytes } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { MemoryStore } from '../../../src/core/store/memoryStore.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { DEV, deploy, devWallet, rpc, startNode } from '../../support/chain.ts'
import { FlakyStore } from '../../support/flakyStore.ts'
import { reachableNodeKeys } from '../../support/reachableNodes.ts'

const A = '0x00000000000000000000000000000000000000a1'
const WORD = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

async function open(store: MemoryStore, config: Parameters<typeof startNode>[0] = {}) {
  const node = await startNode({ store, ...config })
  return { node, call: rpc(node) }
}

test('state edits are stored before they are answered, and a reopened node finds them', async () => {
  const store = new FlakyStore()
  const { node, call } = await open(store)
  const token = await deploy(devWallet(node), 'Token', 'Kept', 'K', 1000n)
  const tokenAddress = (await token.getAddress()).toLowerCase()
  const commits = store.commits.length

  await call('anvil_setBalance', A, '0xde0b6b3a7640000')
  await call('hardhat_setNonce', A, '0x7')
  await call('anvil_setCode', A, '0x5f545f5260205ff3')
  await call('anvil_setStorageAt', A, '0x0', WORD(42))
  await call('anvil_setStorageAt', tokenAddress, '0x2', WORD(99))
  // One commit per edit, each storing the head's record again with the trie nodes it made.
  expect(store.commits.slice(commits).map((c) => c.blocks.map((b) => b.number))).toEqual([[1n], [1n], [1n], [1n], [1n]])
  expect(store.commits.slice(commits).every((c) => c.nodes.size > 0 && c.meta.headNumber === 1n)).toBe(true)
  const head = await call<{ hash: string; stateRoot: string }>('eth_getBlockByNumber', 'latest', false)
  await node.close()

  const { call: again } = await open(store)
  expect(await again('eth_blockNumber')).toBe('0x1')
  // The block is the same block: its header (and its hash) did not change.
  expect(await again('eth_getBlockByNumber', 'latest', false)).toMatchObject({ hash: head.hash, stateRoot: head.stateRoot })
  expect(await again('eth_getBalance', A, 'latest')).toBe('0xde0b6b3a7640000')
  expect(await again('eth_getTransactionCount', A, 'latest')).toBe('0x7')
  expect(await again('eth_getCode', A, 'latest')).toBe('0x5f545f5260205ff3')
  expect(await again('eth_call', { to: A }, 'latest')).toBe(WORD(42))
  expect(await again('eth_getStorageAt', tokenAddress, '0x2', 'latest')).toBe(WORD(99))
})

test('the next block is built on the edited state, and the edit survives it and a restart', async () => {
  const store = new MemoryStore()
  const { node, call } = await open(store)
  await call('anvil_setBalance', DEV[2].address, '0x1')
  await expect(devWallet(node, 1).sendTransaction({ to: DEV[2].address, value: 10n })).resolves.toBeDefined()
  expect(await call('eth_getBalance', DEV[2].address, 'latest')).toBe('0xb')
  // Reads at the edited block's number see the edit too, as in Hardhat.
  expect(await call('eth_getBalance', DEV[2].address, '0x0')).toBe('0x1')
  await node.close()

  const { call: again } = await open(store)
  expect(await again('eth_getBalance', DEV[2].address, 'latest')).toBe('0xb')
  expect(await again('eth_getBalance', DEV[2].address, '0x0')).toBe('0x1')
  // Tracing replays block 1 on the edited state of block 0 and agrees with the receipt.
  const [{ txHash }] = await again<{ txHash: string }[]>('debug_traceBlockByNumber', '0x1', { tracer: 'callTracer' })
  expect(await again('debug_traceTransaction', txHash, { tracer: 'callTracer' })).toMatchObject({ to: DEV[2].address, value: '0xa' })
})

test('an edit on a reopened chain stores its head (a block read back from the store) again whole', async () => {
  const store = new MemoryStore()
  const { node, call } = await open(store)
  const sent = await (await devWallet(node).sendTransaction({ to: DEV[2].address, value: 3n })).wait()
  const head = await call<{ hash: string }>('eth_getBlockByNumber', 'latest', false)
  await node.close()

  const { node: reopened, call: edit } = await open(store)
  await edit('anvil_setBalance', A, '0x5')
  await reopened.close()
  const { call: again } = await open(store)
  expect(await again('eth_getBalance', A, 'latest')).toBe('0x5')
  expect(await again('eth_getBlockByNumber', 'latest', false)).toMatchObject({ hash: head.hash, transactions: [sent!.hash] })
  expect(await again('eth_getTransactionReceipt', sent!.hash)).toMatchObject({ blockHash: head.hash, status: '0x1' })
})

test('a revert on a reopened chain, to a stored block with an edited state, is stored and found by the next restart', async () => {
  const store = new MemoryStore()
  const { node } = await open(store)
  await (await devWallet(node).sendTransaction({ to: DEV[2].address, value: 3n })).wait()
  await node.close()

  const { node: reopened, call: again } = await open(store)
  await again('anvil_setBalance', A, '0x7')
  const id = await again<string>('evm_snapshot')
  await again('anvil_mine', '0x2')
  await again('anvil_setBalance', A, '0x9')
  await again('evm_revert', id)
  expect(await again('eth_blockNumber')).toBe('0x1')
  expect(await again('eth_getBalance', A, 'latest')).toBe('0x7')
  await reopened.close()

  const { call: third } = await open(store)
  expect(await third('eth_blockNumber')).toBe('0x1')
  expect(await third('eth_getBalance', A, 'latest')).toBe('0x7')
  expect(await third('eth_getBalance', DEV[2].address, 'latest')).toBe('0x21e19e0c9bab2400003')
})

test('an edit the store refuses is not acknowledged and leaves the state as it was', async () => {
  const store = new FlakyStore()
  const { call } = await open(store)
  store.failing = true
  const error = await expectRpcError(call('anvil_setBalance', A, '0x5'), -32000, /^the change could not be stored \(QuotaExceededError.*\); the chain is unchanged at block 0$/)
  expect(error).toBeDefined()
  store.failing = false
  expect(await call('eth_getBalance', A, 'latest')).toBe('0x0')
  await call('anvil_setBalance', A, '0x6')
  expect(await call('eth_getBalance', A, 'latest')).toBe('0x6')
})

test('a revert the store refuses leaves the chain as it was, and the snapshot usable', async () => {
  const store = new FlakyStore()
  const { call } = await open(store)
  const id = await call<string>('evm_snapshot')
  await call('anvil_mine', '0x2')
  store.failing = true
  await expectRpcError(call('evm_revert', id), -32000, /^the change could not be stored/)
  expect(await call('eth_blockNumber')).toBe('0x2')
  store.failing = false
  const commits = store.commits.length
  expect(await call('evm_revert', id)).toBe(true)
  expect(await call('eth_blockNumber')).toBe('0x0')
  // One commit drops the blocks and stores the new head again: a store that refuses it leaves
  // the chain whole (a second commit refused after the first would leave the store behind it).
  expect(store.commits.slice(commits).map((c) => [c.dropAbove, c.blocks.map((b) => b.number)])).toEqual([[0n, [0n]]])
})

test('anvil_reset wipes the stored chain: a reopened node finds the new genesis', async () => {
  const store = new MemoryStore()
  const { node, call } = await open(store)
  await (await devWallet(node).sendTransaction({ to: A, value: 5n })).wait()
  await call('anvil_setBalance', A, '0x99')
  const oldGenesis = await call<{ hash: string }>('eth_getBlockByNumber', '0x0', false)
  await new Promise((resolve) => setTimeout(resolve, 1100)) // a new second: a new genesis timestamp and hash
  expect(await call('anvil_reset')).toBeNull()
  const genesis = await call<{ hash: string }>('eth_getBlockByNumber', '0x0', false)
  expect(genesis.hash).not.toBe(oldGenesis.hash)
  await node.close()

  const { call: again } = await open(store)
  expect(await again('eth_blockNumber')).toBe('0x0')
  expect((await again<{ hash: string }>('eth_getBlockByNumber', '0x0', false)).hash).toBe(genesis.hash)
  expect(await again('eth_getBalance', A, 'latest')).toBe('0x0')
  expect(await again('eth_getBalance', DEV[0].address, 'latest')).toBe('0x21e19e0c9bab2400000')
})

test('impersonated transactions are stored and read back with their sender', async () => {
  const store = new MemoryStore()
  const { call, node } = await open(store)
  await call('anvil_setBalance', A, '0xde0b6b3a7640000')
  await call('anvil_impersonateAccount', A)
  const hash = await call<string>('eth_sendTransaction', { from: A, to: DEV[1].address, value: '0x3' })
  const tx = await call('eth_getTransactionByHash', hash)
  const receipt = await call('eth_getTransactionReceipt', hash)
  await node.close()

  const { call: again } = await open(store)
  expect(await again('eth_getTransactionByHash', hash)).toEqual(tx)
  expect(await again('eth_getTransactionReceipt', hash)).toEqual(receipt)
  expect(await again('debug_traceTransaction', hash, { tracer: 'callTracer' })).toMatchObject({ from: A, value: '0x3' })
})

test('anvil_loadState of many accounts stores only the nodes its state root keeps, and a reopened node reads every account', async () => {
  const store = new FlakyStore()
  const { node, call } = await open(store)
  const accounts = Array.from({ length: 40 }, (_, i) => `0x${(0xb000 + i).toString(16).padStart(40, '0')}`)
  const dump = {
    accounts: Object.fromEntries(
      accounts.map((address, i) => [address, { nonce: i, balance: `0x${(i + 1).toString(16)}`, code: '0x', storage: i === 0 ? { '0x1': WORD(5) } : {} }]),
    ),
  }
  const commits = store.commits.length
  expect(await call('anvil_loadState', `0x${Buffer.from(JSON.stringify(dump)).toString('hex')}`)).toBe(true)
  const [edit] = store.commits.slice(commits)
  // The trie nodes it stored, each reached from the new state root (the first version of the
  // trie's top, written once per account, is not).
  const stored = [...edit.nodes.keys()].filter((key) => /^[0-9a-f]{64}$/.test(key))
  const root = hexToBytes((await call<{ stateRoot: string }>('eth_getBlockByNumber', 'latest', false)).stateRoot as `0x${string}`)
  const edited = (node.chain.head.editedStateRoot ?? root) as Uint8Array
  const reached = await reachableNodeKeys(node.state.nodes, edited)
  expect(stored.length).toBeGreaterThan(0)
  for (const key of stored) expect(reached.has(key), key).toBe(true)
  await node.close()

  const { call: again } = await open(store)
  for (const [i, address] of accounts.entries()) {
    expect(await again('eth_getBalance', address, 'latest')).toBe(`0x${(i + 1).toString(16)}`)
    expect(await again('eth_getTransactionCount', address, 'latest')).toBe(`0x${i.toString(16)}`)
  }
  expect(await again('eth_getStorageAt', accounts[0], '0x1', 'latest')).toBe(WORD(5))
})
