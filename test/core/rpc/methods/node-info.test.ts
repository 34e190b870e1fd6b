import { HDNodeWallet, keccak256, Mnemonic, parseEther, ZeroAddress } from 'ethers'
import { describe, expect, test } from 'vitest'
import pkg from '../../../../package.json' with { type: 'json' }
import type { Node } from '../../../../src/core/node.ts'
import { DEV, rpc, startNode } from '../../../support/chain.ts'
import { expectRpcError } from '../../../support/expectRpc.ts'
import { signTx } from '../../../support/rawTx.ts'

let node: Node | undefined

async function fresh(config: Parameters<typeof startNode>[0] = {}) {
  node = await startNode(config)
  return rpc(node)
}

describe('chain identity', () => {
  test('eth_chainId is 0x104 and net_version "260" by default', async () => {
    const call = await fresh()
    expect(await call('eth_chainId')).toBe('0x104')
    expect(await call('net_version')).toBe('260')
  })

  test('both follow a configured chain id', async () => {
    const call = await fresh({ chainId: 324 })
    expect(await call('eth_chainId')).toBe('0x144')
    expect(await call('net_version')).toBe('324')
  })

  test('eth_blockNumber starts at 0x0 and follows the head', async () => {
    const call = await fresh()
    expect(await call('eth_blockNumber')).toBe('0x0')
    await call('eth_sendRawTransaction', await signTx(DEV[0].key))
    expect(await call('eth_blockNumber')).toBe('0x1')
    await call('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce: 1 }))
    expect(await call('eth_blockNumber')).toBe('0x2')
  })
})

describe('dev accounts', () => {
  test('eth_accounts lists the 10 accounts of the test…junk mnemonic, lowercase, in order', async () => {
    const call = await fresh()
    const mnemonic = Mnemonic.fromPhrase('test test test test test test test test test test test junk')
    const expected = Array.from({ length: 10 }, (_, i) =>
      HDNodeWallet.fromMnemonic(mnemonic, `m/44'/60'/0'/0/${i}`).address.toLowerCase(),
    )
    const accounts = await call<string[]>('eth_accounts')
    expect(accounts).toEqual(expected)
    expect(accounts[0]).toBe(DEV[0].address)
  })

  test('each holds 10,000 ETH at genesis', async () => {
    const call = await fresh()
    const accounts = await call<string[]>('eth_accounts')
    const balances = await Promise.all(accounts.map((a) => call('eth_getBalance', a, 'latest')))
    expect(new Set(balances)).toEqual(new Set([`0x${parseEther('10000').toString(16)}`]))
  })

  test('the account count is configurable', async () => {
    const call = await fresh({ accounts: 2 })
    expect(await call('eth_accounts')).toEqual([DEV[0].address, DEV[1].address])
  })
})

describe('node status', () => {
  test('static answers of a single dev node', async () => {
    const call = await fresh()
    expect(await call('eth_syncing')).toBe(false)
    expect(await call('eth_protocolVersion')).toBe('zks/1')
    expect(await call('eth_coinbase')).toBe(ZeroAddress)
    expect(await call('eth_hashrate')).toBe('0x0')
    expect(await call('net_listening')).toBe(true)
    expect(await call('net_peerCount')).toBe('0x0')
  })

  test('eth_mining is true when blocks appear by themselves (auto, interval)', async () => {
    expect(await (await fresh())('eth_mining')).toBe(true)
    await node!.close()
    expect(await (await fresh({ mining: { mode: 'interval', intervalMs: 60_000 } }))('eth_mining')).toBe(true)
  })

  test('eth_mining is false under manual mining', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    expect(await call('eth_mining')).toBe(false)
  })

  test("web3_clientVersion is a ZKsync dev node to Hardhat's network helpers, and names pagenode and its version", async () => {
    const call = await fresh()
    const version = (await call('web3_clientVersion')) as string
    expect(version).toBe(`zkSync/pagenode/v${pkg.version}`)
    // The helpers' own test (checkIfDevelopmentNetwork, hardhat-network-helpers 1.x and 3.x).
    const isDevelopmentNetwork = ['hardhatnetwork', 'zksync', 'anvil'].some((prefix) => version.toLowerCase().startsWith(prefix))
    expect(isDevelopmentNetwork).toBe(true)
  })
})

describe('web3_sha3', () => {
  test('known vectors', async () => {
    const call = await fresh()
    expect(await call('web3_sha3', '0x')).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    // keccak256("hello world")
    expect(await call('web3_sha3', '0x68656c6c6f20776f726c64')).toBe(
      '0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad',
    )
  })

  test('hashes the bytes, whatever the hex case', async () => {
    const call = await fresh()
    const data = '0xDEADbeef00FF'
    expect(await call('web3_sha3', data)).toBe(keccak256(data.toLowerCase()))
  })

  test.each([
    ['odd-length hex', ['0x123'], /^invalid argument 0 \(data\): expected 0x-prefixed hex bytes of even length/],
    ['no 0x prefix', ['68656c6c6f'], /^invalid argument 0 \(data\): /],
    ['a non-hex string', ['0xzz'], /^invalid argument 0 \(data\): /],
    ['a number', [42], /^invalid argument 0 \(data\): /],
    ['nothing', [], 'missing value for required argument 0 (data)'],
    ['two arguments', ['0x', '0x'], 'too many arguments, want at most 1'],
  ])('%s → -32602', async (_, params, message) => {
    const call = await fresh()
    await expectRpcError(call('web3_sha3', ...params), -32602, message)
  })
})

describe('parameterless methods refuse arguments', () => {
  test.each([
    'eth_chainId',
    'eth_blockNumber',
    'eth_accounts',
    'eth_syncing',
    'eth_protocolVersion',
    'eth_coinbase',
    'eth_mining',
    'eth_hashrate',
    'eth_gasPrice',
    'eth_maxPriorityFeePerGas',
    'net_version',
    'net_listening',
    'net_peerCount',
    'web3_clientVersion',
  ])('%s', async (method) => {
    const call = await fresh()
    await expectRpcError(call(method, 'latest'), -32602, 'too many arguments, want at most 0')
  })

  test('params that are not an array → -32602', async () => {
    await fresh()
    await expectRpcError(node!.request({ method: 'eth_chainId', params: { a: 1 } }), -32602, /expected an array/)
  })

  test('an empty array and no params at all are both fine', async () => {
    await fresh()
    expect(await node!.request({ method: 'eth_chainId' })).toBe('0x104')
    expect(await node!.request({ method: 'eth_chainId', params: [] })).toBe('0x104')
  })
})
