/**
 * The reliable channel (src/bridge/reliableChannel.ts) on real BroadcastChannels, in Node: a
 * requester and responders with a wire of their own and short timings.
 */
import { afterEach, expect, test } from 'vitest'
import {
  Requester,
  Responder,
  type ChannelPort,
  type RequesterOptions,
  type RequesterWire,
  type ResponderOptions,
  type ResponderWire,
} from '../../src/bridge/reliableChannel.ts'
import { isRetrySafe } from '../../src/worker/methodKinds.ts'

type Message =
  | { type: 'request'; id: string; method: string; retried: boolean }
  | { type: 'ack'; id: string; by: string }
  | { type: 'answer'; id: string; by: string; result: string }
  | { type: 'up'; by: string }
type Call = { method: string }

const requesterWire: RequesterWire<Call, string, Message> = {
  request: (id, { method }, retried) => ({ type: 'request', id, method, retried }),
  read(message) {
    if (message.type === 'ack') return { type: 'ack', id: message.id, by: message.by }
    if (message.type === 'answer') return { type: 'answer', id: message.id, answer: message.result }
    if (message.type === 'up') return { type: 'responder', by: message.by }
    return undefined
  },
}

const responderWire = (by: string): ResponderWire<Extract<Message, { type: 'request' }>, string, Message> => ({
  read: (message) => (message.type === 'request' ? { id: message.id, request: message } : undefined),
  ack: (id) => ({ type: 'ack', id, by }),
  answer: (id, result) => ({ type: 'answer', id, by, result }),
})

const RESEND_MS = 20
const opened: { close(): void }[] = []
afterEach(() => opened.splice(0).forEach((thing) => thing.close()))

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function channel(name: string): BroadcastChannel {
  const opening = new BroadcastChannel(name)
  opened.push(opening)
  return opening
}

/** A fresh channel name, a requester on it, and every message on it as a third party hears them. */
function setUp(options: Partial<RequesterOptions<Call>> = {}) {
  const name = `reliable-${crypto.randomUUID()}`
  const requester = new Requester(channel(name), requesterWire, {
    idPrefix: 'r/',
    resendMs: RESEND_MS,
    takeWithinMs: 1_000,
    answerWithinMs: 1_000,
    mayRunAgain: (call) => isRetrySafe(call.method),
    ...options,
  })
  opened.push(requester)
  const heard: Message[] = []
  channel(name).onmessage = (event: MessageEvent<Message>) => heard.push(event.data)
  const requests = () => heard.filter((message) => message.type === 'request')
  return { name, requester, heard, requests }
}

/** Once a request is acknowledged, no copy of it comes any more (one may have crossed the acknowledgement). */
async function expectNoMoreCopies(requests: () => unknown[]): Promise<void> {
  await sleep(RESEND_MS)
  const sent = requests().length
  await sleep(RESEND_MS * 5)
  expect(requests()).toHaveLength(sent)
}

/** A responder whose runs wait until the test releases them (by method), logging what it ran. */
function responder(name: string, by: string, options: Partial<ResponderOptions<Extract<Message, { type: 'request' }>, string>> = {}, port?: ChannelPort<Message>) {
  const ran: { method: string; retried: boolean }[] = []
  const gates = new Map<string, () => void>()
  const answering = new Responder(port ?? channel(name), responderWire(by), {
    run: async ({ method, retried }) => {
      ran.push({ method, retried })
      await new Promise<void>((resolve) => gates.set(method, resolve))
      return `${method} by ${by}`
    },
    ...options,
  })
  opened.push(answering)
  const release = (method: string) => gates.get(method)!()
  return { ran, release, started: (method: string) => gates.has(method) }
}

test('an acknowledged request is not sent again, and settles with its answer', async () => {
  const { name, requester, requests } = setUp()
  const node = responder(name, 'a')
  const delivery = requester.request({ method: 'eth_blockNumber' })
  await expect.poll(() => node.started('eth_blockNumber')).toBe(true)
  await expectNoMoreCopies(requests)
  node.release('eth_blockNumber')
  expect(await delivery).toEqual({ kind: 'answered', answer: 'eth_blockNumber by a' })
  expect(node.ran).toEqual([{ method: 'eth_blockNumber', retried: false }])
})

