/**
 * A fork's history before its fork point: the upstream's blocks, transactions, receipts, logs,
 * state and (on a ZKsync upstream, which the pagenode upstream is) batches, asked once, kept in
 * the store and served offline; what the upstream mined after the fork point is not the fork's.
 */
import { Interface, Wallet, type InterfaceAbi } from 'ethers'
import { createPublicClient, custom, parseAbiItem, type Hex } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { UpstreamError } from '../../../src/core/errors.ts'
import { MemoryStore } from '../../../src/core/store/memoryStore.ts'
import { artifacts, DEV, eip1193, rpc, startNode } from '../../support/chain.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { askUpstream, SEED_SENT, startForkUpstream, TOKEN_SUPPLY, type ForkUpstream } from '../../support/forkUpstream.ts'

const token = new Interface(artifacts.Token.abi as InterfaceAbi)
let upstream: ForkUpstream
let forkBlock: bigint
/** The Token's deployment and the seeding's transfer, upstream. */
let seedTxs: string[]

const hex = (n: bigint) => `0x${n.toString(16)}`

beforeAll(async () => {
  upstream = await startForkUpstream()
  forkBlock = upstream.seededBlock
  seedTxs = []
  for (let n = 1n; n <= forkBlock; n++) seedTxs.push(...(await askUpstream<{ transactions: string[] }>(upstream, 'eth_getBlockByNumber', [hex(n), false])).transactions)
}, 60_000)
afterAll(() => upstream.close())
beforeEach(() => {
  upstream.down = false
  upstream.resetCounts()
})

const fork = (store?: MemoryStore) => startNode({ fork: { url: upstream.url, blockNumber: forkBlock, retries: 0 }, store })

