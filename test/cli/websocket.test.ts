/**
 * JSON-RPC over WebSocket on the CLI's port (src/cli/webSocketServer.ts), as its users meet it:
 * ethers' WebSocketProvider, viem's webSocket transport and web3.js subscriptions against the CLI
 * as a process; raw sockets for the envelope's rules, many subscribers and the access policy.
 */
import { Contract, ContractFactory, Network, Wallet, WebSocketProvider, type InterfaceAbi } from 'ethers'
import { createPublicClient, createWalletClient, parseAbi, webSocket, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'
import { Web3 } from 'web3'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { artifacts } from '../support/chain.ts'
import { DEV_ACCOUNTS } from '../support/accounts.ts'
import { call, startCli, type CliProcess } from '../support/cli.ts'

// One server for the file; each test sends from its own dev account.
let server: CliProcess
let wsUrl: string
beforeAll(async () => {
  server = await startCli(['--accounts', '4'], { shared: true })
  wsUrl = server.url.replace(/^http/, 'ws')
})
afterAll(() => server?.child.kill('SIGKILL'))

const TOKEN = artifacts.Token as { abi: InterfaceAbi; bytecode: string }

function send(from: number, to = DEV_ACCOUNTS[3].address) {
  return call<string>(server.url, 'eth_sendTransaction', { from: DEV_ACCOUNTS[from].address, to, value: '0x1' })
}

/** A raw socket, open; `next()` resolves with its next message, parsed. */
async function open(url = wsUrl, options: WebSocket.ClientOptions = {}) {
  const socket = new WebSocket(url, options)
  const inbox: unknown[] = []
  const waiting: ((message: unknown) => void)[] = []
  socket.on('message', (data) => {
    const message = JSON.parse(String(data))
    const waiter = waiting.shift()
    if (waiter) waiter(message)
    else inbox.push(message)
  })
  await new Promise((resolve, reject) => {
    socket.once('open', resolve)
    socket.once('error', reject)
  })
  return {
    socket,
    send: (body: unknown) => socket.send(typeof body === 'string' ? body : JSON.stringify(body)),
    next: () => (inbox.length > 0 ? Promise.resolve(inbox.shift()) : new Promise<unknown>((resolve) => waiting.push(resolve))),
    closed: new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) }))),
  }
}

/** How an upgrade the server refuses looks to the client: the HTTP status and the JSON-RPC error. */
function refusedUpgrade(url: string, options: WebSocket.ClientOptions) {
  return new Promise<{ status: number; body: { error: { code: number; message: string } } }>((resolve, reject) => {
    const socket = new WebSocket(url, options)
    socket.once('open', () => reject(new Error('the upgrade was accepted')))
    socket.once('unexpected-response', (_request, response) => {
      let body = ''
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(body) }))
    })
  })
}

describe('ethers WebSocketProvider', () => {
  test("on('block') and a contract's event listener fire from eth_subscribe notifications", async () => {
    // cacheTimeout -1: ethers reuses an identical request's answer for 250 ms, so the transfer sent
    // right after the deployment would take the deployment's pending nonce (with anvil as well).
    const provider = new WebSocketProvider(wsUrl, Network.from(260), { staticNetwork: Network.from(260), cacheTimeout: -1 })
    expect((await provider.getNetwork()).chainId).toBe(260n)
    const blocks: number[] = []
    await provider.on('block', (n: number) => blocks.push(n))

    const wallet = new Wallet(DEV_ACCOUNTS[0].key, provider)
    const token = await new ContractFactory(TOKEN.abi, TOKEN.bytecode, wallet).deploy('Ws', 'WS', 1000n)
    await token.waitForDeployment()
    const listened = new Contract(await token.getAddress(), TOKEN.abi, provider)
    const transfers: [string, bigint][] = []
    await listened.on('Transfer', (_from: string, to: string, value: bigint) => transfers.push([to, value]))
    const receipt = await (await (token.connect(wallet) as Contract).getFunction('transfer')(DEV_ACCOUNTS[1].address, 7n)).wait()

    await expect.poll(() => transfers).toEqual([[expect.stringMatching(new RegExp(`^${DEV_ACCOUNTS[1].address}$`, 'i')), 7n]])
    await expect.poll(() => blocks.includes(receipt!.blockNumber)).toBe(true)
    await provider.destroy()
  })
})