test('a request is sent again until a responder listens; a lost acknowledgement is made good by the next copy', async () => {
  const { name, requester, heard, requests } = setUp()
  const delivery = requester.request({ method: 'eth_call' })
  await sleep(RESEND_MS * 3)
  expect(requests().length).toBeGreaterThanOrEqual(2)
  expect(new Set(requests().map((message) => message.id)).size).toBe(1)

  // The responder's first acknowledgement is lost on the way.
  const port = channel(name)
  let acks = 0
  const lossy: ChannelPort<Message> = {
    postMessage: (message) => (message.type === 'ack' && acks++ === 0 ? undefined : port.postMessage(message)),
    addEventListener: (type, listener) => port.addEventListener(type, listener),
    removeEventListener: (type, listener) => port.removeEventListener(type, listener),
  }
  const node = responder(name, 'a', {}, lossy)
  await expect.poll(() => heard.filter((message) => message.type === 'ack').length).toBeGreaterThanOrEqual(1)
  expect(acks).toBeGreaterThanOrEqual(2)
  await expectNoMoreCopies(requests)
  node.release('eth_call')
  expect(await delivery).toEqual({ kind: 'answered', answer: 'eth_call by a' })
  expect(node.ran).toHaveLength(1)
})

test('a copy of a request is acknowledged again and run once; answered once', async () => {
  const name = `reliable-${crypto.randomUUID()}`
  const node = responder(name, 'a')
  const client = channel(name)
  const heard: Message[] = []
  client.onmessage = (event: MessageEvent<Message>) => heard.push(event.data)
  const request: Message = { type: 'request', id: 'x/1', method: 'eth_chainId', retried: false }
  client.postMessage(request)
  client.postMessage(request)
  await expect.poll(() => heard.map((message) => message.type)).toEqual(['ack', 'ack'])
  node.release('eth_chainId')
  await expect.poll(() => heard.map((message) => message.type)).toEqual(['ack', 'ack', 'answer'])
  client.postMessage(request)
  await expect.poll(() => heard).toHaveLength(4)
  await sleep(RESEND_MS)
  expect(heard.map((message) => message.type)).toEqual(['ack', 'ack', 'answer', 'ack'])
  expect(node.ran).toEqual([{ method: 'eth_chainId', retried: false }])
})

test('the acknowledgement can wait: an answer ready sooner is the only message', async () => {
  const name = `reliable-${crypto.randomUUID()}`
  new Responder(channel(name), responderWire('a'), {
    run: async ({ method }) => (method === 'quick' ? 'done' : new Promise<string>((resolve) => setTimeout(() => resolve('late'), 100))),
    ackAfterMs: () => 30,
  })
  const client = channel(name)
  const heard: Message[] = []
  client.onmessage = (event: MessageEvent<Message>) => heard.push(event.data)
  client.postMessage({ type: 'request', id: 'q', method: 'quick', retried: false })
  client.postMessage({ type: 'request', id: 's', method: 'slow', retried: false })
  await expect.poll(() => heard.map((message) => `${message.type} ${'id' in message ? message.id : ''}`), { timeout: 2_000 }).toEqual([
    'answer q',
    'ack s',
    'answer s',
  ])
})

test('nobody takes it in time: not taken; taken and not answered in time: outcome unknown', async () => {
  const untaken = setUp({ takeWithinMs: 100 })
  const started = Date.now()
  expect(await untaken.requester.request({ method: 'eth_chainId' })).toEqual({ kind: 'notTaken', reason: 'timeout' })
  expect(Date.now() - started).toBeGreaterThanOrEqual(100)

  const taken = setUp({ answerWithinMs: 100 })
  responder(taken.name, 'a')
  expect(await taken.requester.request({ method: 'eth_chainId' })).toEqual({ kind: 'outcomeUnknown', reason: 'timeout' })
})

