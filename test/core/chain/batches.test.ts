import { concat, Contract, keccak256, toBeHex } from 'ethers'
import { describe, expect, test, vi } from 'vitest'
import { MemoryStore } from '../../../src/core/index.ts'
import { createNode, type Node } from '../../../src/core/node.ts'
import { DEV, devWallet, mineBlock, rpc, startNode } from '../../support/chain.ts'
import { signTx } from '../../support/rawTx.ts'
import { FlakyStore } from '../../support/flakyStore.ts'

const MESSENGER = '0x0000000000000000000000000000000000008008'
const MESSENGER_ABI = ['function sendToL1(bytes message) returns (bytes32)']

type Json = Record<string, unknown>
const hex = (n: number | bigint) => `0x${n.toString(16)}`

/** Sends a transfer from dev account 0 (nonce given) and returns its hash. */
async function transfer(node: Node, nonce: number): Promise<string> {
  return rpc(node)('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce, to: DEV[1].address, value: 1n }))
}

async function sendMessage(node: Node, message: string): Promise<string> {
  const messenger = new Contract(MESSENGER, MESSENGER_ABI, devWallet(node))
  const sent = await messenger.sendToL1(message)
  await sent.wait()
  return sent.hash
}

describe('default: every block seals its own batch', () => {
  test('batch number = block number on blocks, transactions, receipts and logs; finalized = latest', async () => {
    const node = await startNode()
    const call = rpc(node)
    const hash = await sendMessage(node, '0x01')
    const block = await call<Json>('eth_getBlockByNumber', 'latest', true)
    expect(block.l1BatchNumber).toBe('0x1')
    expect(block.l1BatchTimestamp).toBe(block.timestamp)
    const receipt = await call<Json & { logs: Json[]; l2ToL1Logs: Json[] }>('eth_getTransactionReceipt', hash)
    expect([receipt.l1BatchNumber, receipt.l1BatchTxIndex]).toEqual(['0x1', '0x0'])
    expect(receipt.logs[0].l1BatchNumber).toBe('0x1')
    expect(receipt.l2ToL1Logs[0]).toMatchObject({ l1BatchNumber: '0x1', txIndexInL1Batch: '0x0' })
    expect(await call<Json>('eth_getBlockByNumber', 'finalized', false)).toMatchObject({ number: '0x1' })
    expect(await call<Json>('eth_getBlockByNumber', 'safe', false)).toMatchObject({ number: '0x1' })
    expect(await call('zks_L1BatchNumber')).toBe('0x1')
    expect(await call('zks_getL1BatchBlockRange', 0)).toEqual(['0x0', '0x0'])
  })
})

describe('batches of several blocks', () => {
  test('an open batch shows no batch anywhere, proves nothing, and is not final', async () => {
    const node = await startNode({ batches: { maxBlocks: 3 } })
    const call = rpc(node)
    const hash = await sendMessage(node, '0x01')

    const block = await call<Json>('eth_getBlockByNumber', '0x1', true)
    expect([block.l1BatchNumber, block.l1BatchTimestamp]).toEqual([null, null])
    expect((block.transactions as Json[])[0]).toMatchObject({ l1BatchNumber: null, l1BatchTxIndex: null })
    const receipt = await call<Json & { logs: Json[]; l2ToL1Logs: Json[] }>('eth_getTransactionReceipt', hash)
    expect([receipt.l1BatchNumber, receipt.l1BatchTxIndex]).toEqual([null, null])
    expect(receipt.logs[0].l1BatchNumber).toBeNull()
    expect(receipt.l2ToL1Logs[0]).toMatchObject({ l1BatchNumber: null, txIndexInL1Batch: null, blockNumber: '0x1' })
    const logs = await call<Json[]>('eth_getLogs', { fromBlock: '0x1', address: MESSENGER })
    expect(logs[0].l1BatchNumber).toBeNull()

    expect(await call<Json>('eth_getBlockByNumber', 'finalized', false)).toMatchObject({ number: '0x0' })
    expect(await call('zks_L1BatchNumber')).toBe('0x0')
    expect(await call('zks_getL1BatchBlockRange', 1)).toBeNull()
    expect(await call('zks_getL1BatchDetails', 1)).toBeNull()
    expect(await call('zks_getL2ToL1LogProof', hash)).toBeNull()
    expect(await call('zks_getProof', DEV[0].address, [], 1)).toBeNull()
    // The block knows the batch it joins (era's details do too), still "sealed", not "verified".
    expect(await call('zks_getBlockDetails', 1)).toMatchObject({ l1BatchNumber: 1, status: 'sealed' })
    expect(await call('zks_getTransactionDetails', hash)).toMatchObject({ status: 'included' })
  })

  test('the third block seals the batch: the three blocks share its number and timestamp, tx indexes run across them', async () => {
    let now = 1_800_000_000_000
    const node = await startNode({ batches: { maxBlocks: 3 }, now: () => now })
    const call = rpc(node)
    const hashes: string[] = []
    for (let nonce = 0; nonce < 3; nonce++) {
      hashes.push(await transfer(node, nonce))
      now += 5000
    }
    const blocks = await Promise.all([1, 2, 3].map((n) => call<Json>('eth_getBlockByNumber', hex(n), false)))
    expect(blocks.map((b) => b.l1BatchNumber)).toEqual(['0x1', '0x1', '0x1'])
    expect(blocks.map((b) => b.l1BatchTimestamp)).toEqual([blocks[0].timestamp, blocks[0].timestamp, blocks[0].timestamp])
    expect(blocks[2].timestamp).not.toBe(blocks[0].timestamp)
    const receipts = await Promise.all(hashes.map((h) => call<Json>('eth_getTransactionReceipt', h)))
    expect(receipts.map((r) => [r.transactionIndex, r.l1BatchTxIndex])).toEqual([
      ['0x0', '0x0'],
      ['0x0', '0x1'],
      ['0x0', '0x2'],
    ])
    expect(await call('zks_getL1BatchBlockRange', 1)).toEqual(['0x1', '0x3'])
    expect(await call('zks_getL1BatchBlockRange', '0x1')).toEqual(['0x1', '0x3'])
    expect(await call('zks_getL1BatchDetails', 1)).toMatchObject({ number: 1, l2TxCount: 3, status: 'verified', timestamp: Number(blocks[0].timestamp) })
    expect((await call<Json>('zks_getL1BatchDetails', 1)).rootHash).toBe((await call<Json>('eth_getBlockByNumber', '0x3', false)).stateRoot)
    expect(await call<Json>('eth_getBlockByNumber', 'finalized', false)).toMatchObject({ number: '0x3' })

    await transfer(node, 3)
    expect(await call<Json>('eth_getBlockByNumber', '0x4', false)).toMatchObject({ l1BatchNumber: null })
    expect(await call('zks_getBlockDetails', 4)).toMatchObject({ l1BatchNumber: 2 })
    expect(await call('zks_L1BatchNumber')).toBe('0x1')
  })

  test('messages from several blocks of one batch: each proof leads to one root, recomputed here from the receipts', async () => {
    const node = await startNode({ batches: { maxBlocks: 3 } })
    const call = rpc(node)
    const first = await sendMessage(node, '0xaa')
    await transfer(node, 1)
    const third = await sendMessage(node, '0xbbbb')
    const receipts = await Promise.all([first, third].map((h) => call<Json & { l2ToL1Logs: Json[] }>('eth_getTransactionReceipt', h)))
    expect(receipts.map((r) => r.l1BatchTxIndex)).toEqual(['0x0', '0x2'])

    // The batch's leaves from its receipts' L2→L1 logs (era's 88-byte layout), the tree by hand.
    const leaves = receipts.map((r) => {
      const log = r.l2ToL1Logs[0]
      return keccak256(concat(['0x0001', toBeHex(r.l1BatchTxIndex as string, 2), log.sender as string, log.key as string, log.value as string]))
    })
    let level = leaves
    let empty = keccak256(new Uint8Array(88))
    for (let depth = 0; depth < 14; depth++) {
      const next: string[] = []
      for (let i = 0; i < level.length; i += 2) next.push(keccak256(concat([level[i], level[i + 1] ?? empty])))
      level = next
      empty = keccak256(concat([empty, empty]))
    }
    const root = keccak256(concat([level[0], `0x${'00'.repeat(32)}`]))

    const proofs = await Promise.all([first, third].map((h) => call<{ id: number; root: string; proof: string[] }>('zks_getL2ToL1LogProof', h, null, null)))
    expect(proofs.map((p) => p.id)).toEqual([0, 1])
    expect(proofs.map((p) => p.root)).toEqual([root, root])
    expect(proofs[0].proof[1]).toBe(leaves[1])
    expect(proofs[1].proof[1]).toBe(leaves[0])

    // The message proof (era before May 2025) finds the same log from the block, sender and hash.
    const byMessage = await call<Json>('zks_getL2ToL1MsgProof', 3, DEV[0].address, keccak256('0xbbbb'))
    expect(byMessage).toEqual(proofs[1])
    expect(await call('zks_getL2ToL1MsgProof', 3, DEV[1].address, keccak256('0xbbbb'))).toBeNull()
  })

  test('identical messages in one batch: the message proof tells them apart by the event’s log position', async () => {
    const node2 = await startNode({ batches: { maxBlocks: 2 } })
    const first = await sendMessage(node2, '0x77')
    const second = await sendMessage(node2, '0x77')
    const call2 = rpc(node2)
    const proofA = await call2<Json>('zks_getL2ToL1LogProof', first)
    const proofB = await call2<Json>('zks_getL2ToL1LogProof', second)
    expect([proofA.id, proofB.id]).toEqual([0, 1])
    // logPosition is the block-level logIndex of the L1MessageSent event in the named block.
    expect(await call2<Json>('zks_getL2ToL1MsgProof', 2, DEV[0].address, keccak256('0x77'), 0)).toEqual(proofB)
    expect(await call2<Json>('zks_getL2ToL1MsgProof', 1, DEV[0].address, keccak256('0x77'), 0)).toEqual(proofA)
    expect(await call2<Json>('zks_getL2ToL1MsgProof', 1, DEV[0].address, keccak256('0x77'))).toEqual(proofA)
    expect(await call2('zks_getL2ToL1MsgProof', 2, DEV[0].address, keccak256('0x77'), 5)).toBeNull()
  })
})

describe('sealing by age', () => {
  test('a block mined after the age limit seals the batch it joins', async () => {
    let now = 1_800_000_000_000
    const node = await startNode({ batches: { maxAgeMs: 60_000 }, now: () => now })
    const call = rpc(node)
    await transfer(node, 0)
    now += 30_000
    await transfer(node, 1)
    expect(await call('zks_getL1BatchBlockRange', 1)).toBeNull()
    now += 31_000
    await transfer(node, 2)
    expect(await call('zks_getL1BatchBlockRange', 1)).toEqual(['0x1', '0x3'])
    await transfer(node, 3)
    expect(await call<Json>('eth_getBlockByNumber', '0x4', false)).toMatchObject({ l1BatchNumber: null })
  })

  test('an idle chain seals its open batch when the batch is due (a timer), and the seal is stored', async () => {
    const store = new MemoryStore()
    const node = await startNode({ batches: { maxAgeMs: 50 }, store })
    const call = rpc(node)
    await transfer(node, 0)
    expect(await call<Json>('eth_getBlockByNumber', 'finalized', false)).toMatchObject({ number: '0x0' })
    await vi.waitFor(async () => expect(await call<Json>('eth_getBlockByNumber', 'finalized', false)).toMatchObject({ number: '0x1' }), {
      timeout: 3000,
      interval: 20,
    })
    expect(await call<Json>('eth_getBlockByNumber', '0x1', false)).toMatchObject({ l1BatchNumber: '0x1' })
    await node.close()

    const reopened = await startNode({ batches: { maxAgeMs: 50 }, store })
    expect(await rpc(reopened)<Json>('eth_getBlockByNumber', 'finalized', false)).toMatchObject({ number: '0x1' })
    expect(await rpc(reopened)('zks_getL1BatchBlockRange', 1)).toEqual(['0x1', '0x1'])
  })
})

test('a node reopened on a store finds its batches: sealed ones sealed, the open one still open', async () => {
  const store = new MemoryStore()
  const first = await startNode({ batches: { maxBlocks: 2 }, store })
  for (let nonce = 0; nonce < 3; nonce++) await transfer(first, nonce)
  const before = await rpc(first)<Json>('eth_getBlockByNumber', '0x3', true)
  await first.close()

  const second = await startNode({ batches: { maxBlocks: 2 }, store })
  const call = rpc(second)
  expect(await call<Json>('eth_getBlockByNumber', '0x3', true)).toEqual(before)
  expect(before.l1BatchNumber).toBeNull()
  expect(await call('zks_getL1BatchBlockRange', 1)).toEqual(['0x1', '0x2'])
  expect(await call<Json>('eth_getBlockByNumber', 'finalized', false)).toMatchObject({ number: '0x2' })
  await transfer(second, 3)
  expect(await call('zks_getL1BatchBlockRange', 2)).toEqual(['0x3', '0x4'])
  expect((await call<Json>('eth_getTransactionReceipt', (before.transactions as Json[])[0].hash)).l1BatchTxIndex).toBe('0x0')
})

test('a sealing block the store refuses: the chain rolls back, the batch is open again, the next block seals it', async () => {
  const store = new FlakyStore()
  const node = await startNode({ batches: { maxBlocks: 2 }, store })
  const call = rpc(node)
  await transfer(node, 0)
  store.failing = true
  await expect(transfer(node, 1)).rejects.toMatchObject({ message: expect.stringMatching(/block 2 could not be stored/) })
  expect(await call('eth_blockNumber')).toBe('0x1')
  expect(await call<Json>('eth_getBlockByNumber', '0x1', false)).toMatchObject({ l1BatchNumber: null })
  expect(await call('zks_getL1BatchBlockRange', 1)).toBeNull()
  expect(await call<Json>('eth_getBlockByNumber', 'finalized', false)).toMatchObject({ number: '0x0' })

  store.failing = false
  await transfer(node, 1)
  expect(await call('zks_getL1BatchBlockRange', 1)).toEqual(['0x1', '0x2'])
  expect(await call<Json>('eth_getBlockByNumber', '0x1', false)).toMatchObject({ l1BatchNumber: '0x1' })
})

test('manual mining: a block of several transactions joins the open batch with consecutive batch indexes', async () => {
  const node = await startNode({ mining: { mode: 'manual' }, batches: { maxBlocks: 2 } })
  const call = rpc(node)
  await transfer(node, 0)
  await mineBlock(node)
  const hashes = [await transfer(node, 1), await transfer(node, 2)]
  await mineBlock(node)
  const receipts = await Promise.all(hashes.map((h) => call<Json>('eth_getTransactionReceipt', h)))
  expect(receipts.map((r) => [r.blockNumber, r.transactionIndex, r.l1BatchTxIndex])).toEqual([
    ['0x2', '0x0', '0x1'],
    ['0x2', '0x1', '0x2'],
  ])
  expect(await call('zks_getL1BatchDetails', 1)).toMatchObject({ l2TxCount: 3 })
})

test('batch options are checked', async () => {
  await expect(createNode({ batches: { maxBlocks: 0 } })).rejects.toThrow('batches.maxBlocks must be a positive integer')
  await expect(createNode({ batches: { maxBlocks: 1.5 } })).rejects.toThrow('batches.maxBlocks must be a positive integer')
  await expect(createNode({ batches: { maxAgeMs: -1 } })).rejects.toThrow('batches.maxAgeMs must be a positive number')
  await expect(createNode({ batches: { maxBlocks: Infinity } })).rejects.toThrow('no batch would ever seal')
})
