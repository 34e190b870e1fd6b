import {
  BaseError,
  UnauthorizedProviderError,
  createTestClient,
  createWalletClient,
  custom,
  publicActions,
  walletActions,
  type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { DEV, eip1193, GAS_PRICE, startNode } from '../../support/chain.ts'

const STRANGER = '0x00000000000000000000000000000000005afe00' as const
/** Runtime code that returns its storage slot 0 as a word: PUSH0 SLOAD PUSH0 MSTORE PUSH1 32 PUSH0 RETURN. */
const SLOT0_CODE = '0x5f545f5260205ff3'

let node: Node
beforeEach(async () => {
  node = await startNode()
})

describe.each(['anvil', 'hardhat'] as const)("viem's test client in %s mode", (mode) => {
  function clients() {
    const transport = custom(eip1193(node), { retryCount: 0 })
    const testClient = createTestClient({ mode, transport, pollingInterval: 10 }).extend(publicActions).extend(walletActions)
    // A JSON-RPC account: eth_sendTransaction, signed (or impersonated) by the node.
    const wallet = (account: Hex) => createWalletClient({ account, transport, pollingInterval: 10 })
    return { testClient, wallet }
  }

  test('mine: blocks, and blocks an interval apart', async () => {
    const { testClient } = clients()
    await testClient.mine({ blocks: 3 })
    expect(await testClient.getBlockNumber()).toBe(3n)
    await testClient.mine({ blocks: 2, interval: 60 })
    const [before, last] = await Promise.all([testClient.getBlock({ blockNumber: 4n }), testClient.getBlock({ blockNumber: 5n })])
    expect(last.timestamp - before.timestamp).toBe(60n)
  })

  test('automine off: transactions wait in the pool (txpool_*), can be dropped, and are mined on demand', async () => {
    const { testClient, wallet } = clients()
    expect(await testClient.getAutomine()).toBe(true)
    await testClient.setAutomine(false)
    expect(await testClient.getAutomine()).toBe(false)

    const hash = await wallet(DEV[0].address).sendTransaction({ to: STRANGER, value: 7n, chain: null })
    const later = await wallet(DEV[0].address).sendTransaction({ to: STRANGER, value: 8n, chain: null, nonce: 5 })
    expect(await testClient.getBlockNumber()).toBe(0n)
    expect(await testClient.getTxpoolStatus()).toEqual({ pending: 1, queued: 1 })
    const content = await testClient.getTxpoolContent()
    expect(content.pending[DEV[0].address]?.['0']).toMatchObject({ hash, to: STRANGER, value: '0x7', blockNumber: null })
    expect(content.queued[DEV[0].address]?.['5']).toMatchObject({ hash: later })
    expect(await testClient.inspectTxpool()).toEqual({
      pending: { [DEV[0].address]: { '0': `${STRANGER}: 7 wei + 21000 gas × ${GAS_PRICE} wei` } },
      queued: { [DEV[0].address]: { '5': `${STRANGER}: 8 wei + 21000 gas × ${GAS_PRICE} wei` } },
    })

    await testClient.dropTransaction({ hash: later })
    expect(await testClient.getTxpoolStatus()).toEqual({ pending: 1, queued: 0 })
    await testClient.mine({ blocks: 1 })
    expect((await testClient.getTransactionReceipt({ hash })).blockNumber).toBe(1n)
    expect(await testClient.getTxpoolStatus()).toEqual({ pending: 0, queued: 0 })

    await testClient.setAutomine(true)
    const next = await wallet(DEV[0].address).sendTransaction({ to: STRANGER, value: 1n, chain: null })
    expect((await testClient.getTransactionReceipt({ hash: next })).blockNumber).toBe(2n)
  })

  test('setIntervalMining: 0 stops mining by itself; an interval (in seconds, as anvil reads it) mines empty blocks', async () => {
    const { testClient } = clients()
    await testClient.setIntervalMining({ interval: 0 })
    expect([await testClient.getAutomine(), await testClient.request({ method: 'eth_mining' })]).toEqual([false, false])
    // viem's hardhat mode sends milliseconds (Hardhat's unit); this node reads seconds
    // (docs/methods.md, "Dev-node methods").
    if (mode === 'hardhat') return
    await testClient.setIntervalMining({ interval: 1 })
    await vi.waitFor(async () => expect(await testClient.getBlockNumber()).toBeGreaterThan(0n), { timeout: 3000, interval: 50 })
    await testClient.setIntervalMining({ interval: 0 })
  })

  test('snapshot and revert', async () => {
    const { testClient } = clients()
    const id = await testClient.snapshot()
    await testClient.setBalance({ address: STRANGER, value: 5n })
    await testClient.mine({ blocks: 2 })
    await testClient.revert({ id })
    expect(await testClient.getBalance({ address: STRANGER })).toBe(0n)
    expect(await testClient.getBlockNumber()).toBe(0n)
  })

  test('time: increaseTime, setNextBlockTimestamp, a block timestamp interval', async () => {
    const { testClient } = clients()
    const genesis = await testClient.getBlock()
    await testClient.increaseTime({ seconds: 3600 })
    await testClient.mine({ blocks: 1 })
    expect((await testClient.getBlock()).timestamp).toBeGreaterThanOrEqual(genesis.timestamp + 3600n)

    const at = genesis.timestamp + 86_400n
    await testClient.setNextBlockTimestamp({ timestamp: at })
    await testClient.mine({ blocks: 1 })
    expect((await testClient.getBlock()).timestamp).toBe(at)

    await testClient.setBlockTimestampInterval({ interval: 5 })
    await testClient.mine({ blocks: 2 })
    const [a, b] = await Promise.all([testClient.getBlock({ blockNumber: 3n }), testClient.getBlock({ blockNumber: 4n })])
    expect([a.timestamp - at, b.timestamp - a.timestamp]).toEqual([5n, 5n])
    await testClient.removeBlockTimestampInterval()
    expect(node.clock.interval).toBeUndefined()
  })

  test('setBalance, setCode, setNonce, setStorageAt: at once, in the state, no block', async () => {
    const { testClient } = clients()
    await testClient.setBalance({ address: STRANGER, value: 10n ** 18n })
    await testClient.setCode({ address: STRANGER, bytecode: SLOT0_CODE })
    await testClient.setNonce({ address: STRANGER, nonce: 9 })
    await testClient.setStorageAt({ address: STRANGER, index: 0, value: `0x${'00'.repeat(31)}2a` })
    expect(await testClient.getBalance({ address: STRANGER })).toBe(10n ** 18n)
    expect(await testClient.getCode({ address: STRANGER })).toBe(SLOT0_CODE)
    expect(await testClient.getTransactionCount({ address: STRANGER })).toBe(9)
    expect(await testClient.call({ to: STRANGER })).toEqual({ data: `0x${'00'.repeat(31)}2a` })
    expect(await testClient.getBlockNumber()).toBe(0n)
  })

  test('impersonateAccount: eth_sendTransaction from an account without its key; stopImpersonatingAccount ends it', async () => {
    const { testClient, wallet } = clients()
    await testClient.setBalance({ address: STRANGER, value: 10n ** 18n })
    await testClient.impersonateAccount({ address: STRANGER })
    const hash = await wallet(STRANGER).sendTransaction({ to: DEV[1].address, value: 3n, chain: null })
    const receipt = await testClient.getTransactionReceipt({ hash })
    expect(receipt).toMatchObject({ status: 'success', from: STRANGER })
    expect((await testClient.getTransaction({ hash })).from).toBe(STRANGER)

    await testClient.stopImpersonatingAccount({ address: STRANGER })
    const refused = await wallet(STRANGER)
      .sendTransaction({ to: DEV[1].address, value: 3n, chain: null })
      .then(() => expect.unreachable('the node sent for an account it no longer impersonates'), (e: BaseError) => e)
    expect(refused.walk((e) => e instanceof UnauthorizedProviderError)).toMatchObject({ code: 4100 })
  })

  test('sendUnsignedTransaction: from any sender', async () => {
    const { testClient } = clients()
    await testClient.setBalance({ address: STRANGER, value: 10n ** 18n })
    const hash = await testClient.sendUnsignedTransaction({ from: STRANGER, to: DEV[1].address, value: 1n })
    expect(await testClient.getTransactionReceipt({ hash })).toMatchObject({ status: 'success', from: STRANGER })
  })

  test('the next block: base fee, gas limit, coinbase; the minimum gas price', async () => {
    const { testClient } = clients()
    await testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: 1_000_000n })
    await testClient.setBlockGasLimit({ gasLimit: 20_000_000n })
    await testClient.setCoinbase({ address: STRANGER })
    await testClient.mine({ blocks: 2 })
    const [first, second] = await Promise.all([testClient.getBlock({ blockNumber: 1n }), testClient.getBlock({ blockNumber: 2n })])
    expect(first).toMatchObject({ baseFeePerGas: 1_000_000n, gasLimit: 20_000_000n, miner: STRANGER })
    // The base fee is the chain's fixed L2 price again after the block it was set for.
    expect(second).toMatchObject({ baseFeePerGas: GAS_PRICE, gasLimit: 20_000_000n, miner: STRANGER })

    await testClient.setMinGasPrice({ gasPrice: 2n * GAS_PRICE })
    expect(await testClient.getGasPrice()).toBe(2n * GAS_PRICE)
    const signer = privateKeyToAccount(DEV[0].key)
    const cheap = await signer.signTransaction({ chainId: 260, to: STRANGER, gas: 21_000n, maxFeePerGas: GAS_PRICE, maxPriorityFeePerGas: 0n, nonce: 0 })
    await expect(testClient.sendRawTransaction({ serializedTransaction: cheap })).rejects.toThrow(
      `transaction underpriced: gas fee cap ${GAS_PRICE}, minimum needed ${2n * GAS_PRICE}`,
    )
  })

  test('dumpState and loadState carry accounts, code and storage to another node', async () => {
    const { testClient } = clients()
    await testClient.setBalance({ address: STRANGER, value: 123n })
    await testClient.setCode({ address: STRANGER, bytecode: SLOT0_CODE })
    await testClient.setStorageAt({ address: STRANGER, index: 0, value: `0x${'00'.repeat(31)}07` })
    const state = await testClient.dumpState()
    expect(state).toMatch(/^0x1f8b/)

    const other = await startNode({ mnemonic: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about' })
    try {
      const client = createTestClient({ mode, transport: custom(eip1193(other)) }).extend(publicActions)
      await client.loadState({ state })
      expect(await client.getBalance({ address: STRANGER })).toBe(123n)
      expect(await client.getCode({ address: STRANGER })).toBe(SLOT0_CODE)
      expect(await client.getStorageAt({ address: STRANGER, slot: '0x0' })).toBe(`0x${'00'.repeat(31)}07`)
      // The dev accounts of the first node came along with their balances.
      expect(await client.getBalance({ address: DEV[0].address })).toBe(10_000n * 10n ** 18n)
    } finally {
      await other.close()
    }
  })

  test('reset: a fresh genesis', async () => {
    const { testClient } = clients()
    await testClient.setBalance({ address: STRANGER, value: 5n })
    await testClient.mine({ blocks: 4 })
    await testClient.impersonateAccount({ address: STRANGER })
    await testClient.reset()
    expect(await testClient.getBlockNumber()).toBe(0n)
    expect(await testClient.getBalance({ address: STRANGER })).toBe(0n)
    expect(await testClient.getAddresses()).not.toContain(STRANGER)
  })
})
