/** Both ends of the page's request port, over a real MessageChannel. */
import { afterEach, expect, test } from 'vitest'
import { RequestPort, serveRequests } from '../../src/bridge/requestPort.ts'
import type { Outcome } from '../../src/bridge/protocol.ts'

let page: RequestPort | undefined
afterEach(() => page?.close({ code: 4900, message: 'done' }))

function connect(handle: (method: string, params: unknown) => Promise<Outcome>): RequestPort {
  const channel = new MessageChannel()
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
  const port = connect(async (method) => {
    if (method === 'bigint') return { ok: true, result: 1n }
    throw new Error('broken')
  })
  expect(await port.call('bigint', [])).toEqual({
    ok: false,
    error: { code: -32603, message: expect.stringMatching(/^the answer is not JSON \(.*BigInt/) },
  })
  expect(await port.call('other', [])).toEqual({ ok: false, error: { code: -32603, message: 'Error: broken' } })
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
