/**
 * The CLI's WebSocket server in this process (src/cli/webSocketServer.ts behind RpcServer), where
 * the node's sessions can be watched: a client that vanishes mid-stream leaves no subscription
 * behind, and one that stops answering pings is dropped.
 */
import { afterEach, expect, test } from 'vitest'
import WebSocket from 'ws'
import { accessPolicy } from '../../src/cli/accessPolicy.ts'
import { formatRequestLine, type RequestRecord } from '../../src/cli/requestLog.ts'
import { RpcServer } from '../../src/cli/rpcServer.ts'
import { createNode, type Pagenode } from '../../src/core/index.ts'
import { DEV } from '../support/chain.ts'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

/** A node behind an RpcServer on a free port, with every session it opens counted. */
async function serve(keepaliveMs = 30_000, onRequest?: (record: RequestRecord) => void) {
  const node = await createNode()
  const sessions = { opened: 0, closed: 0, pushedAfterClose: 0 }
  const openSession = node.openSession.bind(node)
  const watched: Pagenode = {
    ...node,
    openSession(onMessage) {
      sessions.opened++
      let closed = false
      const session = openSession((message) => {
        if (closed) sessions.pushedAfterClose++
        onMessage(message)
      })
      return {
        ...session,
        close() {
          closed = true
          sessions.closed++
          session.close()
        },
      }
    },
  }
  const server = new RpcServer({ maxRequestBytes: 1 << 20, access: accessPolicy([], []), keepaliveMs, onRequest })
  const { port } = await server.listen('127.0.0.1', 0)
  server.attach(watched)
  cleanup.push(() => node.close(), () => server.close(0))
  return { node, sessions, url: `ws://127.0.0.1:${port}` }
}

function connect(url: string, options: WebSocket.ClientOptions = {}) {
  const socket = new WebSocket(url, options)
  return new Promise<WebSocket>((resolve, reject) => {
    socket.once('open', () => resolve(socket))
    socket.once('error', reject)
  })
}

const transfer = (node: Pagenode) => node.request({ method: 'eth_sendTransaction', params: [{ from: DEV[0].address, to: DEV[1].address, value: '0x1' }] })

test('a client that disconnects mid-stream: its session closes and nothing is pushed for it again', async () => {
  const { node, sessions, url } = await serve()
  const socket = await connect(url)
  const received: unknown[] = []
  socket.on('message', (data) => received.push(JSON.parse(String(data))))
  socket.send(JSON.stringify([
    { jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] },
    { jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs'] },
    { jsonrpc: '2.0', id: 3, method: 'eth_subscribe', params: ['newPendingTransactions', true] },
  ]))
  await expect.poll(() => received.length).toBe(1)
  // Blocks keep coming while the client is cut off without a close frame.
  const mining = (async () => {
    for (let i = 0; i < 20; i++) await transfer(node)
  })()
  await expect.poll(() => received.length).toBeGreaterThan(2)
  socket.terminate()
  await mining
  await expect.poll(() => sessions.closed).toBe(1)
  expect(sessions.opened).toBe(1)
  const before = sessions.pushedAfterClose
  await transfer(node)
  expect(sessions.pushedAfterClose).toBe(before)
  expect(before).toBe(0)
})

test('a client that stops answering pings is dropped, its session closed; one that answers stays', async () => {
  const { sessions, url } = await serve(50)
  // ws's `autoPong: false`: this client never answers a ping.
  const silent = await connect(url, { autoPong: false } as WebSocket.ClientOptions)
  const lively = await connect(url)
  const dropped = new Promise<number>((resolve) => silent.once('close', (code) => resolve(code)))
  expect(await dropped).toBe(1006)
  await expect.poll(() => sessions.closed).toBe(1)
  expect(lively.readyState).toBe(WebSocket.OPEN)
  lively.close()
})

test('closing the server closes its sockets with 1001 (going away)', async () => {
  const { url } = await serve()
  const socket = await connect(url)
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)))
  await cleanup.pop()!() // the server, then the node
  expect(await closed).toBe(1001)
})

test('the --verbose log has a line per message, and one per refused upgrade', async () => {
  const lines: string[] = []
  const { url } = await serve(30_000, (record) => lines.push(formatRequestLine(record)))
  const socket = await connect(url)
  const answered = new Promise((resolve) => socket.once('message', resolve))
  socket.send(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 2, method: 'eth_nope' }]))
  await answered
  await expect.poll(() => lines).toEqual([expect.stringMatching(/^ws batch of 2 \(eth_chainId, eth_nope\) [\d.]+ms error -32601: the method eth_nope does not exist/)])
  await expect(connect(url, { origin: 'https://evil.example' })).rejects.toThrow(/403/)
  await expect.poll(() => lines[1]).toMatch(/^ws upgrade refused [\d.]+ms error -32600: origin https:\/\/evil\.example is not allowed/)
  socket.close()
})
