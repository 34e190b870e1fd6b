/**
 * eth_subscribe through createNode (pagenode/core): notifications as `message` events, sessions
 * with subscriptions of their own, full pending transactions, logs removed by evm_revert, the
 * per-connection cap. The page's provider is tested in subscriptions.browser.test.ts, WebSocket
 * clients in test/cli/websocket.test.ts.
 */
import { BrowserProvider, ContractFactory, Wallet, type Contract } from 'ethers'
import { afterEach, expect, test } from 'vitest'
import { createNode, type NodeConfig, type Pagenode, type SubscriptionNotification } from '../../../src/core/index.ts'
import { artifacts, DEV } from '../../support/chain.ts'
import { expectRpcError } from '../../support/expectRpc.ts'

const nodes: Pagenode[] = []
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((node) => node.close()))
})

async function start(config: NodeConfig = {}) {
  const node = await createNode(config)
  nodes.push(node)
  const messages: SubscriptionNotification[] = []
  node.on('message', (message) => messages.push(message))
  const call = <T = unknown>(method: string, ...params: unknown[]) => node.request({ method, params }) as Promise<T>
  const resultsOf = (id: string) => messages.filter((m) => m.data.subscription === id).map((m) => m.data.result as Record<string, unknown>)
  return { node, call, messages, resultsOf }
}

function transfer(node: Pagenode, from = 0) {
  return node.request({ method: 'eth_sendTransaction', params: [{ from: DEV[from].address, to: DEV[2].address, value: '0x1' }] }) as Promise<string>
}

async function deployToken(node: Pagenode): Promise<Contract> {
  const wallet = new Wallet(DEV[0].key, new BrowserProvider(node, undefined, { pollingInterval: 10, cacheTimeout: -1 }))
  const token = await new ContractFactory(artifacts.Token.abi, artifacts.Token.bytecode, wallet).deploy('Token', 'TKN', 1000n)
  await token.waitForDeployment()
  return token as Contract
}

test("createNode's request subscribes; notifications are EIP-1193 `message` events, in geth's shape", async () => {
  const { node, call, messages, resultsOf } = await start()
  const heads = await call<string>('eth_subscribe', 'newHeads')
  expect(heads).toMatch(/^0x[0-9a-f]{32}$/)
  await transfer(node)
  await transfer(node)
  expect(resultsOf(heads).map((head) => head.number)).toEqual(['0x1', '0x2'])
  const block = await call<Record<string, unknown>>('eth_getBlockByNumber', '0x2', false)
  const { transactions: _t, uncles: _u, withdrawals: _w, ...header } = block
  expect(resultsOf(heads)[1]).toEqual(header)
  expect(messages[0]).toEqual({ type: 'eth_subscription', data: { subscription: heads, result: expect.any(Object) } })

  expect(await call('eth_unsubscribe', heads)).toBe(true)
  expect(await call('eth_unsubscribe', heads)).toBe(false)
  await transfer(node)
  expect(resultsOf(heads)).toHaveLength(2)
})

test('the JSON-RPC envelope (handle, handleText: what HTTP serves) has no subscriptions; a session does', async () => {
  const { node } = await start()
  const body = { jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }
  expect(await node.handle(body)).toMatchObject({ error: { code: -32601 } })

  const pushed: SubscriptionNotification[] = []
  const session = node.openSession((message) => pushed.push(message))
  const reply = JSON.parse((await session.handleText(JSON.stringify([body, { jsonrpc: '2.0', id: 2, method: 'eth_chainId' }])))!)
  expect(reply[1]).toEqual({ jsonrpc: '2.0', id: 2, result: '0x104' })
  const id = reply[0].result as string
  await transfer(node)
  expect(pushed.map((m) => m.data.subscription)).toEqual([id])
  // Another session's ids are not this one's.
  expect(await node.request({ method: 'eth_unsubscribe', params: [id] })).toBe(false)
  session.close()
  await transfer(node)
  expect(pushed).toHaveLength(1)
})

test('logs: address and topic filters, and the logs of blocks dropped by evm_revert again with removed: true', async () => {
  const { node, call, resultsOf } = await start()
  const token = await deployToken(node)
  const address = (await token.getAddress()).toLowerCase()
  const logs = await call<string>('eth_subscribe', 'logs', { address })
  const elsewhere = await call<string>('eth_subscribe', 'logs', { address: DEV[1].address })
  const snapshot = await call<string>('evm_snapshot')
  await (await token.getFunction('transfer')(DEV[1].address, 10n)).wait()
  await (await token.getFunction('transfer')(DEV[2].address, 20n)).wait()
  const mined = resultsOf(logs)
  expect(mined).toHaveLength(2)
  expect(mined.every((log) => log.removed === false && log.address === address)).toBe(true)

  expect(await call('evm_revert', snapshot)).toBe(true)
  const all = resultsOf(logs)
  expect(all).toHaveLength(4)
  expect(all.slice(2)).toEqual(mined.map((log) => ({ ...log, removed: true })))
  expect(resultsOf(elsewhere)).toEqual([])
})

test('newPendingTransactions: hashes, or whole transactions when asked with true', async () => {
  const { node, call, resultsOf } = await start({ mining: { mode: 'manual' } })
  const hashes = await call<string>('eth_subscribe', 'newPendingTransactions')
  const full = await call<string>('eth_subscribe', 'newPendingTransactions', true)
  const hash = await transfer(node)
  expect(resultsOf(hashes)).toEqual([hash])
  const pending = await call('eth_getTransactionByHash', hash)
  expect(resultsOf(full)).toEqual([pending])
  expect(resultsOf(full)[0]).toMatchObject({ hash, blockHash: null, from: DEV[0].address.toLowerCase() })
  await expectRpcError(call('eth_subscribe', 'newPendingTransactions', 'yes'), -32602, 'invalid argument 1 (fullTx): expected a boolean, got "yes"')
})

test('a connection may hold at most maxSubscriptions subscriptions (-32005); unsubscribing frees room', async () => {
  const { call } = await start({ limits: { maxSubscriptions: 2 } })
  const first = await call<string>('eth_subscribe', 'newHeads')
  await call('eth_subscribe', 'logs')
  await expectRpcError(call('eth_subscribe', 'newHeads'), -32005, 'too many subscriptions: the limit is 2 per connection; unsubscribe some first')
  await call('eth_unsubscribe', first)
  await expect(call('eth_subscribe', 'newHeads')).resolves.toMatch(/^0x/)
})
