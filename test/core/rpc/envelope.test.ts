import { Transaction } from 'ethers'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { DEV, rpc, startNode } from '../../support/chain.ts'
import { signTransfer } from '../../support/rawTx.ts'

let node: Node

beforeEach(async () => {
  node = await startNode()
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('single requests', () => {
  test('a call gets its result under the same id', async () => {
    expect(await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: '0x104',
    })
  })

  test.each([0, 42, 1.5, 'abc', '', null])('the id %j is echoed exactly', async (id) => {
    const reply = await node.handle({ jsonrpc: '2.0', id, method: 'eth_chainId' })
    expect(reply).toEqual({ jsonrpc: '2.0', id, result: '0x104' })
  })

  test('absent params are the same as an empty array', async () => {
    expect(await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' })).toMatchObject({ result: '0x0' })
  })

  test('a notification is executed but not answered', async () => {
    const raw = await signTransfer()
    const reply = await node.handle({ jsonrpc: '2.0', method: 'eth_sendRawTransaction', params: [raw] })
    expect(reply).toBeUndefined()
    expect(await rpc(node)('eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x1')
  })

  test('a failing notification is not answered either', async () => {
    expect(await node.handle({ jsonrpc: '2.0', method: 'no_such_method' })).toBeUndefined()
    expect(await node.handle({ jsonrpc: '2.0', method: 'eth_getBalance', params: ['0x1'] })).toBeUndefined()
  })
})

describe('batches', () => {
  test('each call is answered in order under its own id; notifications are left out', async () => {
    const raw = await signTransfer()
    const reply = await node.handle([
      { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
      { jsonrpc: '2.0', method: 'eth_sendRawTransaction', params: [raw] },
      { jsonrpc: '2.0', id: 2, method: 'no_such_method' },
      { jsonrpc: '2.0', id: null, method: 'net_version' },
    ])
    expect(reply).toEqual([
      { jsonrpc: '2.0', id: 'a', result: '0x104' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: expect.stringContaining('no_such_method') } },
      { jsonrpc: '2.0', id: null, result: '260' },
    ])
    expect(await rpc(node)('eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x1')
  })

  test('calls run in order: a later call sees what an earlier one did', async () => {
    const [first, second] = [await signTransfer(0), await signTransfer(1)]
    const hash = Transaction.from(first).hash
    const reply = (await node.handle([
      { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [first] },
      { jsonrpc: '2.0', id: 2, method: 'eth_getTransactionReceipt', params: [hash] },
      { jsonrpc: '2.0', id: 3, method: 'eth_getTransactionCount', params: [DEV[0].address, 'latest'] },
      { jsonrpc: '2.0', id: 4, method: 'eth_sendRawTransaction', params: [second] },
      { jsonrpc: '2.0', id: 5, method: 'eth_blockNumber' },
    ])) as { id: number; result: unknown }[]
    expect(reply.map((r) => r.id)).toEqual([1, 2, 3, 4, 5])
    expect(reply[0].result).toBe(hash)
    expect(reply[1].result).toMatchObject({ transactionHash: hash, status: '0x1', blockNumber: '0x1' })
    expect(reply[2].result).toBe('0x1')
    expect(reply[4].result).toBe('0x2')
  })

  test('a batch of notifications only gets no response at all', async () => {
    expect(
      await node.handle([
        { jsonrpc: '2.0', method: 'eth_chainId' },
        { jsonrpc: '2.0', method: 'eth_blockNumber' },
      ]),
    ).toBeUndefined()
    expect(await node.handleText('[{"jsonrpc":"2.0","method":"eth_chainId"}]')).toBeUndefined()
  })

  test('invalid entries get their own -32600 beside the valid ones', async () => {
    const reply = await node.handle([1, { jsonrpc: '2.0', id: 5, method: 'eth_chainId' }, 'x'])
    expect(reply).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
      { jsonrpc: '2.0', id: 5, result: '0x104' },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
    ])
  })

  test('an empty batch is one -32600 error, not an array', async () => {
    expect(await node.handle([])).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/empty batch/) },
    })
  })
})

describe('raw text', () => {
  test('a request in text gets its response as text', async () => {
    const reply = await node.handleText('{"jsonrpc":"2.0","id":"x","method":"eth_chainId"}')
    expect(JSON.parse(reply!)).toEqual({ jsonrpc: '2.0', id: 'x', result: '0x104' })
  })

  test('a batch in text gets an array', async () => {
    const reply = await node.handleText('[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"}]')
    expect(JSON.parse(reply!)).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x104' },
      { jsonrpc: '2.0', id: 2, result: '0x0' },
    ])
  })

  test.each(['{"jsonrpc":"2.0","id":1,', 'not json', '', '[{"jsonrpc":"2.0"},'])('invalid JSON %j is -32700', async (text) => {
    const reply = JSON.parse((await node.handleText(text))!)
    expect(reply).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^parse error/) } })
  })

  test('a notification in text gets no text back', async () => {
    expect(await node.handleText('{"jsonrpc":"2.0","method":"eth_chainId"}')).toBeUndefined()
  })
})

