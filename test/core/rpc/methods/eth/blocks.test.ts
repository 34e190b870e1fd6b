import { createBlockFromRPC, createBlockHeaderFromRPC } from '@ethereumjs/block'
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common'
import { bytesToHex } from '@ethereumjs/util'
import { Interface, keccak256, Wallet, type InterfaceAbi } from 'ethers'
import { describe, expect, test } from 'vitest'
import type { Node } from '../../../../../src/core/node.ts'
import { artifacts, DEV, GAS_PRICE, mineBlock, rpc, startNode } from '../../../../support/chain.ts'
import { expectRpcError } from '../../../../support/expectRpc.ts'
import { signPreEip155, signTx, txHash } from '../../../../support/rawTx.ts'

let node: Node | undefined

/** Wall clock pinned, so timestamps are known. */
const NOW_MS = 1_700_000_000_000
const NOW = '0x6553f100'

async function fresh(config: Parameters<typeof startNode>[0] = {}) {
  node = await startNode({ now: () => NOW_MS, ...config })
  return rpc(node)
}

type Call = ReturnType<typeof rpc>
type Block = Record<string, unknown> & {
  hash: string
  parentHash: string
  number: string
  timestamp: string
  gasUsed: string
  logsBloom: string
  transactions: (string | Record<string, unknown>)[]
}
interface Receipt {
  gasUsed: string
  logsBloom: string
  logs: unknown[]
}

/**
 * era's block keys, in its order, then the Shanghai–Prague header fields we also carry
 * (docs/zksync.md, "Response shapes").
 */
const BLOCK_KEYS = [
  'hash', 'parentHash', 'sha3Uncles', 'miner', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'number',
  'l1BatchNumber', 'gasUsed', 'gasLimit', 'baseFeePerGas', 'extraData', 'logsBloom', 'timestamp',
  'l1BatchTimestamp', 'difficulty', 'totalDifficulty', 'sealFields', 'uncles', 'transactions', 'size',
  'mixHash', 'nonce',
  'withdrawalsRoot', 'withdrawals', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'requestsHash',
]
const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
const EMPTY_UNCLES_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347'
const ZERO_32 = `0x${'00'.repeat(32)}`
const probe = new Interface(artifacts.Probe.abi as InterfaceAbi)

/** A Prague Common for chain 260, independent of the node's own. */
const common = createCustomCommon({ chainId: 260 }, Mainnet, { hardfork: Hardfork.Prague })

/**
 * Block 1 deploys Probe; block 2 holds one transaction of every supported type: legacy without
 * and with EIP-155, EIP-2930, EIP-1559, EIP-7702, and a contract call that logs.
 */
async function blockOfEveryType(call: Call) {
  const deploy = await call<string>(
    'eth_sendRawTransaction',
    await signTx(DEV[0].key, { to: null, value: 0n, data: artifacts.Probe.bytecode, gasLimit: 1_000_000n }),
  )
  await mineBlock(node!)
  const { contractAddress } = await call<{ contractAddress: string }>('eth_getTransactionReceipt', deploy)
  const authorization = await new Wallet(DEV[2].key).authorize({ address: contractAddress, nonce: 0n, chainId: 260n })
  const raws = [
    signPreEip155(DEV[0].key, { nonce: 1 }),
    await signTx(DEV[0].key, { type: 0, nonce: 2 }),
    await signTx(DEV[0].key, { type: 1, nonce: 3, accessList: [{ address: contractAddress, storageKeys: [ZERO_32] }], gasLimit: 30_000n }),
    await signTx(DEV[0].key, { nonce: 4, maxPriorityFeePerGas: 7n }),
    await signTx(DEV[1].key, { type: 4, nonce: 0, authorizationList: [authorization], gasLimit: 100_000n }),
    await signTx(DEV[1].key, { nonce: 1, to: contractAddress, value: 0n, data: probe.encodeFunctionData('set', [7]), gasLimit: 100_000n }),
  ]
  for (const raw of raws) await call('eth_sendRawTransaction', raw)
  await mineBlock(node!)
  return raws.map(txHash)
}

