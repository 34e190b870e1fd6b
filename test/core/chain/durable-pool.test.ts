import { expect, test } from 'vitest'
import { MemoryStore } from '../../../src/core/store/memoryStore.ts'
import type { MiningConfig } from '../../../src/core/config.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { DEV, rpc, startNode } from '../../support/chain.ts'
import { FlakyStore } from '../../support/flakyStore.ts'
import { signTransfer, txHash } from '../../support/rawTx.ts'

/**
 * The pool and the node's settings are stored like blocks (docs/architecture.md, "Storage and
 * durability"): what a sender was told is pooled, and what a dev-node method set, a reopened
 * node finds again. A reopened node on the same MemoryStore is a restart.
 */

async function open(store: MemoryStore, mining?: MiningConfig) {
  const node = await startNode({ store, ...(mining && { mining }) })
  return { node, call: rpc(node) }
}

async function poolHashes(call: ReturnType<typeof rpc>): Promise<string[]> {
  const content = await call<{ pending: Record<string, Record<string, { hash: string }>>; queued: Record<string, Record<string, { hash: string }>> }>(
    'txpool_content',
  )
  const all = [...Object.values(content.pending), ...Object.values(content.queued)].flatMap((byNonce) => Object.values(byNonce))
  return all.map((tx) => tx.hash)
}

test.each([
  ['manual', { mode: 'manual' } as MiningConfig],
  ['interval', { mode: 'interval', intervalMs: 3_600_000 } as MiningConfig],
])('under %s mining every acknowledged transaction is stored, and a restart mines them in arrival order', async (_, mining) => {
  const store = new FlakyStore()
  const { node, call } = await open(store, mining)
  const raws = await Promise.all([2, 0, 1].map((nonce) => signTransfer(nonce)))
  for (const raw of raws) await call('eth_sendRawTransaction', raw)
  // Each send answered once its commit carried it.
  expect(store.commits.at(-1)!.pool).toBeDefined()
  await node.close()

  const { call: again } = await open(store)
  expect(await again('anvil_getAutomine')).toBe(false)
  expect((await poolHashes(again)).sort()).toEqual(raws.map(txHash).sort())
  await again('evm_mine')
  const block = await again<{ transactions: string[] }>('eth_getBlockByNumber', 'latest', false)
  expect(block.transactions).toEqual([raws[1], raws[2], raws[0]].map(txHash))
  expect(await poolHashes(again)).toEqual([])
  // The commit that stored the block emptied the stored pool: a third start finds none.
  const { call: third } = await open(store)
  expect(await poolHashes(third)).toEqual([])
})

test('under automine a future nonce is acknowledged once stored, and a restart brings it back', async () => {
  const store = new FlakyStore()
  const { node, call } = await open(store)
  const [later, first] = await Promise.all([signTransfer(1), signTransfer(0)])
  await call('eth_sendRawTransaction', later)
  expect(store.commits.at(-1)!.pool?.added.length).toBe(1)
  await node.close()

  const { call: again } = await open(store)
  expect(await poolHashes(again)).toEqual([txHash(later)])
  // The gap fills: the stored one comes along, as it would have before the restart.
  await again('eth_sendRawTransaction', first)
  expect(await again('eth_blockNumber')).toBe('0x2')
  expect(await again('eth_getTransactionByHash', txHash(later))).toMatchObject({ blockNumber: '0x2' })
  expect(await poolHashes(again)).toEqual([])
})