describe('deep nesting', () => {
  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)
  const refused = { code: -32602, message: 'invalid params: nested deeper than 100 levels' }

  test('params nested past 100 levels are -32602 in request, handle and handleText, whatever the method', async () => {
    for (const method of ['eth_getBalance', 'eth_call', 'eth_chainId', 'anvil_setStorageAt']) {
      const params = JSON.parse(deep(6000)) as unknown[]
      await expect(node.request({ method, params })).rejects.toMatchObject(refused)
      expect(await node.handle({ jsonrpc: '2.0', id: 1, method, params })).toEqual({ jsonrpc: '2.0', id: 1, error: refused })
      expect(JSON.parse((await node.handleText(`{"jsonrpc":"2.0","id":1,"method":"${method}","params":${deep(6000)}}`))!)).toEqual({ jsonrpc: '2.0', id: 1, error: refused })
    }
    // A million levels: JSON.parse reads them, the node refuses them as quickly.
    expect(JSON.parse((await node.handleText(`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":${deep(1_000_000)}}`))!).error).toEqual(refused)
  })

  test('100 levels are still read (and answered by the method)', async () => {
    const reply = JSON.parse((await node.handleText(`{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":${deep(100)}}`))!)
    expect(reply.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^invalid argument 0 \(address\)/) })
  })
})

describe('invalid requests (-32600)', () => {
  test.each([
    ['a number', 1],
    ['a string', 'eth_chainId'],
    ['null', null],
    ['true', true],
  ])('a request that is %s', async (_what, body) => {
    expect(await node.handle(body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/request object/) },
    })
  })

  test.each([
    ['missing', { id: 3, method: 'eth_chainId' }],
    ['"1.0"', { jsonrpc: '1.0', id: 3, method: 'eth_chainId' }],
    ['the number 2', { jsonrpc: 2, id: 3, method: 'eth_chainId' }],
  ])('jsonrpc %s: the id is still echoed', async (_what, body) => {
    expect(await node.handle(body)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32600, message: expect.stringMatching(/jsonrpc must be "2.0"/) },
    })
  })

  test.each([
    ['missing', undefined],
    ['a number', 7],
    ['an empty string', ''],
    ['an array', ['eth_chainId']],
  ])('method %s', async (_what, method) => {
    expect(await node.handle({ jsonrpc: '2.0', id: 4, method })).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32600, message: expect.stringMatching(/method must be a non-empty string/) },
    })
  })

  test.each([
    ['an object', { a: 1 }],
    ['an array', [1]],
    ['a boolean', true],
  ])('an id that is %s', async (_what, id) => {
    expect(await node.handle({ jsonrpc: '2.0', id, method: 'eth_chainId' })).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/id must be a string, a number or null/) },
    })
  })
})

describe('method and params errors', () => {
  test('an unknown method is -32601 and names the method', async () => {
    const reply = await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_doesNotExist' })
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'the method eth_doesNotExist does not exist/is not available' },
    })
  })

  test('a method name inherited from Object.prototype is unknown too', async () => {
    await expect(node.request({ method: 'toString' })).rejects.toMatchObject({ code: -32601 })
    await expect(node.request({ method: '__proto__' })).rejects.toMatchObject({ code: -32601 })
  })

  test('a bad argument is -32602 naming its position, its name and what was expected', async () => {
    const reply = await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: ['0x1234', 'latest'] })
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32602,
        message: 'invalid argument 0 (address): expected a 20-byte address (0x-prefixed, 40 hex digits), got "0x1234"',
      },
    })
  })

  test('a missing required argument is -32602 naming it', async () => {
    await expect(node.request({ method: 'eth_getBalance', params: [] })).rejects.toMatchObject({
      code: -32602,
      message: 'missing value for required argument 0 (address)',
    })
  })

  test('too many arguments is -32602', async () => {
    await expect(node.request({ method: 'eth_chainId', params: [1] })).rejects.toMatchObject({
      code: -32602,
      message: 'too many arguments, want at most 0',
    })
  })

  test('params that are not an array are -32602', async () => {
    await expect(node.request({ method: 'eth_blockNumber', params: { a: 1 } })).rejects.toMatchObject({ code: -32602 })
  })

  test('a bad block tag names the choices', async () => {
    await expect(node.request({ method: 'eth_getBalance', params: [DEV[0].address, 'newest'] })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^invalid argument 1 \(block\): expected a block number \(hex\), one of latest, earliest/),
    })
  })

  test('a crash inside a handler is -32603 saying it is a bug, with its message, and the node keeps serving', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.spyOn(node.chain, 'head', 'get').mockImplementationOnce(() => {
      throw new TypeError('boom')
    })
    expect(await node.handle({ jsonrpc: '2.0', id: 9, method: 'eth_blockNumber' })).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32603, message: 'internal error in eth_blockNumber (a bug in pagenode: please report it): boom' },
    })
    // Told once, on the console by default, with the method, the params and the original.
    expect(logged).toHaveBeenCalledTimes(1)
    expect(logged.mock.calls[0]).toEqual([
      'pagenode: internal error in eth_blockNumber (a bug in pagenode: please report it): boom',
      { method: 'eth_blockNumber', params: undefined, cause: new TypeError('boom') },
    ])
    expect(await node.handle({ jsonrpc: '2.0', id: 10, method: 'eth_blockNumber' })).toEqual({
      jsonrpc: '2.0',
      id: 10,
      result: '0x0',
    })
  })
})

describe('method from the path', () => {
  test('is used when the body names no method', async () => {
    expect(await node.handle({ jsonrpc: '2.0', id: 1 }, 'eth_chainId')).toEqual({ jsonrpc: '2.0', id: 1, result: '0x104' })
    const text = await node.handleText('{"jsonrpc":"2.0","id":2,"params":[]}', 'net_version')
    expect(JSON.parse(text!)).toEqual({ jsonrpc: '2.0', id: 2, result: '260' })
  })

  test("the body's method wins over the path's", async () => {
    expect(await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' }, 'eth_chainId')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: '0x0',
    })
  })

  test('applies to every call of a batch that names none', async () => {
    expect(await node.handle([{ jsonrpc: '2.0', id: 1 }, { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber' }], 'eth_chainId')).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x104' },
      { jsonrpc: '2.0', id: 2, result: '0x0' },
    ])
  })
})