test('when another responder comes up, a taken write has an unknown outcome and a taken read runs again there, as retried', async () => {
  let stalled = 0
  const { name, requester } = setUp({ stall: { afterMs: 10_000, then: () => stalled++ } })
  const first = responder(name, 'a')
  const write = requester.request({ method: 'evm_mine' })
  const read = requester.request({ method: 'eth_getBalance' })
  const raw = requester.request({ method: 'eth_sendRawTransaction' })
  await expect.poll(() => first.ran).toHaveLength(3)
  await sleep(RESEND_MS)

  const second = responder(name, 'b')
  channel(name).postMessage({ type: 'up', by: 'b' } satisfies Message)
  expect(await write).toEqual({ kind: 'outcomeUnknown', reason: 'responderChanged' })
  await expect.poll(() => second.ran).toEqual([
    { method: 'eth_getBalance', retried: true },
    { method: 'eth_sendRawTransaction', retried: true },
  ])
  second.release('eth_getBalance')
  second.release('eth_sendRawTransaction')
  // The old one's answers come too late to count: the first answer won.
  first.release('eth_getBalance')
  expect(await read).toEqual({ kind: 'answered', answer: 'eth_getBalance by b' })
  expect(await raw).toEqual({ kind: 'answered', answer: 'eth_sendRawTransaction by b' })
  expect(stalled).toBe(0)
})

test('the same responder saying it is up again changes nothing', async () => {
  const { name, requester } = setUp()
  const node = responder(name, 'a')
  const write = requester.request({ method: 'evm_mine' })
  await expect.poll(() => node.ran).toHaveLength(1)
  await sleep(RESEND_MS)
  channel(name).postMessage({ type: 'up', by: 'a' } satisfies Message)
  await sleep(RESEND_MS * 2)
  node.release('evm_mine')
  expect(await write).toEqual({ kind: 'answered', answer: 'evm_mine by a' })
})

test('handing over: untaken and re-runnable requests run here, a taken write has an unknown outcome', async () => {
  const { name, requester } = setUp()
  const node = responder(name, 'a', { ignore: (id) => id.endsWith('/0') })
  const untaken = requester.request({ method: 'evm_snapshot' })
  const takenRead = requester.request({ method: 'eth_chainId' })
  const takenWrite = requester.request({ method: 'evm_mine' })
  await expect.poll(() => node.ran).toHaveLength(2)
  await sleep(RESEND_MS)
  const here: [string, boolean][] = []
  requester.handOver(async ({ method }, retried) => {
    here.push([method, retried])
    return `${method} here`
  })
  expect(await untaken).toEqual({ kind: 'answered', answer: 'evm_snapshot here' })
  expect(await takenRead).toEqual({ kind: 'answered', answer: 'eth_chainId here' })
  expect(await takenWrite).toEqual({ kind: 'outcomeUnknown', reason: 'responderChanged' })
  expect(here).toEqual([
    ['evm_snapshot', false],
    ['eth_chainId', true],
  ])
})

test('presence: no responder at all is said after the grace; a taken request whose responder is gone has an unknown outcome', async () => {
  let exists = false
  const presence = { graceMs: 60, everyMs: 40, exists: async () => exists }
  const lonely = setUp({ presence })
  expect(await lonely.requester.request({ method: 'eth_chainId' })).toEqual({ kind: 'notTaken', reason: 'noResponder' })

  exists = true
  const { name, requester } = setUp({ presence })
  const node = responder(name, 'a')
  const delivery = requester.request({ method: 'eth_chainId' })
  await expect.poll(() => node.ran).toHaveLength(1)
  await sleep(100)
  exists = false
  expect(await delivery).toEqual({ kind: 'outcomeUnknown', reason: 'responderGone' })
})

test('closing settles what is pending, and later requests, as closed', async () => {
  const { requester } = setUp()
  const pending = requester.request({ method: 'eth_chainId' })
  requester.close()
  expect(await pending).toEqual({ kind: 'closed' })
  expect(await requester.request({ method: 'eth_chainId' })).toEqual({ kind: 'closed' })
})
