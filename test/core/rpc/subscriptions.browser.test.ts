/**
 * eth_subscribe through the page's provider: newHeads per stored block, logs filtered by address
 * and topics (a real ERC-20's Transfer and Approval events), pending transactions, unsubscribe.
 */
import { BrowserProvider, ContractFactory, Wallet, id, zeroPadValue, type Contract } from 'ethers'
import { expect, test } from 'vitest'
import artifacts from '../../contracts/artifacts.json' with { type: 'json' }
import type { PageNode } from '../../../src/client/index.ts'
import { DEV, notifications, rejection, resultsOf, start, transfer, uniqueName } from '../../support/browser/nodes.ts'

const TRANSFER = id('Transfer(address,address,uint256)')
const APPROVAL = id('Approval(address,address,uint256)')
const topicOf = (address: string) => zeroPadValue(address, 32).toLowerCase()

async function deployToken(node: PageNode): Promise<Contract> {
  const wallet = new Wallet(DEV[0].key, new BrowserProvider(node.provider, undefined, { pollingInterval: 20, cacheTimeout: -1 }))
  const factory = new ContractFactory(artifacts.Token.abi, artifacts.Token.bytecode, wallet)
  const token = await factory.deploy('Token', 'TKN', 1_000_000n)
  await token.waitForDeployment()
  return token as Contract
}

const sub = (node: PageNode, ...params: unknown[]) =>
  node.provider.request({ method: 'eth_subscribe', params }) as Promise<string>

test('newHeads delivers one header per stored block, in order, without transactions', async () => {
  const node = await start({ name: uniqueName('heads'), persist: false })
  const seen = notifications(node)
  const heads = await sub(node, 'newHeads')
  for (let i = 0; i < 3; i++) await transfer(node)
  await expect.poll(() => resultsOf(seen, heads).length).toBe(3)
  const results = resultsOf(seen, heads)
  expect(results.map((h) => h.number)).toEqual(['0x1', '0x2', '0x3'])
  for (const [i, head] of results.entries()) {
    const block = (await node.provider.request({ method: 'eth_getBlockByNumber', params: [`0x${(i + 1).toString(16)}`, false] })) as Record<string, unknown>
    expect(head.hash).toBe(block.hash)
    expect(head.stateRoot).toBe(block.stateRoot)
    expect(head).not.toHaveProperty('transactions')
  }
})

test('logs subscriptions deliver exactly the logs their address and topics select', async () => {
  const node = await start({ name: uniqueName('logs'), persist: false })
  const seen = notifications(node)
  const everything = await sub(node, 'logs')
  const token = await deployToken(node)
  const address = (await token.getAddress()).toLowerCase()
  // Subscribed after the deploy, so the constructor's mint is seen only by `everything`.
  const byAddress = await sub(node, 'logs', { address })
  const byAddressList = await sub(node, 'logs', { address: [DEV[2].address, address.toUpperCase().replace('0X', '0x')] })
  const elsewhere = await sub(node, 'logs', { address: DEV[2].address })
  const transfersToOne = await sub(node, 'logs', { topics: [TRANSFER, null, topicOf(DEV[1].address)] })
  const approvals = await sub(node, 'logs', { address, topics: [APPROVAL] })
  const transferOrApproval = await sub(node, 'logs', { topics: [[TRANSFER, APPROVAL]] })

  await (await token.getFunction('transfer')(DEV[1].address, 10n)).wait()
  await (await token.getFunction('transfer')(DEV[2].address, 20n)).wait()
  await (await token.getFunction('approve')(DEV[1].address, 30n)).wait()
  await transfer(node) // a block without logs

  await expect.poll(() => resultsOf(seen, everything).length).toBe(4)
  await expect.poll(() => resultsOf(seen, transferOrApproval).length).toBe(3)
  expect(resultsOf(seen, byAddress)).toHaveLength(3)
  expect(resultsOf(seen, byAddressList)).toHaveLength(3)
  expect(resultsOf(seen, elsewhere)).toHaveLength(0)
  expect(resultsOf(seen, approvals).map((log) => log.topics)).toEqual([[APPROVAL, topicOf(DEV[0].address), topicOf(DEV[1].address)]])
  const [toOne] = resultsOf(seen, transfersToOne)
  expect(resultsOf(seen, transfersToOne)).toHaveLength(1)
  const receipt = (await node.provider.request({ method: 'eth_getTransactionReceipt', params: [toOne.transactionHash] })) as {
    logs: unknown[]
  }
  // A pushed log is the log eth_getTransactionReceipt reports, `removed: false` included.
  expect(toOne).toEqual(receipt.logs[0])
  expect(toOne).toMatchObject({ address, removed: false, data: zeroPadValue('0x0a', 32) })
  const [mint] = resultsOf(seen, everything)
  expect(mint.topics).toEqual([TRANSFER, topicOf('0x0000000000000000000000000000000000000000'), topicOf(DEV[0].address)])
})

test('newPendingTransactions delivers each accepted transaction hash', async () => {
  const node = await start({ name: uniqueName('pending'), persist: false })
  const seen = notifications(node)
  const pending = await sub(node, 'newPendingTransactions')
  const hashes = [await transfer(node), await transfer(node, 1)]
  await expect.poll(() => resultsOf(seen, pending)).toEqual(hashes)
})

test('eth_unsubscribe stops delivery at once; unknown ids and kinds are refused clearly', async () => {
  const node = await start({ name: uniqueName('unsubscribe'), persist: false })
  const seen = notifications(node)
  const heads = await sub(node, 'newHeads')
  const kept = await sub(node, 'newHeads')
  await transfer(node)
  await expect.poll(() => resultsOf(seen, heads).length).toBe(1)
  expect(await node.provider.request({ method: 'eth_unsubscribe', params: [heads] })).toBe(true)
  expect(await node.provider.request({ method: 'eth_unsubscribe', params: [heads] })).toBe(false)
  await transfer(node)
  await expect.poll(() => resultsOf(seen, kept).length).toBe(2)
  expect(resultsOf(seen, heads)).toHaveLength(1)

  const badKind = await rejection(sub(node, 'syncing-or-whatever'))
  expect(badKind.code).toBe(-32602)
  const badFilter = await rejection(sub(node, 'logs', { address: '0x12' }))
  expect(badFilter.code).toBe(-32602)
})
