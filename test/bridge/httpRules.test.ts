/** The endpoint's HTTP rules (src/bridge/httpRules.ts), shared by the CLI's server and the service worker. */
import { describe, expect, test } from 'vitest'
import { BodyReader, endpointPath, route, rpcAnswer, type HeaderOf, type RequestHead } from '../../src/bridge/httpRules.ts'

const headers =
  (values: Record<string, string> = {}): HeaderOf =>
  (name) =>
    values[name]

const head = (verb: string, path: string, header = headers()): RequestHead => ({ verb, path, endpoint: endpointPath(path), header })

test('paths: the base, one method (decoded), and nothing deeper', () => {
  expect(['', '/', '//'].map(endpointPath)).toEqual([{ kind: 'root' }, { kind: 'root' }, { kind: 'root' }])
  expect(endpointPath('/eth%5FchainId/')).toEqual({ kind: 'method', method: 'eth_chainId' })
  expect(endpointPath('/a/b')).toEqual({ kind: 'other' })
  expect(endpointPath('/%E0%A4%A')).toEqual({ kind: 'other' })
})

describe('routing', () => {
  test('POST goes to the node, with the method the path names', () => {
    expect(route(head('POST', '/'), '')).toEqual({ kind: 'call', pathMethod: undefined })
    expect(route(head('POST', '/eth_chainId'), '')).toEqual({ kind: 'call', pathMethod: 'eth_chainId' })
  })

  test('OPTIONS is a preflight: 204, the headers asked for, cached for a day', () => {
    const asked = headers({ 'access-control-request-headers': 'content-type,authorization', 'access-control-request-private-network': 'true' })
    expect(route(head('OPTIONS', '/a/b', asked), '')).toEqual({
      kind: 'answer',
      answer: {
        status: 204,
        headers: {
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Methods': 'POST, OPTIONS',
          'Access-Control-Allow-Headers': 'content-type,authorization',
          Vary: 'Access-Control-Request-Headers',
          'Access-Control-Allow-Private-Network': 'true',
          'Access-Control-Max-Age': '86400',
        },
        body: '',
      },
    })
  })

  test('other verbs are 405 with Allow; deeper paths 404, naming the base as the server does', () => {
    const get = route(head('GET', '/'), '')
    expect(get).toMatchObject({ kind: 'answer', answer: { status: 405, headers: { Allow: 'POST, OPTIONS', 'Content-Type': 'application/json' } } })
    const deeper = (base: string) => (route(head('POST', '/rpc/a/b'), base) as { answer: { status: number; body: string } }).answer
    expect(deeper('').status).toBe(404)
    expect(JSON.parse(deeper('').body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'nothing is served at /rpc/a/b: POST to / or to /<method>' } })
    expect(JSON.parse(deeper('{base}').body).error.message).toBe('nothing is served at /rpc/a/b: POST to {base}/ or to {base}/<method>')
  })
})

test('every answer is application/json with CORS; a notification is an empty 200', () => {
  expect(rpcAnswer(null, headers())).toEqual({
    status: 200,
    headers: {
      'Content-Type': 'application/json',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'POST, OPTIONS',
      'Access-Control-Allow-Headers': 'content-type',
    },
    body: '',
  })
})

describe('bodies', () => {
  test('a declared length over the limit is refused before reading', () => {
    const body = new BodyReader(10)
    expect(body.refusesDeclared('11')).toBe(true)
    expect(body.refusesDeclared('10')).toBe(false)
    expect(body.refusesDeclared(null)).toBe(false)
  })

  test('a streamed body is refused once it passes the limit; up to it, it is UTF-8 text', () => {
    const body = new BodyReader(8)
    const bytes = new TextEncoder().encode('"héllo"')
    expect(body.add(bytes.slice(0, 3))).toBe(true)
    expect(body.add(bytes.slice(3))).toBe(true)
    expect(body.text()).toBe('"héllo"')
    expect(body.add(new Uint8Array(1))).toBe(false)
  })

  test('a byte-order mark is kept, so the body is not JSON', () => {
    const body = new BodyReader(100)
    body.add(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{}')]))
    expect(body.text()).toBe('\uFEFF{}')
    expect(() => JSON.parse(body.text())).toThrow()
  })
})
