import { expect, test, vi } from 'vitest'
import { DEV, rpc, startNode } from '../../support/chain.ts'
import { FlakyStore } from '../../support/flakyStore.ts'
import { signTransfer, txHash } from '../../support/rawTx.ts'

/**
 * Read-committed (docs/architecture.md, "Storage and durability"): while a block's commit is in
 * flight, every other client still sees the chain as stored — no block, receipt, transaction,
 * log, state or notification of it — and sees it all once the sender could be told.
 */

test('while a block is being stored, other clients see none of it; once stored, all of it', async () => {
  const store = new FlakyStore()
  const node = await startNode({ store })
  const call = rpc(node)
  const heads: unknown[] = []
  node.on('block', (block) => heads.push(block.number))
  const filter = await call<string>('eth_newBlockFilter')
  const balance = await call<string>('eth_getBalance', DEV[1].address, 'latest')
  const raw = await signTransfer(0, 5n)
  const hash = txHash(raw)

  store.hold()
  let acknowledged = false
  const sent = call('eth_sendRawTransaction', raw).then(() => (acknowledged = true))
  // Let the miner build the block and hand it to the (held) store.
  while (!pendingCommit(node)) await new Promise((resolve) => setTimeout(resolve, 5))

  expect(await call('eth_blockNumber')).toBe('0x0')
  expect(await call('eth_getBlockByNumber', '0x1', false)).toBeNull()
  expect(await call<{ number: string }>('eth_getBlockByNumber', 'latest', false)).toMatchObject({ number: '0x0' })
  expect(await call('eth_getTransactionReceipt', hash)).toBeNull()
  // Mined but not stored: neither in a stored block nor in the stored pool.
  expect(await call('eth_getTransactionByHash', hash)).toBeNull()
  expect(await call('eth_getBalance', DEV[1].address, 'latest')).toBe(balance)
  expect(await call('eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x0')
  // `pending` is the nonce a new transaction must take: the block on its way used nonce 0.
  expect(await call('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x1')
  expect(await call('eth_getLogs', { fromBlock: '0x0', toBlock: 'latest' })).toEqual([])
  expect(await call('eth_getFilterChanges', filter)).toEqual([])
  expect(heads).toEqual([])
  expect(acknowledged).toBe(false)

  store.release()
  await sent
  expect(await call('eth_blockNumber')).toBe('0x1')
  expect(await call('eth_getTransactionReceipt', hash)).toMatchObject({ status: '0x1', blockNumber: '0x1' })
  expect(BigInt(await call<string>('eth_getBalance', DEV[1].address, 'latest'))).toBe(BigInt(balance) + 5n)
  expect(await call<string[]>('eth_getFilterChanges', filter)).toHaveLength(1)
  expect(heads).toEqual([1n])
})

test('a second client polling for the receipt never sees it before its block is stored (200 tries)', async () => {
  const store = new FlakyStore()
  const node = await startNode({ store })
  const call = rpc(node)
  let early = 0
  for (let nonce = 0; nonce < 200; nonce++) {
    const raw = await signTransfer(nonce)
    const hash = txHash(raw)
    // A store that takes a while per commit, released from a timer: the reader polls meanwhile.
    store.hold()
    const sent = call('eth_sendRawTransaction', raw)
    setTimeout(() => store.release(), 1)
    for (;;) {
      const receipt = await call('eth_getTransactionReceipt', hash)
      if (receipt !== null) {
        if (!store.commits.some((c) => c.blocks.some((b) => b.number === BigInt(nonce + 1)))) early++
        break
      }
      await new Promise((resolve) => setImmediate(resolve))
    }
    await sent
  }
  expect(early).toBe(0)
})

test('a pooled transaction is seen once its pool entry is stored, and stays pending until its block is', async () => {
  const store = new FlakyStore()
  const node = await startNode({ store, mining: { mode: 'manual' } })
  const call = rpc(node)
  const raw = await signTransfer(0, 5n)
  const queuedRaw = await signTransfer(2, 5n) // a nonce gap: queued
  const hash = txHash(raw)
  const emptyPool = { pending: {}, queued: {} }

  store.hold()
  let acknowledged = false
  const sent = Promise.all([call('eth_sendRawTransaction', raw), call('eth_sendRawTransaction', queuedRaw)]).then(() => (acknowledged = true))
  while (node.pool.size < 2) await new Promise((resolve) => setTimeout(resolve, 5))

  expect(await call('txpool_content')).toEqual(emptyPool)
  expect(await call('txpool_status')).toEqual({ pending: '0x0', queued: '0x0' })
  expect(await call('txpool_inspect')).toEqual(emptyPool)
  expect(await call('eth_getTransactionByHash', hash)).toBeNull()
  expect(await call('zks_getTransactionDetails', hash)).toBeNull()
  expect(await call('debug_getRawTransaction', hash)).toBe('0x')
  expect(await call<{ transactions: unknown[] }>('eth_getBlockByNumber', 'pending', false)).toMatchObject({ number: '0x0', transactions: [] })
  expect(await call('eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x0')
  expect(acknowledged).toBe(false)

  store.release()
  await sent
  expect(await call('txpool_status')).toEqual({ pending: '0x1', queued: '0x1' })
  expect(await call('eth_getTransactionByHash', hash)).toMatchObject({ hash, blockNumber: null })
  expect(await call('zks_getTransactionDetails', hash)).toMatchObject({ status: 'pending' })

  // Mined, its block on its way to the store: still pending in the pool the store holds.
  store.hold()
  const mined = call('evm_mine')
  while (!pendingCommit(node)) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(node.pool.size).toBe(1)
  expect(await call('txpool_status')).toEqual({ pending: '0x1', queued: '0x1' })
  expect(await call('eth_getTransactionByHash', hash)).toMatchObject({ hash, blockNumber: null })
  expect(await call('eth_getTransactionReceipt', hash)).toBeNull()

  store.release()
  await mined
  expect(await call('txpool_status')).toEqual({ pending: '0x0', queued: '0x1' })
  expect(await call('eth_getTransactionByHash', hash)).toMatchObject({ hash, blockNumber: '0x1' })
})

test('a batch is seen sealed once the block that seals it is stored', async () => {
  let now = 1_800_000_000_000
  const store = new FlakyStore()
  const node = await startNode({ store, batches: { maxAgeMs: 60_000 }, now: () => now })
  const call = rpc(node)
  await call('eth_sendRawTransaction', await signTransfer(0))
  expect(await call<{ l1BatchNumber: string | null }>('eth_getBlockByNumber', '0x1', false)).toMatchObject({ l1BatchNumber: null })

  // Block 2 joins batch 1 past its age limit, so it seals it; the store holds it back.
  now += 61_000
  store.hold()
  const sent = call('eth_sendRawTransaction', await signTransfer(1))
  while (!pendingCommit(node)) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(node.chain.batch(1n)?.sealed).toBe(true) // the miner's view
  expect(await call('zks_L1BatchNumber')).toBe('0x0')
  expect(await call('zks_getL1BatchBlockRange', 1)).toBeNull()
  expect(await call('zks_getL1BatchDetails', 1)).toBeNull()
  expect(await call('zks_getBlockDetails', 2)).toBeNull()
  // Era's status of a block whose batch is not sealed yet is 'sealed'; 'verified' once it is.
  expect(await call('zks_getBlockDetails', 1)).toMatchObject({ status: 'sealed' })
  expect(await call('eth_getBlockByNumber', 'finalized', false)).toMatchObject({ number: '0x0' })
  expect(await call('eth_getBlockByNumber', '0x1', false)).toMatchObject({ l1BatchNumber: null })

  store.release()
  await sent
  expect(await call('zks_L1BatchNumber')).toBe('0x1')
  expect(await call('zks_getL1BatchBlockRange', 1)).toEqual(['0x1', '0x2'])
  expect(await call('zks_getL1BatchDetails', 1)).toMatchObject({ number: 1, status: 'verified' })
  expect(await call('zks_getBlockDetails', 1)).toMatchObject({ status: 'verified' })
  expect(await call('eth_getBlockByNumber', 'finalized', false)).toMatchObject({ number: '0x2' })
  expect(await call('eth_getBlockByNumber', '0x1', false)).toMatchObject({ l1BatchNumber: '0x1' })
})

test('an idle batch sealed by its timer is seen sealed once the seal is stored', async () => {
  const store = new FlakyStore()
  const node = await startNode({ store, batches: { maxAgeMs: 50 } })
  const call = rpc(node)
  await call('eth_sendRawTransaction', await signTransfer(0))
  const detailsBefore = await call<Record<string, unknown>>('zks_getBlockDetails', 1)

  // The seal stores block 1 again, sealing batch 1: held, readers still see the batch open.
  store.hold()
  const commits = store.commits.length
  while (!node.chain.batch(1n)?.sealed) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(await call('zks_L1BatchNumber')).toBe('0x0')
  expect(await call('zks_getL1BatchDetails', 1)).toBeNull()
  expect(await call('zks_getBlockDetails', 1)).toEqual(detailsBefore)
  expect(await call('eth_getBlockByNumber', '0x1', false)).toMatchObject({ l1BatchNumber: null })
  expect(await call('eth_getBlockByNumber', 'finalized', false)).toMatchObject({ number: '0x0' })

  store.release()
  await vi.waitFor(() => expect(store.commits.length).toBeGreaterThan(commits))
  expect(await call('zks_L1BatchNumber')).toBe('0x1')
  expect(await call('zks_getL1BatchDetails', 1)).toMatchObject({ number: 1 })
  expect(detailsBefore).toMatchObject({ status: 'sealed' })
  expect(await call('zks_getBlockDetails', 1)).toMatchObject({ status: 'verified' })
  expect(await call('eth_getBlockByNumber', '0x1', false)).toMatchObject({ l1BatchNumber: '0x1' })
})

/** Whether the node has a block past the published head (the miner appended it, the store has not taken it). */
function pendingCommit(node: Awaited<ReturnType<typeof startNode>>): boolean {
  return node.chain.tip.number > node.chain.head.number
}
