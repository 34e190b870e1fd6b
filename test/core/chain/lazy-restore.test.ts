/**
 * A restored chain indexes its blocks from their stored records and decodes a block only when
 * something reads its header or transactions; everything it answers is the same as before.
 */
import { expect, test, vi } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { Chain } from '../../../src/core/chain/chain.ts'
import { DecodedBlocks, StoredBlock } from '../../../src/core/chain/storedBlock.ts'
import { decodeBlockRecord, encodeBlockRecord } from '../../../src/core/store/blockCodec.ts'
import { MemoryStore } from '../../../src/core/store/memoryStore.ts'
import { DEV, deploy, devWallet, rpc, startNode } from '../../support/chain.ts'

const open = (store: MemoryStore): Promise<Node> => startNode({ store })

test('a restored chain answers blocks, transactions, receipts and logs exactly as the chain that stored them', async () => {
  const store = new MemoryStore()
  const first = await open(store)
  const wallet = devWallet(first)
  const token = await deploy(wallet, 'Token', 'Lazy', 'L', 1000n)
  const hashes: string[] = []
  for (let i = 0; i < 4; i++) hashes.push((await token.getFunction('transfer')(DEV[1 + (i % 2)].address, BigInt(i + 1))).hash)
  hashes.push((await (await wallet.sendTransaction({ to: DEV[2].address, value: 5n })).wait())!.hash)
  const ask = async (node: Node) => {
    const call = rpc(node)
    const head = Number(await call<string>('eth_blockNumber'))
    const blocks = []
    for (let n = 0; n <= head; n++) {
      const block = await call<{ hash: string }>('eth_getBlockByNumber', `0x${n.toString(16)}`, true)
      blocks.push(block, await call('eth_getBlockByHash', block.hash, false))
    }
    const txs = []
    for (const hash of hashes) txs.push(await call('eth_getTransactionByHash', hash), await call('eth_getTransactionReceipt', hash))
    const logs = await call('eth_getLogs', { fromBlock: '0x0', toBlock: 'latest', address: await token.getAddress() })
    const balance = await call('eth_getBalance', DEV[2].address, '0x2')
    return { blocks, txs, logs, balance }
  }
  const before = await ask(first)
  await first.close()

  const second = await open(store)
  expect(second.chain.head).toBeInstanceOf(StoredBlock)
  expect(await ask(second)).toEqual(before)
  // The restored chain goes on: a new block on top of the stored head.
  const sent = await (await devWallet(second).sendTransaction({ to: DEV[1].address, value: 1n })).wait()
  expect(sent!.blockNumber).toBe(Number(before.blocks.length / 2))
})

test('a stored block is decoded only when its header or transactions are read, and forgotten once many others were', async () => {
  const store = new MemoryStore()
  const first = await open(store)
  await (await devWallet(first).sendTransaction({ to: DEV[1].address, value: 1n })).wait()
  const record = first.chain.head
  const bytes = encodeBlockRecord(record)
  let decodes = 0
  const decode = (b: Uint8Array) => {
    decodes++
    return decodeBlockRecord(b, first.common)
  }
  const recent = new DecodedBlocks(1)
  const stored = new StoredBlock(bytes, decode, recent)
  const other = new StoredBlock(encodeBlockRecord(first.chain.byNumber(0n)!), decode, recent)

  expect([stored.hash, stored.number, stored.size, stored.l1BatchNumber]).toEqual([record.hash, record.number, record.size, record.l1BatchNumber])
  expect(stored.transactionHashes).toEqual(record.transactions.map((tx) => tx.hash))
  expect(stored.logsBloom).toEqual(record.header.logsBloom)
  expect(decodes).toBe(0)

  expect(stored.transactions[0].receipt).toEqual(record.transactions[0].receipt)
  expect(stored.header.hash()).toEqual(record.header.hash())
  expect(decodes).toBe(1)
  void other.header // the cache holds one block: this one pushes `stored` out
  void stored.transactions
  expect(decodes).toBe(3)
})

