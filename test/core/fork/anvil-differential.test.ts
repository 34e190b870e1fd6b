/**
 * A pagenode fork beside an anvil fork of the same upstream (a pagenode CLI behind the counting
 * proxy), at the same block: the forked state reads alike, the dev accounts are funded alike, a
 * transfer of the forked token ends alike, and both answer -32603 when the upstream is gone; the
 * blocks, transactions, receipts, logs, state and BLOCKHASH before the fork point are the
 * upstream's on both, and the local chain continues its numbering from the fork block.
 */
import { Interface, type InterfaceAbi } from 'ethers'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { artifacts, DEV, rpc, startNode } from '../../support/chain.ts'
import { startAnvil } from '../../support/anvil.ts'
import { startForkUpstream, UPSTREAM_CHAIN_ID, type ForkUpstream } from '../../support/forkUpstream.ts'

const token = new Interface(artifacts.Token.abi as InterfaceAbi)
let upstream: ForkUpstream

beforeAll(async () => {
  upstream = await startForkUpstream()
}, 60_000)
afterAll(() => upstream.close())

it('reads, funds and transfers on the forked state as anvil does', async () => {
  const block = Number(upstream.seededBlock)
  const anvil = await startAnvil(['--fork-url', upstream.url, '--fork-block-number', String(block), '--no-rate-limit'])
  const node = await startNode({ fork: { url: upstream.url, blockNumber: block } })
  const ours = rpc(node)
  const reads: [string, ...unknown[]][] = [
    ['eth_chainId'],
    ['eth_getCode', upstream.token, 'latest'],
    ['eth_getStorageAt', upstream.token, '0x2', 'latest'],
    ['eth_call', { to: upstream.token, data: token.encodeFunctionData('balanceOf', [DEV[1].address]) }, 'latest'],
    ['eth_getTransactionCount', DEV[0].address, 'latest'],
    ['eth_getBalance', DEV[0].address, 'latest'],
    ['eth_getBalance', '0x0000000000000000000000000000000000000abc', 'latest'],
  ]
  for (const [method, ...params] of reads) expect([method, await ours(method, ...params)]).toEqual([method, await anvil.call(method, ...params)])
  expect(await ours('eth_chainId')).toBe(`0x${UPSTREAM_CHAIN_ID.toString(16)}`)

  const transfer = { from: DEV[1].address, to: upstream.token, data: token.encodeFunctionData('transfer', [DEV[2].address, 77n]) }
  type Receipt = { status: string; logs: unknown[] } | null
  const anvilHash = await anvil.call<string>('eth_sendTransaction', transfer)
  // anvil answers the hash before its block is mined.
  const anvilReceipt = await vi.waitFor(async () => (await anvil.call<Receipt>('eth_getTransactionReceipt', anvilHash)) ?? Promise.reject(new Error('not mined yet')))
  const receipts = [(await ours<Receipt>('eth_getTransactionReceipt', await ours('eth_sendTransaction', transfer)))!, anvilReceipt]
  expect(receipts.map(({ status, logs }) => [status, logs.length])).toEqual([
    ['0x1', 1],
    ['0x1', 1],
  ])
  for (const who of [DEV[1].address, DEV[2].address]) {
    const call = { to: upstream.token, data: token.encodeFunctionData('balanceOf', [who]) }
    expect(await ours('eth_call', call, 'latest')).toBe(await anvil.call('eth_call', call, 'latest'))
  }

  upstream.down = true
  try {
    const untouched = '0x0000000000000000000000000000000000000def'
    const [ourError, anvilError] = await Promise.all([
      ours('eth_getBalance', untouched, 'latest').catch((error: { code: number }) => error),
      anvil.call('eth_getBalance', untouched, 'latest').catch((error: { code: number }) => error),
    ])
    expect([(ourError as { code: number }).code, (anvilError as { code: number }).code]).toEqual([-32603, -32603])
  } finally {
    upstream.down = false
  }
}, 60_000)

