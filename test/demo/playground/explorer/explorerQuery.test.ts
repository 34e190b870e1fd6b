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

describe('event signatures in topics', () => {
  const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
  const APPROVAL = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
  const filter = (topic0: string) => logFilter({ address: '', topics: [topic0, '', '', ''], fromBlock: '', toBlock: '' }).topics

  test('a signature becomes its keccak-256, whichever way it is written', () => {
    expect(filter('Transfer(address,address,uint256)')).toEqual([TRANSFER])
    expect(filter('event Transfer(address indexed from, address indexed to, uint256 value)')).toEqual([TRANSFER])
    expect(filter(' Transfer( address , address , uint256 ) ')).toEqual([TRANSFER])
  })

  test('alternatives may mix signatures and hashes; other values pass through', () => {
    expect(filter(`Transfer(address,address,uint256), ${APPROVAL}`)).toEqual([[TRANSFER, APPROVAL]])
    expect(filter('Transfer(address,address,uint256) Approval(address,address,uint256)')).toEqual([[TRANSFER, APPROVAL]])
    expect(filter('0x12')).toEqual(['0x12'])
  })

  test('a signature that does not parse is refused, naming the field', () => {
    expect(() => filter('Transfer(address,adress,uint256)')).toThrow(/^Topic 0: Transfer\(address,adress,uint256\) is not an event signature/)
  })
})