describe('block shape', () => {
  test('genesis: every key, in order, with its value', async () => {
    const call = await fresh()
    const block = await call<Block>('eth_getBlockByNumber', '0x0', false)
    expect(Object.keys(block)).toEqual(BLOCK_KEYS)
    expect(block).toMatchObject({
      parentHash: ZERO_32,
      sha3Uncles: EMPTY_UNCLES_HASH,
      miner: '0x0000000000000000000000000000000000000000',
      transactionsRoot: EMPTY_TRIE_ROOT,
      receiptsRoot: EMPTY_TRIE_ROOT,
      number: '0x0',
      l1BatchNumber: '0x0',
      gasUsed: '0x0',
      gasLimit: '0x4000000000000',
      baseFeePerGas: `0x${GAS_PRICE.toString(16)}`,
      extraData: '0x',
      logsBloom: `0x${'00'.repeat(256)}`,
      timestamp: NOW,
      l1BatchTimestamp: NOW,
      difficulty: '0x0',
      totalDifficulty: '0x0',
      sealFields: [],
      uncles: [],
      transactions: [],
      nonce: '0x0000000000000000',
      withdrawalsRoot: EMPTY_TRIE_ROOT,
      withdrawals: [],
      blobGasUsed: '0x0',
      excessBlobGas: '0x0',
      parentBeaconBlockRoot: ZERO_32,
      // sha256 of no execution-layer requests (EIP-7685).
      requestsHash: '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    })
    expect(block.hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(block.stateRoot).toMatch(/^0x[0-9a-f]{64}$/)
    expect(block.stateRoot).not.toBe(EMPTY_TRIE_ROOT) // the dev accounts are funded
  })

  test('a block with every transaction type is a real Ethereum block: hash, size and roots recompute', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    const hashes = await blockOfEveryType(call)
    const block = await call<Block>('eth_getBlockByNumber', '0x2', true)
    expect(Object.keys(block)).toEqual(BLOCK_KEYS)
    expect(block.transactions.map((tx) => (tx as { hash: string }).hash)).toEqual(hashes)

    const header = createBlockHeaderFromRPC(block as never, { common })
    expect(bytesToHex(header.hash())).toBe(block.hash)
    const rebuilt = createBlockFromRPC(block as never, [], { common })
    expect(`0x${rebuilt.serialize().length.toString(16)}`).toBe(block.size)
    expect(bytesToHex(await rebuilt.genTxTrie())).toBe(block.transactionsRoot)
    expect(rebuilt.transactions.map((tx) => bytesToHex(tx.hash()))).toEqual(hashes)
  })

  test('gasUsed and logsBloom sum up the receipts', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    const hashes = await blockOfEveryType(call)
    const block = await call<Block>('eth_getBlockByNumber', '0x2', false)
    const receipts = await Promise.all(hashes.map((h) => call<Receipt>('eth_getTransactionReceipt', h)))
    expect(BigInt(block.gasUsed)).toBe(receipts.reduce((sum, r) => sum + BigInt(r.gasUsed), 0n))
    expect(receipts.flatMap((r) => r.logs)).toHaveLength(1)
    const bloom = receipts.reduce((acc, r) => acc | BigInt(r.logsBloom), 0n)
    expect(bloom).not.toBe(0n)
    expect(BigInt(block.logsBloom)).toBe(bloom)
  })

  test('full transaction objects are what eth_getTransactionByHash answers; false gives their hashes', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    const hashes = await blockOfEveryType(call)
    const full = await call<Block>('eth_getBlockByNumber', '0x2', true)
    const byHash = await Promise.all(hashes.map((h) => call('eth_getTransactionByHash', h)))
    expect(full.transactions).toEqual(byHash)
    const bare = await call<Block>('eth_getBlockByNumber', '0x2', false)
    expect(bare.transactions).toEqual(hashes)
    expect({ ...bare, transactions: [] }).toEqual({ ...full, transactions: [] })
  })

  test('the size grows with the transactions', async () => {
    const call = await fresh()
    await call('eth_sendRawTransaction', await signTx(DEV[0].key))
    const [empty, one] = await Promise.all(['0x0', '0x1'].map((n) => call<Block>('eth_getBlockByNumber', n, false)))
    expect(BigInt(one.size as string)).toBeGreaterThan(BigInt(empty.size as string) + 100n)
    const rebuilt = createBlockFromRPC((await call('eth_getBlockByNumber', '0x0', true)) as never, [], { common })
    expect(`0x${rebuilt.serialize().length.toString(16)}`).toBe(empty.size)
  })
})