it('serves the history before the fork point as anvil does, and continues its numbering', async () => {
  const block = Number(upstream.seededBlock)
  const anvil = await startAnvil(['--fork-url', upstream.url, '--fork-block-number', String(block), '--no-rate-limit'])
  const node = await startNode({ fork: { url: upstream.url, blockNumber: block } })
  const ours = rpc(node)
  type Block = { number: string; hash: string; parentHash: string; timestamp: string; transactions: string[] }
  const pick = (b: Block | null) => b && { number: b.number, hash: b.hash, parentHash: b.parentHash, timestamp: b.timestamp, transactions: b.transactions }
  const both = async <T>(method: string, ...params: unknown[]): Promise<[T, T]> => [await ours<T>(method, ...params), await anvil.call<T>(method, ...params)]
  /** Both answers, equal; ours. */
  const same = async <T = unknown>(method: string, ...params: unknown[]) => {
    const [a, b] = await both<T>(method, ...params)
    expect([method, a]).toEqual([method, b])
    return a
  }

  expect(await same('eth_blockNumber')).toBe(`0x${block.toString(16)}`)
  for (const at of ['earliest', '0x1', `0x${(block - 1).toString(16)}`, `0x${block.toString(16)}`, 'latest']) {
    const [a, b] = await both<Block>('eth_getBlockByNumber', at, false)
    expect([at, pick(a)]).toEqual([at, pick(b)])
  }
  // The seeding's last transaction (the Token transfer), its receipt and its block by hash.
  const forkBlock = (await ours<Block>('eth_getBlockByNumber', `0x${block.toString(16)}`, false))!
  const seedTx = forkBlock.transactions[0]
  const [tx, anvilTx] = await both<Record<string, string>>('eth_getTransactionByHash', seedTx)
  expect([tx.hash, tx.blockHash, tx.blockNumber, tx.from, tx.to, tx.input]).toEqual([anvilTx.hash, anvilTx.blockHash, anvilTx.blockNumber, anvilTx.from, anvilTx.to, anvilTx.input])
  type Receipt = { status: string; blockNumber: string; transactionHash: string; logs: { address: string; topics: string[]; data: string; blockNumber: string }[] }
  const [receipt, anvilReceipt] = await both<Receipt>('eth_getTransactionReceipt', seedTx)
  expect([receipt.status, receipt.blockNumber, receipt.transactionHash]).toEqual([anvilReceipt.status, anvilReceipt.blockNumber, anvilReceipt.transactionHash])
  expect(receipt.logs.map(({ address, topics, data }) => ({ address, topics, data }))).toEqual(anvilReceipt.logs.map(({ address, topics, data }) => ({ address, topics, data })))
  const [byHash, anvilByHash] = await both<Block>('eth_getBlockByHash', forkBlock.hash, false)
  expect(pick(byHash)).toEqual(pick(anvilByHash))
  // The state before the fork block is the upstream's.
  const before = `0x${(block - 1).toString(16)}`
  const balanceOfDev1 = { to: upstream.token, data: token.encodeFunctionData('balanceOf', [DEV[1].address]) }
  expect(await same('eth_call', balanceOfDev1, before)).toBe(`0x${'0'.repeat(64)}`)
  expect(BigInt(await same<string>('eth_getBalance', DEV[1].address, before))).toBeGreaterThan(0n)

  // A block mined on each: the next number, the fork block as its parent, BLOCKHASH of the upstream's blocks.
  const transfer = { from: DEV[1].address, to: upstream.token, data: token.encodeFunctionData('transfer', [DEV[2].address, 5n]) }
  await ours('eth_sendTransaction', transfer)
  await anvil.call('eth_sendTransaction', transfer)
  await vi.waitFor(async () => expect(await anvil.call('eth_blockNumber')).toBe(`0x${(block + 1).toString(16)}`))
  const [mined, anvilMined] = await both<Block>('eth_getBlockByNumber', 'latest', false)
  expect([mined.number, mined.parentHash]).toEqual([anvilMined.number, anvilMined.parentHash])
  expect(mined.parentHash).toBe(forkBlock.hash)
  // PUSH1 n BLOCKHASH PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN, as the code of an overridden account.
  const blockHashOf = (n: number) => `0x60${n.toString(16).padStart(2, '0')}4060005260206000f3`
  const probe = '0x00000000000000000000000000000000000b10c4'
  for (const n of [1, block - 1, block]) {
    const [a, b] = await both<string>('eth_call', { to: probe }, 'latest', { [probe]: { code: blockHashOf(n) } })
    expect([n, a]).toEqual([n, b])
  }
  // Logs across the fork point: the upstream's, then the local ones.
  type Log = { address: string; topics: string[]; data: string; blockNumber: string }
  const [logs, anvilLogs] = await both<Log[]>('eth_getLogs', { address: upstream.token, fromBlock: '0x0', toBlock: 'latest' })
  const shape = (list: Log[]) => list.map(({ address, topics, data, blockNumber }) => ({ address, topics, data, blockNumber }))
  expect(shape(logs)).toEqual(shape(anvilLogs))
  // The Token's mint and the seeding's transfer upstream, the transfer mined here.
  expect(logs.map((log) => BigInt(log.blockNumber))).toEqual([1n, upstream.seededBlock, upstream.seededBlock + 1n])
}, 60_000)
