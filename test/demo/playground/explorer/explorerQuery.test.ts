import { describe, expect, test } from 'vitest'
import { parseQuery, queryText } from '../../../../demo/playground/explorer/query.ts'
import { blockParam, logFilter } from '../../../../demo/playground/explorer/logsFilter.ts'

const HASH = `0x${'Ab'.repeat(32)}`
const ADDRESS = `0x${'Cd'.repeat(20)}`

describe('explorer search', () => {
  test('empty input is the overview', () => {
    expect(parseQuery(undefined)).toEqual({ kind: 'overview' })
    expect(parseQuery('   ')).toEqual({ kind: 'overview' })
  })

  test('block numbers in decimal and short hex, and latest', () => {
    expect(parseQuery('12')).toEqual({ kind: 'block', number: 12n })
    expect(parseQuery(' 0x1f ')).toEqual({ kind: 'block', number: 31n })
    expect(parseQuery('LATEST')).toEqual({ kind: 'block', number: 'latest' })
  })

  test('32 bytes stay a hash (transaction or block); 20 bytes are an address; both lowercased', () => {
    expect(parseQuery(HASH)).toEqual({ kind: 'hash', hash: HASH.toLowerCase() })
    expect(parseQuery(ADDRESS)).toEqual({ kind: 'address', address: ADDRESS.toLowerCase() })
  })

  test('batch:N', () => {
    expect(parseQuery('batch:3')).toEqual({ kind: 'batch', number: 3 })
    expect(parseQuery('Batch: 0x10')).toEqual({ kind: 'batch', number: 16 })
  })

  test('anything else says what it is not', () => {
    expect(parseQuery('0x1234567890123456789')).toEqual({ kind: 'invalid', message: '"0x1234567890123456789" has 19 hex digits: an address has 40, a block or transaction hash 64.' })
    expect(parseQuery('vitalik.eth')).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^"vitalik\.eth" is not something the explorer can look up\./) })
  })

  test('queryText is what the hash and search box carry', () => {
    for (const text of ['12', HASH.toLowerCase(), ADDRESS.toLowerCase(), 'batch:3', 'latest']) expect(queryText(parseQuery(text))).toBe(text)
  })
})

describe('eth_getLogs form', () => {
  test('decimal block numbers become hex; tags, hex and junk pass through', () => {
    expect(blockParam('12', '0x0')).toBe('0xc')
    expect(blockParam('', 'latest')).toBe('latest')
    expect(blockParam('finalized', '0x0')).toBe('finalized')
    expect(blockParam('twelve', '0x0')).toBe('twelve')
  })

  test('empty fields are wildcards; trailing wildcard topics are dropped; commas mean any of', () => {
    expect(logFilter({ address: '', topics: ['', '', '', ''], fromBlock: '', toBlock: '' })).toEqual({ fromBlock: '0x0', toBlock: 'latest' })
    expect(logFilter({ address: 'a, b', topics: ['', 't1', '', ''], fromBlock: '1', toBlock: '0x2' })).toEqual({ fromBlock: '0x1', toBlock: '0x2', address: ['a', 'b'], topics: [null, 't1'] })
    expect(logFilter({ address: 'a', topics: ['x y', '', '', ''], fromBlock: '', toBlock: '' })).toEqual({ fromBlock: '0x0', toBlock: 'latest', address: 'a', topics: [['x', 'y']] })
  })
})