test.each([
  ['given at start', { mode: 'auto' } as MiningConfig],
  ['stored', undefined],
])('a restart in automine (%s) mines the executable pooled transactions at start; a queued one waits', async (how, auto) => {
  const store = new FlakyStore()
  const { node, call } = await open(store, { mode: 'manual' })
  const raws = await Promise.all([1, 0, 3].map((nonce) => signTransfer(nonce)))
  for (const raw of raws) await call('eth_sendRawTransaction', raw)
  // Automine stored for the next start: the pool waits as it is until then.
  if (how === 'stored') await call('evm_setAutomine', true)
  expect(await call('eth_blockNumber')).toBe('0x0')
  await node.close()

  const { node: restarted, call: again } = await open(store, auto)
  expect(restarted.mining.automine).toBe(true)
  // Mined before the start resolved, one transaction a block as automine mines, in nonce order.
  expect(await again('eth_blockNumber')).toBe('0x2')
  expect(await again('eth_getTransactionByHash', txHash(raws[1]))).toMatchObject({ blockNumber: '0x1' })
  expect(await again('eth_getTransactionByHash', txHash(raws[0]))).toMatchObject({ blockNumber: '0x2' })
  expect(await poolHashes(again)).toEqual([txHash(raws[2])])
  await restarted.close()
  const { call: third } = await open(store, auto)
  expect(await third('eth_blockNumber')).toBe('0x2')
  expect(await poolHashes(third)).toEqual([txHash(raws[2])])
})

test('a restart in automine whose store refuses the pooled transactions\' blocks fails, and keeps them pooled', async () => {
  const store = new FlakyStore()
  const { node, call } = await open(store, { mode: 'manual' })
  const raw = await signTransfer(0)
  await call('eth_sendRawTransaction', raw)
  await node.close()
  store.failing = true
  await expect(startNode({ store, mining: { mode: 'auto' } })).rejects.toThrow(/block 1 could not be stored/)
  store.failing = false
  const { call: again } = await open(store, { mode: 'manual' })
  expect(await poolHashes(again)).toEqual([txHash(raw)])
})

test('a pooled transaction the store refuses is not acknowledged and leaves the pool', async () => {
  const store = new FlakyStore()
  const { call } = await open(store, { mode: 'manual' })
  store.failing = true
  await expectRpcError(call('eth_sendRawTransaction', await signTransfer(0)), -32000, /could not be stored/)
  store.failing = false
  expect(await poolHashes(call)).toEqual([])
})

test('dev-node settings and snapshots survive a restart; a snapshot taken before it still reverts', async () => {
  const store = new MemoryStore()
  const { node, call } = await open(store)
  const snapshot = await call<string>('evm_snapshot')
  await call('evm_mine')
  await call('evm_increaseTime', 1000)
  await call('anvil_impersonateAccount', DEV[2].address)
  await call('anvil_setMinGasPrice', '0x7')
  await call('anvil_setBlockTimestampInterval', 5)
  await call('evm_setIntervalMining', 3600)
  const time = BigInt((await call<{ timestamp: string }>('eth_getBlockByNumber', 'latest', false)).timestamp)
  await node.close()

  const { node: reopened, call: again } = await open(store)
  expect(reopened.mining.current).toEqual({ mode: 'interval', intervalMs: 3_600_000 })
  expect(reopened.clock.offsetSeconds).toBe(1000n)
  expect(reopened.clock.interval).toBe(5n)
  expect(reopened.params.minGasPrice).toBe(7n)
  expect(reopened.impersonation.list()).toEqual([DEV[2].address.toLowerCase()])
  await again('evm_mine')
  expect(BigInt((await again<{ timestamp: string }>('eth_getBlockByNumber', 'latest', false)).timestamp)).toBe(time + 5n)
  expect(await again('evm_revert', snapshot)).toBe(true)
  expect(await again('eth_blockNumber')).toBe('0x0')
  // Consumed, and stored so: a third start cannot revert to it again.
  const { call: third } = await open(store)
  expect(await third('evm_revert', snapshot)).toBe(false)
})