describe('the chain of blocks', () => {
  test('each block names its parent, its own batch, and a timestamp never before its parent', async () => {
    let nowMs = NOW_MS
    const call = await fresh({ now: () => nowMs })
    for (let nonce = 0; nonce < 3; nonce++) {
      nowMs += 2_000
      await call('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce }))
    }
    const blocks = await Promise.all([0, 1, 2, 3].map((n) => call<Block>('eth_getBlockByNumber', `0x${n}`, false)))
    blocks.forEach((block, n) => {
      expect(block.number).toBe(`0x${n}`)
      expect(block.l1BatchNumber).toBe(`0x${n}`)
      expect(block.l1BatchTimestamp).toBe(block.timestamp)
      if (n > 0) {
        expect(block.parentHash).toBe(blocks[n - 1].hash)
        expect(BigInt(block.timestamp) - BigInt(blocks[n - 1].timestamp)).toBe(2n)
      }
      expect(bytesToHex(createBlockHeaderFromRPC(block as never, { common }).hash())).toBe(block.hash)
    })
  })

  test('a clock that goes back still makes a block later than its parent', async () => {
    let nowMs = NOW_MS
    const call = await fresh({ now: () => nowMs })
    nowMs -= 60_000
    await call('eth_sendRawTransaction', await signTx(DEV[0].key))
    expect(BigInt((await call<Block>('eth_getBlockByNumber', '0x1', false)).timestamp)).toBe(BigInt(NOW) + 1n)
  })

  test('eth_getBlockByHash answers exactly what eth_getBlockByNumber does', async () => {
    const call = await fresh()
    await call('eth_sendRawTransaction', await signTx(DEV[0].key))
    for (const full of [false, true]) {
      for (const n of ['0x0', '0x1']) {
        const byNumber = await call<Block>('eth_getBlockByNumber', n, full)
        expect(await call('eth_getBlockByHash', byNumber.hash, full)).toEqual(byNumber)
        expect(await call('eth_getBlockByHash', byNumber.hash.toUpperCase().replace('0X', '0x'), full)).toEqual(byNumber)
      }
    }
  })

  test('tags: earliest is genesis; latest, pending, safe, finalized and committed are the head', async () => {
    const call = await fresh()
    await call('eth_sendRawTransaction', await signTx(DEV[0].key))
    const genesis = await call<Block>('eth_getBlockByNumber', '0x0', false)
    const head = await call<Block>('eth_getBlockByNumber', '0x1', false)
    expect(await call('eth_getBlockByNumber', 'earliest', false)).toEqual(genesis)
    for (const tag of ['latest', 'pending', 'safe', 'finalized', 'committed']) {
      expect([tag, await call('eth_getBlockByNumber', tag, false)]).toEqual([tag, head])
    }
  })

  test('fullTransactions may be left out: hashes', async () => {
    const call = await fresh()
    const hash = await call('eth_sendRawTransaction', await signTx(DEV[0].key))
    expect((await call<Block>('eth_getBlockByNumber', 'latest')).transactions).toEqual([hash])
  })
})

describe('unknown blocks', () => {
  test('a future number or an unknown hash gives null, not an error', async () => {
    const call = await fresh()
    const unknown = keccak256('0x01')
    expect(await call('eth_getBlockByNumber', '0x1', false)).toBeNull()
    expect(await call('eth_getBlockByNumber', '0xffffffff', true)).toBeNull()
    expect(await call('eth_getBlockByHash', unknown, false)).toBeNull()
    expect(await call('eth_getBlockTransactionCountByNumber', '0x1')).toBeNull()
    expect(await call('eth_getBlockTransactionCountByHash', unknown)).toBeNull()
    expect(await call('eth_getUncleCountByBlockNumber', '0x1')).toBeNull()
    expect(await call('eth_getUncleCountByBlockHash', unknown)).toBeNull()
  })
})

describe('counts', () => {
  test('transaction counts by number and by hash', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    await blockOfEveryType(call)
    const block = await call<Block>('eth_getBlockByNumber', '0x2', false)
    expect(await call('eth_getBlockTransactionCountByNumber', '0x0')).toBe('0x0')
    expect(await call('eth_getBlockTransactionCountByNumber', '0x1')).toBe('0x1')
    expect(await call('eth_getBlockTransactionCountByNumber', '0x2')).toBe('0x6')
    expect(await call('eth_getBlockTransactionCountByNumber', 'latest')).toBe('0x6')
    expect(await call('eth_getBlockTransactionCountByHash', block.hash)).toBe('0x6')
  })

  test('uncle counts are 0: a rollup has no uncles', async () => {
    const call = await fresh()
    const genesis = await call<Block>('eth_getBlockByNumber', '0x0', false)
    expect(await call('eth_getUncleCountByBlockNumber', '0x0')).toBe('0x0')
    expect(await call('eth_getUncleCountByBlockNumber', 'latest')).toBe('0x0')
    expect(await call('eth_getUncleCountByBlockHash', genesis.hash)).toBe('0x0')
  })
})

