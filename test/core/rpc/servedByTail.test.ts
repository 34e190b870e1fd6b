import { expect, test } from 'vitest'
import type { Chain } from '../../../src/core/chain/chain.ts'
import { servedByTail } from '../../../src/core/rpc/servedByTail.ts'

const HELD_HASH = `0x${'aa'.repeat(32)}`
const OLDER_HASH = `0x${'bb'.repeat(32)}`

/** A partial chain holding blocks from 0x100, whose miner can (or cannot) mine on them. */
const chain = (mineable: boolean) =>
  ({
    firstHeld: 0x100n,
    mineable,
    blockByHash: (hash: string) => (hash === HELD_HASH ? {} : undefined),
    hasTransaction: (hash: string) => hash === HELD_HASH,
  }) as unknown as Chain

test('a partial chain serves what its last blocks hold, and holds back the rest', () => {
  const tail = chain(true)
  const served = (method: string, ...params: unknown[]) => servedByTail(tail, method, params)
  expect(served('eth_blockNumber')).toBe(true)
  expect(served('eth_getBalance', '0x1', 'latest')).toBe(true)
  expect(served('eth_getBalance', '0x1')).toBe(true)
  expect(served('eth_getBalance', '0x1', '0x100')).toBe(true)
  expect(served('eth_getBalance', '0x1', '0xff')).toBe(false)
  expect(served('eth_getBalance', '0x1', 'earliest')).toBe(false)
  expect(served('eth_getBalance', '0x1', 'finalized')).toBe(false)
  expect(served('eth_call', {}, { blockHash: HELD_HASH })).toBe(true)
  expect(served('eth_call', {}, { blockHash: OLDER_HASH })).toBe(false)
  expect(served('eth_call', {}, { blockNumber: '0x200' })).toBe(true)
  expect(served('eth_getBlockByNumber', '0x101', false)).toBe(true)
  expect(served('eth_getBlockByNumber', '0x2', false)).toBe(false)
  expect(served('eth_getBlockReceipts', { blockHash: OLDER_HASH })).toBe(false)
  expect(served('eth_getBlockReceipts', 'committed')).toBe(true)
  // A parameter the method refuses is refused at once: the older blocks change nothing.
  expect(served('eth_getBalance', '0x1', 'not a block')).toBe(true)
  expect(served('eth_getBlockByNumber', '0x01', false)).toBe(true)
  expect(served('eth_getBlockByHash', HELD_HASH, false)).toBe(true)
  expect(served('eth_getBlockByHash', OLDER_HASH, false)).toBe(false)
  expect(served('eth_getTransactionReceipt', HELD_HASH)).toBe(true)
  expect(served('eth_getTransactionReceipt', OLDER_HASH)).toBe(false)
  expect(served('eth_getTransactionReceipt', 'not a hash')).toBe(true)
  expect(served('eth_sendRawTransaction', '0x02')).toBe(true)
  for (const method of ['eth_getLogs', 'zks_L1BatchNumber', 'evm_mine', 'evm_revert', 'debug_traceTransaction']) expect(served(method, {})).toBe(false)
  // Transactions wait when the miner cannot mine on the last blocks.
  expect(servedByTail(chain(false), 'eth_sendRawTransaction', ['0x02'])).toBe(false)
  expect(servedByTail(chain(false), 'eth_sendTransaction', [{}])).toBe(false)
})