test('a dev-node setting the store refuses is not acknowledged and the node keeps the setting it had', async () => {
  const store = new FlakyStore()
  const { node, call } = await open(store)
  await call('evm_increaseTime', 100)
  await call('anvil_impersonateAccount', DEV[2].address)
  const snapshot = await call<string>('evm_snapshot')
  const before = {
    mining: node.mining.current,
    offset: node.clock.offsetSeconds,
    interval: node.clock.interval,
    minGasPrice: node.params.minGasPrice,
    coinbase: await call('eth_coinbase'),
    accounts: await call('eth_accounts'),
  }

  store.failing = true
  const refused = /^the change could not be stored \(QuotaExceededError.*\); the chain is unchanged at block 0$/
  await expectRpcError(call('evm_setIntervalMining', 3600), -32000, refused)
  await expectRpcError(call('evm_setAutomine', false), -32000, refused)
  await expectRpcError(call('evm_increaseTime', 1000), -32000, refused)
  await expectRpcError(call('anvil_setBlockTimestampInterval', 5), -32000, refused)
  await expectRpcError(call('anvil_setMinGasPrice', '0x7'), -32000, refused)
  await expectRpcError(call('anvil_setCoinbase', DEV[1].address), -32000, refused)
  await expectRpcError(call('anvil_impersonateAccount', DEV[1].address), -32000, refused)
  await expectRpcError(call('anvil_stopImpersonatingAccount', DEV[2].address), -32000, refused)
  await expectRpcError(call('evm_snapshot'), -32000, refused)
  store.failing = false

  expect(node.mining.current).toEqual(before.mining)
  expect(await call('eth_mining')).toBe(true)
  expect(node.clock.offsetSeconds).toBe(before.offset)
  expect(node.clock.interval).toBe(before.interval)
  expect(node.params.minGasPrice).toBe(before.minGasPrice)
  expect(await call('eth_coinbase')).toBe(before.coinbase)
  expect(await call('eth_accounts')).toEqual(before.accounts)
  // Automine still mines, and the snapshot taken before the refusals is the one that reverts.
  await call('eth_sendRawTransaction', await signTransfer(0))
  expect(await call('eth_blockNumber')).toBe('0x1')
  expect(await call('evm_revert', snapshot)).toBe(true)
  expect(await call('eth_blockNumber')).toBe('0x0')
})

test('a refused setting goes back to the mode given at start, not to the stored one it overrode', async () => {
  const store = new FlakyStore()
  const { node, call } = await open(store)
  await call('evm_setAutomine', false)
  await node.close()
  const { node: explicit, call: again } = await open(store, { mode: 'auto' })
  store.failing = true
  await expectRpcError(again('evm_setIntervalMining', 3600), -32000, /could not be stored/)
  store.failing = false
  expect(explicit.mining.current).toEqual({ mode: 'auto' })
})

test('a mining mode given at start wins over the stored one', async () => {
  const store = new MemoryStore()
  const { node, call } = await open(store)
  await call('evm_setAutomine', false)
  await node.close()
  const { node: explicit } = await open(store, { mode: 'auto' })
  expect(explicit.mining.current).toEqual({ mode: 'auto' })
  await explicit.close()
  // The explicit choice is stored in turn only when something else changes; the stored one stays until then.
  const { node: plain } = await open(store)
  expect(plain.mining.current).toEqual({ mode: 'manual' })
})

test('pooled transactions sent together share commits (group commit), each acknowledged once stored', async () => {
  const store = new FlakyStore()
  const { call } = await open(store, { mode: 'manual' })
  const raws = await Promise.all(Array.from({ length: 20 }, (_, nonce) => signTransfer(nonce)))
  const commits = store.commits.length
  // A slow disk: the first send's commit waits, and the other 19 join the next one.
  store.hold()
  let acknowledged = 0
  const sends = raws.map((raw) => call('eth_sendRawTransaction', raw).then(() => acknowledged++))
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(acknowledged).toBe(0)
  store.release()
  await Promise.all(sends)
  expect(store.commits.length - commits).toBeLessThanOrEqual(2)
  expect(store.commits.slice(commits).flatMap((c) => c.pool?.added ?? [])).toHaveLength(20)
})
