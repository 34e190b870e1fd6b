import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { post, startCli, type CliProcess } from '../support/cli.ts'

const LIMIT = 5 * 1024 * 1024
const TOO_LARGE = { jsonrpc: '2.0', id: null, error: { code: -32600, message: `request too large: the limit is ${LIMIT} bytes` } }

// These tests change no state, so they share one server (a spawn costs about a second). Open to
// every origin, as anvil is (--allow-origin '*'): the default policy is test/cli/access.test.ts's.
let server: CliProcess
let url: string
beforeAll(async () => {
  server = await startCli(['--verbose', '--allow-origin', '*'], { shared: true })
  url = server.url
})
afterAll(() => server?.child.kill('SIGKILL'))

function expectCors(response: Response) {
  expect(response.headers.get('access-control-allow-origin')).toBe('*')
  expect(response.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS')
  expect(response.headers.get('access-control-allow-headers')).toBeTruthy()
}

/** A request with Node's http client, where fetch cannot go (Expect: 100-continue, slow bodies). */
function rawRequest(
  options: { method?: string; path?: string; headers?: Record<string, string | number> },
  writeBody: (req: ReturnType<typeof httpRequest>) => void,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method: options.method ?? 'POST', path: options.path ?? '/', headers: options.headers }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
      res.on('end', () => {
        resolve({ status: res.statusCode!, headers: res.headers, body })
        req.destroy()
      })
    })
    req.on('error', reject)
    writeBody(req)
  })
}

describe('JSON-RPC over HTTP', () => {
  test('POST / with the method in the body; every answer is HTTP 200 application/json with CORS', async () => {
    const response = await post(url, { jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expectCors(response)
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, result: '0x104' })

    const failed = await post(url, { jsonrpc: '2.0', id: 'x', method: 'eth_getBalance', params: ['0x12'] })
    expect(failed.status).toBe(200)
    expectCors(failed)
    expect((await failed.json()).error.code).toBe(-32602)
  })

  test('POST /<method>: the path supplies the method when the body has none; the body wins otherwise', async () => {
    expect(await (await post(`${url}/eth_chainId`, { jsonrpc: '2.0', id: 1 })).json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x104' })
    expect(await (await post(`${url}/eth_chainId/`, { jsonrpc: '2.0', id: 2, params: [] })).json()).toEqual({ jsonrpc: '2.0', id: 2, result: '0x104' })
    expect(await (await post(`${url}/eth_chainId`, { jsonrpc: '2.0', id: 3, method: 'net_version' })).json()).toEqual({ jsonrpc: '2.0', id: 3, result: '260' })
    expect((await (await post(`${url}/eth_nope`, { jsonrpc: '2.0', id: 4 })).json()).error.code).toBe(-32601)
    // A query string is not part of the method.
    expect(await (await post(`${url}/eth_chainId?key=abc`, { jsonrpc: '2.0', id: 5 })).json()).toEqual({ jsonrpc: '2.0', id: 5, result: '0x104' })
  })

  test('a path deeper than /<method> is not an endpoint: 404 with a JSON-RPC error body', async () => {
    const response = await post(`${url}/rpc/eth_chainId`, { jsonrpc: '2.0', id: 1 })
    expect(response.status).toBe(404)
    expectCors(response)
    expect((await response.json()).error).toEqual({ code: -32600, message: 'nothing is served at /rpc/eth_chainId: POST to / or to /<method>' })
  })

  test('batches: answers in order, errors in place, notifications left out', async () => {
    const response = await post(url, [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { jsonrpc: '2.0', method: 'eth_blockNumber' },
      { jsonrpc: '2.0', id: 2, method: 'eth_nope' },
      42,
    ])
    expect(response.status).toBe(200)
    const answers = await response.json()
    expect(answers).toHaveLength(3)
    expect(answers[0]).toEqual({ jsonrpc: '2.0', id: 1, result: '0x104' })
    expect(answers[1]).toMatchObject({ id: 2, error: { code: -32601 } })
    expect(answers[2]).toMatchObject({ id: null, error: { code: -32600 } })
  })

  test('notifications get HTTP 200 with an empty body, as geth answers them', async () => {
    for (const body of [{ jsonrpc: '2.0', method: 'eth_chainId' }, [{ jsonrpc: '2.0', method: 'eth_chainId' }, { jsonrpc: '2.0', method: 'net_version' }]]) {
      const response = await post(url, body)
      expect(response.status).toBe(200)
      expectCors(response)
      expect(response.headers.get('content-length')).toBe('0')
      expect(await response.text()).toBe('')
    }
  })

  test('invalid JSON and non-JSON content are the core’s -32700', async () => {
    for (const [body, type] of [['{"jsonrpc":"2.0",', 'application/json'], ['hello', 'application/json'], ['', 'application/json; charset=utf-8']]) {
      const response = await post(url, body, { headers: { 'Content-Type': type } })
      expect(response.status).toBe(200)
      const answer = await response.json()
      expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
      expect(answer.error.message).toMatch(/^parse error: /)
    }
  })
  test('a body starting with a byte-order mark is not JSON (-32700), as the service worker answers it', async () => {
    const answer = await (await post(url, `\uFEFF${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' })}`)).json()
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
  })

  test('params nested 6,000 levels deep are refused with -32602, early, not a stack overflow', async () => {
    const deep = '['.repeat(6000) + ']'.repeat(6000)
    const answer = await (await post(url, `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":${deep}}`)).json()
    expect(answer).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'invalid params: nested deeper than 100 levels' } })
  })
})