describe("a fork's history before its fork point", () => {
  it("is the upstream's, as it answers it, asked once", async () => {
    const node = await fork()
    const reads: [string, unknown[]][] = [
      ['eth_getBlockByNumber', ['0x1', true]],
      ['eth_getBlockByNumber', ['earliest', false]],
      ['eth_getBlockTransactionCountByNumber', ['0x1']],
      ['eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x0']],
      ['eth_getBlockReceipts', [hex(forkBlock)]],
      ['eth_getTransactionByHash', [seedTxs[0]]],
      ['eth_getTransactionReceipt', [seedTxs[1]]],
      ['debug_traceTransaction', [seedTxs[1]]],
      ['zks_getTransactionDetails', [seedTxs[1]]],
      ['zks_getBlockDetails', [1]],
      ['zks_getRawBlockTransactions', [1]],
      ['eth_getLogs', [{ fromBlock: '0x0', toBlock: hex(forkBlock) }]],
      ['eth_getBalance', [DEV[1].address, '0x1']],
    ]
    for (const [method, params] of reads) {
      expect([method, await rpc(node)(method, ...params)]).toEqual([method, await askUpstream(upstream, method, params)])
    }
    const asked = upstream.calls.length
    expect(asked).toBeGreaterThan(0)
    for (const [method, params] of reads) await rpc(node)(method, ...params)
    expect(upstream.calls.length).toBe(asked)
  })

  it("names the fork block with the upstream's block, continues its numbering, and its batches", async () => {
    const node = await fork()
    const upstreamForkBlock = await askUpstream<{ hash: string; l1BatchNumber: string }>(upstream, 'eth_getBlockByNumber', [hex(forkBlock), false])
    expect(BigInt(await rpc(node)<string>('eth_blockNumber'))).toBe(forkBlock)
    expect(await rpc(node)('eth_getBlockByNumber', 'latest', false)).toEqual(await askUpstream(upstream, 'eth_getBlockByNumber', [hex(forkBlock), false]))
    const batch = BigInt(upstreamForkBlock.l1BatchNumber)
    for (const method of ['zks_getL1BatchDetails', 'zks_getL1BatchBlockRange']) {
      expect([method, await rpc(node)(method, Number(batch))]).toEqual([method, await askUpstream(upstream, method, [Number(batch)])])
    }
    const sent = await new Wallet(DEV[1].key).connect(null).signTransaction({
      to: upstream.token,
      data: token.encodeFunctionData('transfer', [DEV[2].address, 3n]),
      nonce: Number(await rpc(node)<string>('eth_getTransactionCount', DEV[1].address, 'latest')),
      gasLimit: 100_000,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 0,
      chainId: BigInt(await rpc(node)<string>('eth_chainId')),
      type: 2,
    })
    const hash = await rpc(node)<string>('eth_sendRawTransaction', sent)
    const receipt = (await rpc(node)<{ blockNumber: string; blockHash: string; l1BatchNumber: string }>('eth_getTransactionReceipt', hash))!
    expect(BigInt(receipt.blockNumber)).toBe(forkBlock + 1n)
    expect(BigInt(receipt.l1BatchNumber)).toBeGreaterThan(batch)
    const mined = (await rpc(node)<{ parentHash: string }>('eth_getBlockByHash', receipt.blockHash, false))!
    expect(mined.parentHash).toBe(upstreamForkBlock.hash)
    // Logs across the fork point: the upstream's first, then the local transfer's.
    const logs = await rpc(node)<{ blockNumber: string; transactionHash: string }[]>('eth_getLogs', { address: upstream.token, fromBlock: '0x0', toBlock: 'latest' })
    expect(logs.map((log) => log.transactionHash)).toEqual([...seedTxs, hash])
    // The fee history covers the local blocks, from the fork block on.
    const fees = await rpc(node)<{ oldestBlock: string; baseFeePerGas: string[] }>('eth_feeHistory', '0xa', 'latest')
    expect([BigInt(fees.oldestBlock), fees.baseFeePerGas.length]).toEqual([forkBlock, 3])
    // A log range over the limit is refused whole, as the node refuses any.
    const limited = await startNode({ fork: { url: upstream.url, blockNumber: forkBlock }, limits: { maxLogBlockRange: 2 } })
    await expectRpcError(rpc(limited)('eth_getLogs', { fromBlock: '0x0', toBlock: 'latest' }), -32005, /block range too large/)
  })

  it("serves viem's event filter logs across the fork point: the upstream's, then the local ones", async () => {
    const node = await fork()
    const client = createPublicClient({ transport: custom(eip1193(node)) })
    const filter = await client.createEventFilter({
      address: upstream.token as Hex,
      event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
      fromBlock: 0n,
    })
    await rpc(node)('eth_sendTransaction', { from: DEV[1].address, to: upstream.token, data: token.encodeFunctionData('transfer', [DEV[2].address, 4n]) })
    const logs = await client.getFilterLogs({ filter })
    expect(logs.map((log) => [log.blockNumber, log.args.value])).toEqual([
      [1n, TOKEN_SUPPLY],
      [forkBlock, SEED_SENT],
      [forkBlock + 1n, 4n],
    ])
    expect(logs.slice(0, 2).map((log) => log.transactionHash)).toEqual(seedTxs)
  })

  it('does not take what the upstream mined after the fork point', async () => {
    const node = await fork()
    const later = await askUpstream<string>(upstream, 'eth_sendTransaction', [{ from: DEV[2].address, to: '0x00000000000000000000000000000000000000aa', value: '0x1' }])
    const laterBlock = (await askUpstream<{ blockHash: string; blockNumber: string }>(upstream, 'eth_getTransactionReceipt', [later]))!
    expect(await rpc(node)('eth_getTransactionByHash', later)).toBeNull()
    expect(await rpc(node)('eth_getTransactionReceipt', later)).toBeNull()
    expect(await rpc(node)('eth_getBlockByHash', laterBlock.blockHash, false)).toBeNull()
    expect(await rpc(node)('eth_getBlockByNumber', laterBlock.blockNumber, false)).toBeNull()
  })

  it('passes on an error the upstream answers about its history, code and data', async () => {
    const node = await fork()
    // At block 1 dev account 2 holds none of the Token: the transfer reverts upstream.
    const call = { from: DEV[2].address, to: upstream.token, data: token.encodeFunctionData('transfer', [DEV[1].address, 1n]) }
    const theirs = await fetch(upstream.cli.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [call, '0x1'] }),
    }).then((response) => response.json() as Promise<{ error: { code: number; message: string; data: string } }>)
    const error = await expectRpcError(rpc(node)('eth_call', call, '0x1'), theirs.error.code, theirs.error.message)
    expect(error.data).toBe(theirs.error.data)
  })

  it('is kept in the store: a restart with the upstream gone serves what was read, and names the upstream for the rest', async () => {
    const store = new MemoryStore()
    const node = await fork(store)
    const block1 = await rpc(node)('eth_getBlockByNumber', '0x1', true)
    const receipt = await rpc(node)('eth_getTransactionReceipt', seedTxs[1])
    const logs = await rpc(node)('eth_getLogs', { fromBlock: '0x0', toBlock: hex(forkBlock) })
    await node.close()

    upstream.down = true
    upstream.resetCounts()
    const offline = await startNode({ store })
    expect(await rpc(offline)('eth_getBlockByNumber', '0x1', true)).toEqual(block1)
    expect(await rpc(offline)('eth_getTransactionReceipt', seedTxs[1])).toEqual(receipt)
    expect(await rpc(offline)('eth_getLogs', { fromBlock: '0x0', toBlock: hex(forkBlock) })).toEqual(logs)
    expect(BigInt(await rpc(offline)<string>('eth_blockNumber'))).toBe(forkBlock)
    const error = await expectRpcError(rpc(offline)('eth_getBlockByNumber', '0x0', false), -32603, /^the fork's upstream 127\.0\.0\.1:\d+ failed eth_getBlockByNumber: it could not be reached/)
    expect(error).toBeInstanceOf(UpstreamError)
    expect(upstream.requests).toBe(0)
  })

  it('moves with a reset onto the fork at another block', async () => {
    const node = await fork()
    await rpc(node)('anvil_reset', { forking: { jsonRpcUrl: upstream.url, blockNumber: 1 } })
    expect(await rpc(node)('eth_blockNumber')).toBe('0x1')
    // Block 2 is the upstream's, after this fork point: not this chain's until one is mined here.
    expect(await rpc(node)('eth_getBlockByNumber', '0x2', false)).toBeNull()
    expect(await rpc(node)('eth_getTransactionByHash', seedTxs[1])).toBeNull()
    await rpc(node)('evm_mine')
    const local = (await rpc(node)<{ hash: string; parentHash: string }>('eth_getBlockByNumber', '0x2', false))!
    expect(local.parentHash).toBe((await askUpstream<{ hash: string }>(upstream, 'eth_getBlockByNumber', ['0x1', false])).hash)
    expect(local.hash).not.toBe((await askUpstream<{ hash: string }>(upstream, 'eth_getBlockByNumber', ['0x2', false])).hash)
    await rpc(node)('anvil_reset')
    expect(await rpc(node)('eth_blockNumber')).toBe('0x1')
  })
})