describe('bad params', () => {
  const hash = keccak256('0x')
  test.each([
    ['eth_getBlockByNumber', [1, false], /^invalid argument 0 \(block\): /],
    ['eth_getBlockByNumber', ['0x01', false], /^invalid argument 0 \(block\): /],
    ['eth_getBlockByNumber', ['0x', false], /^invalid argument 0 \(block\): /],
    ['eth_getBlockByNumber', ['head', false], /^invalid argument 0 \(block\): /],
    ['eth_getBlockByNumber', ['latest', 'true'], /^invalid argument 1 \(fullTransactions\): expected true or false/],
    ['eth_getBlockByNumber', ['latest', 1], /^invalid argument 1 \(fullTransactions\): /],
    ['eth_getBlockByNumber', [], 'missing value for required argument 0 (block)'],
    ['eth_getBlockByNumber', ['latest', false, 1], 'too many arguments, want at most 2'],
    ['eth_getBlockByHash', ['0x1234', false], /^invalid argument 0 \(blockHash\): expected a 32-byte hash/],
    ['eth_getBlockByHash', [hash.slice(0, -1), false], /^invalid argument 0 \(blockHash\): /],
    ['eth_getBlockByHash', ['latest', false], /^invalid argument 0 \(blockHash\): /],
    ['eth_getBlockByHash', [], 'missing value for required argument 0 (blockHash)'],
    ['eth_getBlockTransactionCountByNumber', ['0x1g'], /^invalid argument 0 \(block\): /],
    ['eth_getBlockTransactionCountByNumber', ['latest', 'latest'], 'too many arguments, want at most 1'],
    ['eth_getBlockTransactionCountByHash', [12], /^invalid argument 0 \(blockHash\): /],
    ['eth_getUncleCountByBlockNumber', [], 'missing value for required argument 0 (block)'],
    ['eth_getUncleCountByBlockHash', ['0x'], /^invalid argument 0 \(blockHash\): /],
  ])('%s %j → -32602', async (method, params, message) => {
    const call = await fresh()
    await expectRpcError(call(method, ...params), -32602, message)
  })
})
