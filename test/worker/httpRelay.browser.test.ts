/**
 * The node worker's half of the HTTP relay (src/worker/httpRelay.ts) on its channel, with this
 * page standing in for the service worker and a node whose answers the test releases: what it
 * says, and when, for a quick answer, a slow one and a re-sent copy.
 */
import { afterEach, expect, test } from 'vitest'
import { ACK_DELAY_MS, HTTP_PROTOCOL, httpChannelName, RESEND_MS, type HttpMessage } from '../../src/bridge/http.ts'
import { HttpRelay, type TextHandler } from '../../src/worker/httpRelay.ts'

const cleanup: (() => void)[] = []
afterEach(() => cleanup.splice(0).forEach((close) => close()))

/**
 * A relay for a fresh chain name, and the channel's messages. Its node answers a request whose id
 * starts with "quick" at once, any other once the test calls `release(id)`.
 */
async function relayWithGate() {
  const name = `relay-${crypto.randomUUID().slice(0, 8)}`
  const calls: string[] = []
  const gates = new Map<string, (answer: string) => void>()
  const node: TextHandler = {
    handleText: (text) => {
      calls.push(text)
      const { id } = JSON.parse(text) as { id: string }
      if (id.startsWith('quick')) return Promise.resolve(answerTo(id))
      return new Promise((resolve) => gates.set(id, resolve))
    },
  }
  const relay = new HttpRelay(name, Promise.resolve(node))
  await relay.listening
  const channel = new BroadcastChannel(httpChannelName(name))
  const heard: (HttpMessage & { at: number })[] = []
  channel.onmessage = (event: MessageEvent<HttpMessage>) => heard.push({ ...event.data, at: performance.now() })
  cleanup.push(() => channel.close(), () => relay.close())
  const send = (id: string, method = 'eth_chainId') => {
    channel.postMessage({ type: 'request', protocol: HTTP_PROTOCOL, id, body: JSON.stringify({ jsonrpc: '2.0', id, method }) })
    return performance.now()
  }
  const release = (id: string) => gates.get(id)!(answerTo(id))
  const about = (id: string) => heard.filter((message) => message.type !== 'up' && message.id === id)
  return { calls, send, release, about }
}

const answerTo = (id: string) => JSON.stringify({ jsonrpc: '2.0', id, result: '0x1' })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test('a quick answer is the response alone, with no acknowledgement before or after it', async () => {
  const relay = await relayWithGate()
  relay.send('quick')
  await expect.poll(() => relay.about('quick').map((message) => message.type)).toEqual(['response'])
  // Past the delay an acknowledgement would have taken: none comes.
  await sleep(ACK_DELAY_MS * 3)
  expect(relay.about('quick').map((message) => message.type)).toEqual(['response'])
})

test('a write is acknowledged at once, however quick its answer: a relay gone before saying so must not have it run twice', async () => {
  const relay = await relayWithGate()
  relay.send('quick-write', 'eth_sendRawTransaction')
  await expect.poll(() => relay.about('quick-write').map((message) => message.type)).toEqual(['ack', 'response'])
  relay.send('quick-mine', 'anvil_mine')
  await expect.poll(() => relay.about('quick-mine').map((message) => message.type)).toEqual(['ack', 'response'])
})

test('a slow answer is acknowledged before the service worker would send the request again', async () => {
  const relay = await relayWithGate()
  const sent = relay.send('slow')
  await expect.poll(() => relay.about('slow').map((message) => message.type)).toEqual(['ack'])
  expect(relay.about('slow')[0].at - sent).toBeLessThan(RESEND_MS)
  relay.release('slow')
  await expect.poll(() => relay.about('slow').map((message) => message.type)).toEqual(['ack', 'response'])
  expect(relay.about('slow')[1]).toMatchObject({ body: answerTo('slow') })
})

test('a re-sent copy of a request that is running is acknowledged again and runs once', async () => {
  const relay = await relayWithGate()
  relay.send('twice')
  const acks = () => relay.about('twice').filter((message) => message.type === 'ack')
  await expect.poll(acks).toHaveLength(1)
  // As a service worker that missed the acknowledgement sends it again.
  relay.send('twice')
  await expect.poll(acks).toHaveLength(2)
  relay.release('twice')
  await expect.poll(() => relay.about('twice').filter((message) => message.type === 'response')).toHaveLength(1)
  await sleep(ACK_DELAY_MS * 3)
  expect(relay.calls).toHaveLength(1)
  expect(relay.about('twice').map((message) => message.type)).toEqual(['ack', 'ack', 'response'])
})
