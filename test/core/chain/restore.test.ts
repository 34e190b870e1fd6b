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

/**
 * A store that hands the last `tail` blocks at load and the older ones when the test lets it, as
 * the IndexedDB store does for a long chain (issue 21: a warm start that does not wait for them).
 */
class TailFirstStore extends MemoryStore {
  private release!: () => void
  readonly released = new Promise<void>((resolve) => (this.release = resolve))
  olderRead = false

  constructor(private readonly tail: number) {
    super()
  }

  letOlderCome(): void {
    this.release()
  }

  override async load() {
    const chain = await super.load()
    if (!chain || chain.blocks.length <= this.tail) return chain
    const first = chain.blocks.length - this.tail
    return {
      ...chain,
      blocks: chain.blocks.slice(first),
      firstBlock: first,
      older: async () => {
        await this.released
        this.olderRead = true
        return { blocks: chain.blocks.slice(0, first) }
      },
    }
  }
}

test('a chain restored from its last blocks answers at its head at once, and everything else once the older blocks came', async () => {
  const store = new TailFirstStore(3)
  const first = await open(store)
  const wallet = devWallet(first)
  const token = await deploy(wallet, 'Token', 'Kept', 'K', 1000n)
  const hashes: string[] = []
  for (let i = 0; i < 6; i++) hashes.push((await (await token.getFunction('transfer')(DEV[2].address, 1n)).wait())!.hash)
  const before = rpc(first)
  const block2 = await before('eth_getBlockByNumber', '0x2', true)
  const logs = await before('eth_getLogs', { fromBlock: '0x0' })
  const receipt = await before('eth_getTransactionReceipt', hashes[0])
  const batch = await before('zks_getL1BatchDetails', '0x1')
  const head = await before<string>('eth_blockNumber')
  const balance = await before('eth_getBalance', DEV[0].address, 'latest')
  await first.close()

  const second = await open(store)
  const after = rpc(second)
  // At the head, from the last blocks alone.
  expect(await after('eth_blockNumber')).toBe(head)
  expect(await after('eth_getBalance', DEV[0].address, 'latest')).toBe(balance)
  expect(await after('eth_call', { to: await token.getAddress(), data: token.interface.encodeFunctionData('balanceOf', [DEV[2].address]) }, 'latest')).toBe(
    '0x' + (6n).toString(16).padStart(64, '0'),
  )
  // The rest waits for the older blocks, and a transaction too (the miner waits for them).
  let answered = false
  const waiting = Promise.all([
    after('eth_getBlockByNumber', '0x2', true),
    after('eth_getLogs', { fromBlock: '0x0' }),
    after('eth_getTransactionReceipt', hashes[0]),
    after('zks_getL1BatchDetails', '0x1'),
  ]).finally(() => (answered = true))
  const sending = devWallet(second).sendTransaction({ to: DEV[1].address, value: 1n })
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(answered).toBe(false)
  store.letOlderCome()
  expect(await waiting).toEqual([block2, logs, receipt, batch])
  expect(store.olderRead).toBe(true)
  const sent = await (await sending).wait()
  expect(sent!.blockNumber).toBe(Number(head) + 1)
  const mined = await after<{ l1BatchNumber: string | null }>('eth_getBlockByNumber', 'latest', false)
  expect(mined.l1BatchNumber).not.toBeNull()
})

test('older blocks that cannot be read fail the calls that wait for them with the store error, not the head', async () => {
  const store = new MemoryStore()
  const first = await open(store)
  await (await devWallet(first).sendTransaction({ to: DEV[1].address, value: 1n })).wait()
  await first.close()
  const chain = (await store.load())!
  const broken = Object.assign(Object.create(store) as MemoryStore, {
    load: async () => ({ ...chain, blocks: chain.blocks.slice(1), firstBlock: 1, older: async () => ({ blocks: [new Uint8Array()] }) }),
  })
  const errors: unknown[] = []
  const second = await open(broken, { onInternalError: (error: unknown) => errors.push(error) })
  expect(await rpc(second)('eth_blockNumber')).toBe('0x1')
  await expect(rpc(second)('eth_getBlockByNumber', '0x0', false)).rejects.toThrow('the stored chain is incomplete: its head is block 1 but 0 blocks are stored')
  expect(errors).toHaveLength(1)
})

test('a chain restored from its last blocks with executable transactions in its stored pool reads its older blocks, then mines them, before it starts', async () => {
  const store = new TailFirstStore(2)
  const first = await open(store)
  for (let i = 0; i < 4; i++) await (await devWallet(first).sendTransaction({ to: DEV[1].address, value: 1n })).wait()
  await rpc(first)('evm_setAutomine', false)
  const pooled = await devWallet(first).sendTransaction({ to: DEV[1].address, value: 2n })
  const head = Number(await rpc(first)<string>('eth_blockNumber'))
  await first.close()

  store.letOlderCome()
  // Automine given at start: the pooled transaction is mined before createNode resolves, in a block
  // placed in its batch (which needs the older blocks).
  const second = await open(store, { mining: { mode: 'auto' } })
  expect(store.olderRead).toBe(true)
  const receipt = await rpc(second)<{ blockNumber: string; l1BatchNumber: string | null }>('eth_getTransactionReceipt', pooled.hash)
  expect(Number(receipt.blockNumber)).toBe(head + 1)
  expect(receipt.l1BatchNumber).not.toBeNull()
})

