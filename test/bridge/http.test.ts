/** The service worker's view of URLs and failures (src/bridge/http.ts), in plain Node. */
import { describe, expect, test } from 'vitest'
import {
  errorResponseFor,
  matchEndpoint,
  MAX_REQUEST_BYTES,
  normalizeBaseUrl,
  readServiceWorkerConfig,
  serviceWorkerUrl,
} from '../../src/bridge/http.ts'
import { DEFAULT_LIMITS } from '../../src/core/config.ts'

const PAGE = 'http://127.0.0.1:4173/app/index.html'

describe('base URLs', () => {
  test('are made absolute, without a trailing slash', () => {
    expect(normalizeBaseUrl('/rpc', PAGE)).toBe('http://127.0.0.1:4173/rpc')
    expect(normalizeBaseUrl('/rpc/', PAGE)).toBe('http://127.0.0.1:4173/rpc')
    expect(normalizeBaseUrl('rpc', PAGE)).toBe('http://127.0.0.1:4173/app/rpc')
    expect(normalizeBaseUrl('http://localhost:8011', PAGE)).toBe('http://localhost:8011')
    expect(normalizeBaseUrl('http://localhost:8011/', PAGE)).toBe('http://localhost:8011')
  })

  test("refuse the site's own root, other schemes, queries", () => {
    expect(() => normalizeBaseUrl('/', PAGE)).toThrow(/site root/)
    expect(() => normalizeBaseUrl('http://127.0.0.1:4173', PAGE)).toThrow(/site root/)
    expect(() => normalizeBaseUrl('ws://localhost:8011', PAGE)).toThrow(/must be http/)
    expect(() => normalizeBaseUrl('/rpc?x=1', PAGE)).toThrow(/query/)
    expect(() => normalizeBaseUrl('http://[', PAGE)).toThrow(/not a URL/)
  })
})

describe('matching a request URL', () => {
  const bases = ['http://127.0.0.1:4173/rpc', 'http://localhost:8011']

  test('the base and {base}/ carry the method in the body', () => {
    expect(matchEndpoint('http://127.0.0.1:4173/rpc', bases)).toEqual({ kind: 'root' })
    expect(matchEndpoint('http://127.0.0.1:4173/rpc/', bases)).toEqual({ kind: 'root' })
    expect(matchEndpoint('http://localhost:8011/', bases)).toEqual({ kind: 'root' })
    expect(matchEndpoint('http://127.0.0.1:4173/rpc?cache=no', bases)).toEqual({ kind: 'root' })
  })

  test('{base}/<method> names the method, decoded', () => {
    expect(matchEndpoint('http://localhost:8011/eth_chainId', bases)).toEqual({ kind: 'method', method: 'eth_chainId' })
    expect(matchEndpoint('http://127.0.0.1:4173/rpc/eth%5FchainId', bases)).toEqual({ kind: 'method', method: 'eth_chainId' })
  })

  test('deeper paths and bad escapes are under the base but not an endpoint', () => {
    expect(matchEndpoint('http://localhost:8011/a/b', bases)).toEqual({ kind: 'other' })
    expect(matchEndpoint('http://localhost:8011/%E0%A4%A', bases)).toEqual({ kind: 'other' })
  })

  test('everything else is left alone', () => {
    expect(matchEndpoint('http://127.0.0.1:4173/', bases)).toBeUndefined()
    expect(matchEndpoint('http://127.0.0.1:4173/rpcx', bases)).toBeUndefined()
    expect(matchEndpoint('http://127.0.0.1:4173/assets/index.js', bases)).toBeUndefined()
    expect(matchEndpoint('http://127.0.0.1:8011/', bases)).toBeUndefined()
    expect(matchEndpoint('https://localhost:8011/', bases)).toBeUndefined()
  })
})

test('the registration URL carries the whole config, and reads back', () => {
  const config = { protocol: 1, name: 'my chain', baseUrls: ['http://127.0.0.1:4173/rpc', 'http://localhost:8011'] }
  const url = serviceWorkerUrl('/pagenode-sw.js', config, PAGE)
  expect(url.origin + url.pathname).toBe('http://127.0.0.1:4173/pagenode-sw.js')
  expect(readServiceWorkerConfig(url.href)).toEqual(config)
})

describe('errors for requests that never reached a node', () => {
  const message = 'no node'
  test("echo the request's id", () => {
    expect(JSON.parse(errorResponseFor('{"jsonrpc":"2.0","id":7,"method":"x"}', -32603, message)!)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message },
    })
  })

  test('answer each call of a batch, and no notification', () => {
    const text = JSON.stringify([{ id: 'a', method: 'x' }, { method: 'note' }, 5, { id: null }])
    expect(JSON.parse(errorResponseFor(text, -32603, message)!).map((r: { id: unknown }) => r.id)).toEqual(['a', null, null])
    expect(errorResponseFor('{"jsonrpc":"2.0","method":"note"}', -32603, message)).toBeNull()
    expect(errorResponseFor('[{"method":"note"}]', -32603, message)).toBeNull()
  })

  test('use id null for what cannot be read', () => {
    expect(JSON.parse(errorResponseFor('{oops', -32603, message)!)).toMatchObject({ id: null })
    expect(JSON.parse(errorResponseFor('[]', -32603, message)!)).toMatchObject({ id: null })
  })
})

test("the service worker's size limit is the node's default", () => {
  expect(MAX_REQUEST_BYTES).toBe(DEFAULT_LIMITS.maxRequestBytes)
})