describe('viem webSocket transport', () => {
  test('a plain request, watchBlocks and watchContractEvent', async () => {
    const transport = webSocket(wsUrl, { retryCount: 0 })
    const client = createPublicClient({ chain: zksyncInMemoryNode, transport })
    const account = privateKeyToAccount(DEV_ACCOUNTS[1].key as Hex)
    const wallet = createWalletClient({ chain: zksyncInMemoryNode, transport, account })
    expect(await client.getChainId()).toBe(260)

    const hash = await wallet.deployContract({ abi: TOKEN.abi as never, bytecode: TOKEN.bytecode as Hex, args: ['Viem', 'V', 1000n] })
    const { contractAddress } = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    const blocks: bigint[] = []
    const events: unknown[] = []
    const stopBlocks = client.watchBlocks({ onBlock: (block) => blocks.push(block.number) })
    const abi = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)', 'function transfer(address,uint256) returns (bool)'])
    const stopEvents = client.watchContractEvent({ address: contractAddress!, abi, eventName: 'Transfer', onLogs: (logs) => events.push(...logs.map((log) => log.args)) })
    // viem subscribes in the background: transfer until its subscription has seen one.
    const mined: bigint[] = []
    await expect
      .poll(
        async () => {
          if (events.length > 0) return events.length
          const sent = await wallet.writeContract({ address: contractAddress!, abi, functionName: 'transfer', args: [DEV_ACCOUNTS[2].address, 5n] })
          mined.push((await client.waitForTransactionReceipt({ hash: sent, pollingInterval: 20 })).blockNumber)
          return events.length
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBeGreaterThan(0)
    expect(events[0]).toEqual({ from: account.address, to: expect.stringMatching(new RegExp(DEV_ACCOUNTS[2].address, 'i')), value: 5n })
    await expect.poll(() => blocks.includes(mined.at(-1)!)).toBe(true)
    stopBlocks()
    stopEvents()
    await (await transport({ chain: zksyncInMemoryNode }).value!.getRpcClient()).close()
  })
})

describe('web3.js WebSocket provider', () => {
  test("subscribe('newBlockHeaders') and subscribe('logs', { address })", async () => {
    const web3 = new Web3(wsUrl)
    const heads = await web3.eth.subscribe('newBlockHeaders')
    const seen: bigint[] = []
    heads.on('data', (head) => void seen.push(BigInt(head.number as bigint)))

    const { data } = await new ContractFactory(TOKEN.abi, TOKEN.bytecode).getDeployTransaction('W3', 'W3', 1000n)
    const deployTx = await web3.eth.sendTransaction({ from: DEV_ACCOUNTS[2].address, data })
    const address = deployTx.contractAddress!
    const logs = await web3.eth.subscribe('logs', { address })
    const got: { address: string; removed?: boolean }[] = []
    logs.on('data', (log) => void got.push({ address: String(log.address), removed: log.removed as boolean }))
    const token = new web3.eth.Contract(TOKEN.abi as never, address)
    const receipt = await token.methods.transfer(DEV_ACCOUNTS[0].address, 3n).send({ from: DEV_ACCOUNTS[2].address })

    await expect.poll(() => got).toEqual([{ address: address.toLowerCase(), removed: false }])
    await expect.poll(() => seen.includes(BigInt(receipt.blockNumber))).toBe(true)
    await web3.eth.clearSubscriptions()
    web3.provider?.disconnect()
  })
})

describe('the envelope over a socket', () => {
  test('single calls, batches, notifications (run, unanswered), errors as over HTTP', async () => {
    const client = await open()
    client.send({ jsonrpc: '2.0', id: 'a', method: 'eth_chainId' })
    expect(await client.next()).toEqual({ jsonrpc: '2.0', id: 'a', result: '0x104' })
    client.send([
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { jsonrpc: '2.0', method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 2, method: 'eth_nope' },
    ])
    expect(await client.next()).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x104' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: expect.stringContaining('eth_nope') } },
    ])
    client.send('{not json')
    expect(await client.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
    client.send({ jsonrpc: '2.0', id: 3, method: 'eth_subscribe', params: ['nope'] })
    expect(await client.next()).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: 'invalid argument 0 (kind): expected one of newHeads, logs, newPendingTransactions, got "nope"' },
    })
    client.socket.close()
  })

  test("notifications in geth's shape; full pending transactions; unsubscribe", async () => {
    const client = await open()
    client.send({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newPendingTransactions', true] })
    const { result: id } = (await client.next()) as { result: string }
    const hash = await send(3, DEV_ACCOUNTS[3].address)
    const notification = (await client.next()) as { params: { result: Record<string, unknown> } }
    expect(notification).toEqual({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result: expect.objectContaining({ hash }) } })
    expect(notification.params.result).toMatchObject({ hash, from: DEV_ACCOUNTS[3].address, to: DEV_ACCOUNTS[3].address, value: '0x1', blockHash: null })
    client.send({ jsonrpc: '2.0', id: 2, method: 'eth_unsubscribe', params: [id] })
    expect(await client.next()).toEqual({ jsonrpc: '2.0', id: 2, result: true })
    client.socket.close()
  })

  test('a message over the request size limit closes the socket (1009), as geth does', async () => {
    const client = await open()
    client.send('x'.repeat(5 * 1024 * 1024 + 1))
    expect((await client.closed).code).toBe(1009)
  })

  test('50 sockets subscribed to newHeads each get the next block', async () => {
    const clients = await Promise.all(Array.from({ length: 50 }, () => open()))
    const ids = await Promise.all(
      clients.map(async (client, i) => {
        client.send({ jsonrpc: '2.0', id: i, method: 'eth_subscribe', params: ['newHeads'] })
        return ((await client.next()) as { result: string }).result
      }),
    )
    expect(new Set(ids).size).toBe(50)
    const hash = await send(0)
    const { blockHash } = await call<{ blockHash: string }>(server.url, 'eth_getTransactionReceipt', hash)
    const heads = await Promise.all(clients.map((client) => client.next() as Promise<{ params: { subscription: string; result: { hash: string } } }>))
    expect(heads.map((head) => head.params.subscription)).toEqual(ids)
    expect(heads.every((head) => head.params.result.hash === blockHash)).toBe(true)
    for (const client of clients) client.socket.close()
  })
})

describe('who may open a socket (the HTTP access policy, on the upgrade)', () => {
  test('a page on a foreign origin is refused before any socket exists; a loopback one is served', async () => {
    const refused = await refusedUpgrade(wsUrl, { origin: 'https://evil.example' })
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toMatch(/^origin https:\/\/evil\.example is not allowed/)
    const local = await open(wsUrl, { origin: 'http://localhost:5173' })
    local.send({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' })
    expect(await local.next()).toMatchObject({ result: '0x104' })
    local.socket.close()
  })

  test('a rebinding Host is refused; another path is 404', async () => {
    const rebound = await refusedUpgrade(wsUrl, { headers: { Host: 'evil.example:8011' } })
    expect(rebound.status).toBe(403)
    expect(rebound.body.error.message).toMatch(/^host 'evil\.example' is not allowed/)
    const elsewhere = await refusedUpgrade(`${wsUrl}/some/path`, {})
    expect(elsewhere.status).toBe(404)
  })
})
