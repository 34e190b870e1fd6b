/** Both ends of the page's request port, over a real MessageChannel. */
import { afterEach, expect, test, vi } from 'vitest'
import { PART_ITEMS, RequestPort, serveRequests } from '../../src/bridge/requestPort.ts'
import type { Outcome } from '../../src/bridge/protocol.ts'

let page: RequestPort | undefined
afterEach(() => page?.close({ code: 4900, message: 'done' }))

/** Messages the worker's end sent, as [id, part?] (the page's end sees them all the same). */
let sent: [number, boolean][] = []

function connect(handle: (method: string, params: unknown) => Promise<Outcome>): RequestPort {
  const channel = new MessageChannel()
  sent = []
  const post = channel.port2.postMessage.bind(channel.port2)
  channel.port2.postMessage = (message: [number, string?, true?]) => {
    sent.push([message[0], message[2] === true])
    post(message)
  }
  serveRequests(channel.port2, handle)
  page = new RequestPort(channel.port1)
  return page
}

test('calls are answered by id, in the order they complete', async () => {
  let release = () => {}
  const slow = new Promise<void>((resolve) => (release = resolve))
  const port = connect(async (method, params) => {
    if (method === 'slow') await slow
    return { ok: true, result: { method, params } }
  })
  const first = port.call('slow', [1])
  const second = await port.call('quick', [2])
  expect(second).toEqual({ ok: true, result: { method: 'quick', params: [2] } })
  release()
  expect(await first).toEqual({ ok: true, result: { method: 'slow', params: [1] } })
})

test('an answer that is not JSON, or a handler that throws, is -32603 naming why', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  const broken = new Error('broken')
  const port = connect(async (method) => {
    if (method === 'bigint') return { ok: true, result: 1n }
    throw broken
  })
  expect(await port.call('bigint', [])).toEqual({
    ok: false,
    error: { code: -32603, message: expect.stringMatching(/^the answer is not JSON \(.*BigInt/) },
  })
  // A handler that throws is a bug of the worker's: said so to the page, and logged with the call.
  const message = 'internal error in other (a bug in pagenode: please report it): broken'
  expect(await port.call('other', [1])).toEqual({ ok: false, error: { code: -32603, message } })
  expect(logged.mock.calls).toEqual([[`pagenode: ${message}`, { method: 'other', params: [1], cause: broken }]])
  logged.mockRestore()
})

test('a ping is answered without the handler; once closed, waiting and later calls fail, pings reject', async () => {
  const calls: string[] = []
  const port = connect((method) => {
    calls.push(method)
    return new Promise(() => {}) // never answers
  })
  await port.ping()
  expect(calls).toEqual([])
  const waiting = port.call('hangs', [])
  await new Promise((resolve) => setTimeout(resolve, 10))
  port.close({ code: 4900, message: 'the node was stopped' })
  expect(await waiting).toEqual({ ok: false, error: { code: 4900, message: 'the node was stopped' } })
  expect(await port.call('later', [])).toEqual({ ok: false, error: { code: 4900, message: 'the node was stopped' } })
  await expect(port.ping()).rejects.toThrow('the node was stopped')
})

test('params structured clone refuses are -32602 and never reach the worker', async () => {
  const calls: string[] = []
  const port = connect(async (method) => (calls.push(method), { ok: true, result: null }))
  const outcome = await port.call('eth_call', [() => 1])
  expect(outcome).toMatchObject({ ok: false, error: { code: -32602, message: expect.stringMatching(/^invalid params: they cannot be sent to the node/) } })
  await port.ping()
  expect(calls).toEqual([])
})

test('a long array answer comes in parts and arrives whole, in order, beside another one', async () => {
  // Items that are arrays themselves (as a trace's frames may be): parts join, items stay whole.
  const items = (method: string, count: number) => Array.from({ length: count }, (_, i) => [method, i, [i]])
  const port = connect(async (method, params) => ({ ok: true, result: items(method, params as number) }))
  for (const count of [PART_ITEMS, PART_ITEMS + 1, 2 * PART_ITEMS, 2 * PART_ITEMS + 7]) {
    const [a, b] = await Promise.all([port.call('a', count), port.call('b', count + 3)])
    expect(a).toEqual({ ok: true, result: items('a', count) })
    expect(b).toEqual({ ok: true, result: items('b', count + 3) })
  }
  // Parts only past PART_ITEMS items: none for exactly PART_ITEMS, then one per PART_ITEMS before the last.
  const partsOf = (id: number) => sent.filter(([of, part]) => of === id && part).length
  expect([0, 2, 4, 6].map(partsOf)).toEqual([0, 1, 1, 2])
  expect([1, 3, 5, 7].map(partsOf)).toEqual([1, 1, 2, 2])
})

test('a long answer whose later items are not JSON is -32603 alone; the parts sent before are dropped', async () => {
  const port = connect(async (method) => ({
    ok: true,
    result: method === 'bad' ? Array.from({ length: 3 * PART_ITEMS }, (_, i) => (i === 2 * PART_ITEMS + 5 ? 1n : i)) : [1, 2],
  }))
  expect(await port.call('bad', [])).toEqual({
    ok: false,
    error: { code: -32603, message: expect.stringMatching(/^the answer is not JSON \(.*BigInt/) },
  })
  expect(sent.filter(([, part]) => part)).toHaveLength(2)
  expect(await port.call('good', [])).toEqual({ ok: true, result: [1, 2] })
})