test('a log query reads a stored block’s logs from its receipts, without decoding it, and finds what the live chain found', async () => {
  const store = new MemoryStore()
  const first = await open(store)
  const wallet = devWallet(first)
  const token = await deploy(wallet, 'Token', 'Logs', 'G', 1000n)
  for (let i = 0; i < 3; i++) await (await token.getFunction('transfer')(DEV[1 + (i % 2)].address, BigInt(i + 1))).wait()
  await (await wallet.sendTransaction({ to: DEV[2].address, value: 5n })).wait()
  const address = await token.getAddress()
  const transfer = token.interface.getEvent('Transfer')!.topicHash
  const holder = `0x${DEV[2].address.slice(2).toLowerCase().padStart(64, '0')}`
  const queries = [
    { fromBlock: '0x0', toBlock: 'latest', address },
    { fromBlock: '0x0', toBlock: 'latest', topics: [transfer, null, holder] },
    { fromBlock: '0x0', toBlock: 'latest', topics: [[transfer], [holder]] },
    { fromBlock: '0x0', toBlock: 'latest' },
  ]
  const ask = (node: Node) => Promise.all(queries.map((query) => rpc(node)('eth_getLogs', query)))
  const before = await ask(first)
  expect(before[0]).toHaveLength(4)
  expect(before[1]).toHaveLength(1)
  await first.close()

  const second = await open(store)
  const head = second.chain.head as StoredBlock
  const decoded = vi.spyOn(StoredBlock.prototype, 'decoded')
  expect(await ask(second)).toEqual(before)
  expect(decoded).not.toHaveBeenCalled()
  decoded.mockRestore()
  // The logs read from the record are the ones decoding gives, indexes and transactions included.
  const block = second.chain.byNumber(2n) as StoredBlock
  const { logs, txs } = block.logs()
  expect(logs).toEqual(block.transactions.flatMap((tx) => tx.receipt.logs))
  expect(txs).toEqual(block.transactions.flatMap((tx) => tx.receipt.logs.map(() => ({ hash: tx.hash, index: tx.index }))))
  expect(head.timestamp).toBe(head.header.timestamp)
})

test('restored blocks are found by hash whether or not they were indexed yet, and those a truncate drops are not', async () => {
  const store = new MemoryStore()
  const first = await open(store)
  const sent: string[] = []
  for (let i = 0; i < 4; i++) sent.push((await (await devWallet(first).sendTransaction({ to: DEV[1].address, value: 1n })).wait())!.hash)
  const records = [...first.chain.range(0n, first.chain.head.number)].map((block) => encodeBlockRecord(block))
  const hashes = [...first.chain.range(0n, first.chain.head.number)].map((block) => block.hash)
  const recent = new DecodedBlocks()
  const restored = () => records.map((bytes) => new StoredBlock(bytes, (b) => decodeBlockRecord(b, first.common), recent))

  // Partly indexed: the lookups index the rest first.
  const chain = new Chain()
  chain.restore(restored())
  expect(chain.indexRestored(2)).toBe(false)
  expect(chain.blockByHash(hashes[4] as `0x${string}`)?.number).toBe(4n)
  expect(chain.hasTransaction(sent[0] as `0x${string}`)).toBe(true)

  // Not indexed at all, then cut back to block 2: blocks 3 and 4 and their transactions are gone.
  const cut = new Chain()
  cut.restore(restored())
  cut.truncate(2n)
  expect(cut.blockByHash(hashes[4] as `0x${string}`)).toBeUndefined()
  expect(cut.hasTransaction(sent[3] as `0x${string}`)).toBe(false)
  expect(cut.transaction(sent[1] as `0x${string}`)?.hash).toBe(sent[1])
  expect(cut.blockByHash(hashes[2] as `0x${string}`)?.number).toBe(2n)
})
