import { expect, test } from 'vitest'
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

/** Whether the node has a block past the published head (the miner appended it, the store has not taken it). */
function pendingCommit(node: Awaited<ReturnType<typeof startNode>>): boolean {
  return node.chain.tip.number > node.chain.head.number
}