describe('browsers and other verbs', () => {
  test('OPTIONS preflight: 204 allowing POST and the headers asked for, cached for a day', async () => {
    const response = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://dapp.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,authorization',
        'Access-Control-Request-Private-Network': 'true',
      },
    })
    expect(response.status).toBe(204)
    expectCors(response)
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type,authorization')
    expect(response.headers.get('access-control-allow-private-network')).toBe('true')
    expect(response.headers.get('access-control-max-age')).toBe('86400')
    expect(await response.text()).toBe('')
  })

  test.each(['GET', 'PUT', 'DELETE', 'PATCH'])('%s: 405 with Allow and a JSON-RPC error body', async (method) => {
    const response = await fetch(url, { method, ...(method === 'GET' ? {} : { body: '{}' }) })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST, OPTIONS')
    expect(response.headers.get('content-type')).toBe('application/json')
    expectCors(response)
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: `HTTP ${method} is not supported: send JSON-RPC requests with POST` },
    })
  })
})

describe('request size limit', () => {
  const oversized = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'web3_sha3', params: [`0x${'ab'.repeat(LIMIT / 2)}`] })

  test('a body over the limit is answered -32600 (fetch, Content-Length known)', async () => {
    const response = await post(url, oversized)
    expect(response.status).toBe(200)
    expectCors(response)
    expect(await response.json()).toEqual(TOO_LARGE)
  })

  test('a streamed body that never ends is answered once it passes the limit; the rest is never read', async () => {
    // An endless body in 1 MiB chunks. The answer comes after about 5 of them (plus what the
    // socket buffers hold), and the server hangs up without reading on.
    let sent = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++
        controller.enqueue(new Uint8Array(1024 * 1024).fill(0x61))
      },
    })
    const response = await post(url, endless, { duplex: 'half' } as RequestInit)
    expect(await response.json()).toEqual(TOO_LARGE)
    expect(sent).toBeLessThan(64)
  })

  test('Expect: 100-continue with a Content-Length over the limit is refused before the body is sent', async () => {
    let bodySent = false
    const response = await rawRequest({ headers: { 'Content-Type': 'application/json', 'Content-Length': LIMIT + 1, Expect: '100-continue' } }, (req) => {
      req.on('continue', () => {
        bodySent = true
        req.end('x'.repeat(LIMIT + 1))
      })
      // Nothing is written until the server says continue (it never does).
      req.flushHeaders()
    })
    expect(response.status).toBe(200)
    expect(response.headers.connection).toBe('close')
    expect(JSON.parse(response.body)).toEqual(TOO_LARGE)
    expect(bodySent).toBe(false)
  })

  test('a body at the limit is served, and the server stays healthy after refusals', async () => {
    const padded = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
    const atLimit = padded + ' '.repeat(LIMIT - padded.length)
    expect(await (await post(url, atLimit)).json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x104' })
    expect(await (await post(url, `${atLimit} `)).json()).toEqual(TOO_LARGE)
    expect(await (await post(url, { jsonrpc: '2.0', id: 2, method: 'eth_chainId' })).json()).toEqual({ jsonrpc: '2.0', id: 2, result: '0x104' })
  })
})

describe('--verbose', () => {
  test('one concise line per request: method, id, duration, error code', async () => {
    await post(url, { jsonrpc: '2.0', id: 41, method: 'eth_blockNumber' })
    await post(`${url}/eth_chainId`, { jsonrpc: '2.0', id: 'a' })
    await post(url, { jsonrpc: '2.0', id: 42, method: 'eth_nope' })
    await post(url, [{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 2, method: 'net_version' }])
    await post(url, { jsonrpc: '2.0', method: 'eth_chainId' })
    await post(url, 'nonsense')
    await fetch(url)
    // The log is a pipe: lines (ours, and maybe the last of an earlier test) arrive on their own
    // schedule. Ours start at the first request's line.
    const ours = () => server.stdout().slice(server.stdout().lastIndexOf('eth_blockNumber id=41')).trim().split('\n')
    await expect.poll(() => ours().length).toBe(7)
    const lines = ours()
    const ms = String.raw`\d+\.\dms`
    expect(lines[0]).toMatch(new RegExp(`^eth_blockNumber id=41 ${ms}$`))
    expect(lines[1]).toMatch(new RegExp(`^eth_chainId id="a" ${ms}$`))
    expect(lines[2]).toMatch(new RegExp(`^eth_nope id=42 ${ms} error -32601: the method eth_nope does not exist/is not available$`))
    expect(lines[3]).toMatch(new RegExp(`^batch of 2 \\(eth_chainId, net_version\\) ${ms}$`))
    expect(lines[4]).toMatch(new RegExp(`^eth_chainId notification ${ms}$`))
    expect(lines[5]).toMatch(new RegExp(`^invalid JSON ${ms} error -32700: parse error: `))
    expect(lines[6]).toMatch(new RegExp(`^GET / 405 ${ms}$`))
  })
})
