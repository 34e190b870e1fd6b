/**
 * A pagenode fork beside an anvil fork of the same upstream (a pagenode CLI behind the counting
 * proxy), at the same block: the forked state reads alike, the dev accounts are funded alike, a
 * transfer of the forked token ends alike, and both answer -32603 when the upstream is gone.
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