/** A chain of a token's transfer, then `blocks` empty blocks, closed; what the restart must find again. */
async function longChain(store: MemoryStore, blocks: number, config = {}) {
  const first = await open(store, config)
  const wallet = devWallet(first)
  const token = await deploy(wallet, 'Token', 'Kept', 'K', 1000n)
  const earlyRaw = await wallet.signTransaction(await wallet.populateTransaction({ to: DEV[2].address, value: 1n }))
  const earlyHash = await rpc(first)<string>('eth_sendRawTransaction', earlyRaw)
  const early = await wallet.provider!.getTransactionReceipt(earlyHash)
  await rpc(first)('anvil_mine', `0x${blocks.toString(16)}`)
  const before = rpc(first)
  const seen = {
    head: await before<{ number: string; hash: string; l1BatchNumber: string }>('eth_getBlockByNumber', 'latest', false),
    early: await before('eth_getTransactionReceipt', early!.hash),
    logs: await before('eth_getLogs', { fromBlock: '0x0' }),
  }
  await first.close()
  return { token, early: early!, earlyRaw, seen }
}

test('a chain restored from its last blocks mines on them before the older blocks come, and is whole after', async () => {
  // More than the 256 blocks BLOCKHASH reaches; every block seals its batch (the default).
  const store = new TailFirstStore(300)
  const { early, seen } = await longChain(store, 300)
  const second = await open(store)
  const after = rpc(second)
  const sent = await (await devWallet(second).sendTransaction({ to: DEV[1].address, value: 7n })).wait()
  // Mined, and answered (its receipt, its block, the head by number), from the last blocks alone.
  expect(store.olderRead).toBe(false)
  expect(sent!.blockNumber).toBe(Number(seen.head.number) + 1)
  const receipt = await after<{ blockHash: string; l1BatchNumber: string | null }>('eth_getTransactionReceipt', sent!.hash)
  const block = await after<{ parentHash: string; l1BatchNumber: string | null }>('eth_getBlockByNumber', 'latest', false)
  expect(block.parentHash).toBe(seen.head.hash)
  expect(receipt.blockHash).toBe(sent!.blockHash)
  // Its batch follows the last one stored, and is sealed as it would be on the whole chain.
  expect(block.l1BatchNumber).toBe(`0x${(BigInt(seen.head.l1BatchNumber) + 1n).toString(16)}`)
  expect(receipt.l1BatchNumber).toBe(block.l1BatchNumber)
  expect(await after('eth_getBlockByHash', seen.head.hash, false)).toMatchObject({ number: seen.head.number, l1BatchNumber: seen.head.l1BatchNumber })
  expect(store.olderRead).toBe(false)

  // What the last blocks do not hold waits for the older ones, then is as before the restart.
  let answered = false
  const waiting = Promise.all([after('eth_getTransactionReceipt', early.hash), after('eth_getLogs', { fromBlock: '0x0', toBlock: seen.head.number })]).finally(
    () => (answered = true),
  )
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(answered).toBe(false)
  store.letOlderCome()
  expect(await waiting).toEqual([seen.early, seen.logs])
  expect(await after('zks_L1BatchNumber')).toBe(block.l1BatchNumber)
  expect(await after('zks_getL1BatchDetails', block.l1BatchNumber)).toMatchObject({ number: Number(block.l1BatchNumber) })
  // The whole chain, rebuilt, takes the next block in the next batch.
  const next = await (await devWallet(second).sendTransaction({ to: DEV[1].address, value: 8n })).wait()
  expect(next!.blockNumber).toBe(sent!.blockNumber + 1)
  const nextBlock = await after<{ l1BatchNumber: string }>('eth_getBlockByNumber', 'latest', false)
  expect(BigInt(nextBlock.l1BatchNumber)).toBe(BigInt(block.l1BatchNumber!) + 1n)
})

test('a transaction mined below the last blocks a restarted chain holds is refused as already known', async () => {
  const store = new TailFirstStore(300)
  const { early, earlyRaw } = await longChain(store, 300)
  const second = await open(store)
  store.letOlderCome()
  await expect(rpc(second)('eth_sendRawTransaction', earlyRaw)).rejects.toThrow('already known')
  expect(store.olderRead).toBe(true)
  expect(early.blockNumber).toBe(2)
})

test('last blocks inside one open batch wait for the older blocks before mining', async () => {
  // Batches of up to 1,000 blocks: the open one began below the 300 blocks handed at load.
  const config = { batches: { maxBlocks: 1000 } }
  const store = new TailFirstStore(300)
  const { seen } = await longChain(store, 300, config)
  const second = await open(store, config)
  let mined = false
  const sending = devWallet(second)
    .sendTransaction({ to: DEV[1].address, value: 7n })
    .then((response) => response.wait())
    .finally(() => (mined = true))
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(mined).toBe(false)
  store.letOlderCome()
  const sent = await sending
  expect(store.olderRead).toBe(true)
  expect(sent!.blockNumber).toBe(Number(seen.head.number) + 1)
  // It joined the open batch, as on the whole chain.
  expect((await rpc(second)<{ l1BatchNumber: string | null }>('eth_getBlockByNumber', 'latest', false)).l1BatchNumber).toBeNull()
  expect(await rpc(second)('zks_L1BatchNumber')).toBe('0x0')
})
