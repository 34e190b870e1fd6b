import { gzipSync } from 'node:zlib'
import { beforeEach, expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { systemContracts } from '../../../src/core/rollup/systemContracts.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { rpc, startNode } from '../../support/chain.ts'

const A = '0x00000000000000000000000000000000000000a1'
const hex = (text: string) => `0x${Buffer.from(text).toString('hex')}`
const gzipHex = (text: string) => `0x${gzipSync(text).toString('hex')}`

let node: Node
let call: ReturnType<typeof rpc>
beforeEach(async () => {
  node = await startNode()
  call = rpc(node)
})

test('setCode and setStorageAt with malformed hex are -32602 naming the argument', async () => {
  await expectRpcError(call('anvil_setCode', A, '0xzz'), -32602, 'invalid argument 1 (code): expected 0x-prefixed hex bytes of even length, got "0xzz"')
  await expectRpcError(call('hardhat_setCode', A, '6001'), -32602, 'invalid argument 1 (code): expected 0x-prefixed hex bytes of even length, got "6001"')
  await expectRpcError(call('anvil_setCode', A, '0x600'), -32602, /^invalid argument 1 \(code\)/)
  await expectRpcError(call('anvil_setStorageAt', A, '0x0', `0x${'11'.repeat(33)}`), -32602, /^invalid argument 2 \(value\): expected 0x-prefixed hex of at most 32 bytes/)
  await expectRpcError(call('anvil_setBalance', '0x1234', '0x1'), -32602, /^invalid argument 0 \(address\): expected a 20-byte address/)
  await expectRpcError(call('anvil_setBalance', A, -1), -32602, 'invalid argument 1 (balance): expected a non-negative integer (a JSON number or 0x-prefixed hex), got -1')
  expect(await call('eth_getCode', A, 'latest')).toBe('0x')
})

test('a malformed state dump is refused whole, naming what is wrong', async () => {
  const load = (state: unknown) => call('anvil_loadState', state)
  await expectRpcError(load('not hex'), -32602, 'invalid argument 0 (state): expected 0x-prefixed hex bytes of even length, got "not hex"')
  await expectRpcError(load('0x00ff00'), -32602, 'invalid argument 0 (state): not a state dump: expected gzip-compressed or plain JSON (anvil_dumpState output), got other bytes')
  await expectRpcError(load(hex('{"accounts": [')), -32602, /^invalid argument 0 \(state\): not a state dump: invalid JSON/)
  await expectRpcError(load('0x1f8b0800000000000003ffff'), -32602, /^invalid argument 0 \(state\): not a state dump: the gzip data is damaged/)
  await expectRpcError(load(gzipHex('{"blocks": []}')), -32602, 'invalid argument 0 (state): not a state dump: accounts: expected an object, got undefined')
  await expectRpcError(
    load(gzipHex(JSON.stringify({ accounts: { [A]: { balance: '0x1' }, '0xabc': { balance: '0x1' } } }))),
    -32602,
    'invalid argument 0 (state): not a state dump: accounts.0xabc: expected a 20-byte address (0x-prefixed, 40 hex digits), got "0xabc"',
  )
  await expectRpcError(
    load(gzipHex(JSON.stringify({ accounts: { [A]: { balance: 'lots' } } }))),
    -32602,
    `invalid argument 0 (state): not a state dump: accounts.${A}: balance: expected a non-negative integer (a JSON number or 0x-prefixed hex), got "lots"`,
  )
  await expectRpcError(
    load(gzipHex(JSON.stringify({ accounts: { [A]: { code: '0x6', storage: {} } } }))),
    -32602,
    `invalid argument 0 (state): not a state dump: accounts.${A}: code: expected 0x-prefixed hex bytes of even length, got "0x6"`,
  )
  await expectRpcError(
    load(gzipHex(JSON.stringify({ accounts: { [A]: { storage: { '0x0': `0x${'1'.repeat(65)}` } } } }))),
    -32602,
    `invalid argument 0 (state): not a state dump: accounts.${A}: storage.0x0: expected hex of at most 32 bytes, got "0x${'1'.repeat(65)}"`,
  )
  // Nothing of a refused dump was written, not even its valid accounts.
  expect(await call('eth_getBalance', A, 'latest')).toBe('0x0')
})

test("a plain-JSON dump in anvil's layout loads: numbers and hex, extra fields ignored", async () => {
  const dump = {
    block: { number: '0x5' },
    accounts: { [A]: { nonce: 3, balance: '0x0de0b6b3a7640000', code: '0x00', storage: { '0x1': '0x2a' } } },
    best_block_number: 5,
    blocks: [],
    transactions: [],
    historical_states: null,
  }
  expect(await call('anvil_loadState', hex(JSON.stringify(dump)))).toBe(true)
  expect(await call('eth_getTransactionCount', A, 'latest')).toBe('0x3')
  expect(await call('eth_getBalance', A, 'latest')).toBe('0xde0b6b3a7640000')
  expect(await call('eth_getCode', A, 'latest')).toBe('0x00')
  expect(await call('eth_getStorageAt', A, '0x1', 'latest')).toBe(`0x${'2a'.padStart(64, '0')}`)
  expect(await call('eth_blockNumber')).toBe('0x0')
})

test('the dump lists every account of the head state, addresses and slots in order', async () => {
  await call('anvil_setStorageAt', A, '0x2', '0x02')
  await call('anvil_setStorageAt', A, '0x1', '0x01')
  const dump = JSON.parse(Buffer.from(await new Response(
    new Blob([Buffer.from((await call<string>('anvil_dumpState')).slice(2), 'hex')]).stream().pipeThrough(new DecompressionStream('gzip')),
  ).arrayBuffer()).toString())
  const addresses = Object.keys(dump.accounts)
  expect(addresses).toEqual([...addresses].sort())
  // The ten dev accounts, the 20 rich wallets, the system contracts, NonceHolder's byte of code and A.
  expect(addresses).toHaveLength(10 + 20 + (await systemContracts()).length + 1 + 1)
  expect(dump.accounts[A]).toEqual({
    nonce: 0,
    balance: '0x0',
    code: '0x',
    storage: { [`0x${'1'.padStart(64, '0')}`]: `0x${'1'.padStart(64, '0')}`, [`0x${'2'.padStart(64, '0')}`]: `0x${'2'.padStart(64, '0')}` },
  })
  expect(dump).toMatchObject({ best_block_number: 0, blocks: [], transactions: [] })
  expect(await call('anvil_reset', { forking: { jsonRpcUrl: 'ftp://mainnet.example' } }).catch((e) => e.message)).toBe(
    'invalid argument 0 (options): forking.jsonRpcUrl: expected an http: or https: URL, got "ftp://mainnet.example"',
  )
})
