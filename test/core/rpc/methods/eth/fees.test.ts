import { describe, expect, test } from 'vitest'
import type { Node } from '../../../../../src/core/node.ts'
import { DEV, GAS_PRICE, mineBlock, rpc, startNode } from '../../../../support/chain.ts'
import { expectRpcError } from '../../../../support/expectRpc.ts'
import { signTx } from '../../../../support/rawTx.ts'

let node: Node | undefined

async function fresh(config: Parameters<typeof startNode>[0] = {}) {
  node = await startNode(config)
  return rpc(node)
}

const hex = (n: bigint | number) => `0x${n.toString(16)}`
const BLOCK_GAS_LIMIT = 2 ** 50

interface FeeHistory {
  oldestBlock: string
  baseFeePerGas: string[]
  gasUsedRatio: number[]
  baseFeePerBlobGas: string[]
  blobGasUsedRatio: number[]
  l2PubdataPrice: string[]
  reward?: string[][]
}

/** Mines `count` one-transfer blocks (automine). */
async function transfers(call: ReturnType<typeof rpc>, count: number) {
  for (let nonce = 0; nonce < count; nonce++) await call('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce }))
}

describe('gas price', () => {
  test('eth_gasPrice is the L2 gas price, 45,250,000 wei', async () => {
    const call = await fresh()
    expect(await call('eth_gasPrice')).toBe('0x2b275d0')
    expect(BigInt(await call<string>('eth_gasPrice'))).toBe(45_250_000n)
  })

  test('a configured gas price is both eth_gasPrice and every block base fee', async () => {
    const call = await fresh({ gasPrice: 1_000_000_000n })
    expect(await call('eth_gasPrice')).toBe('0x3b9aca00')
    await call('eth_sendRawTransaction', await signTx(DEV[0].key, { maxFeePerGas: 2_000_000_000n }))
    const block = await call<{ baseFeePerGas: string }>('eth_getBlockByNumber', 'latest', false)
    expect(block.baseFeePerGas).toBe('0x3b9aca00')
  })

  test('eth_maxPriorityFeePerGas is 0: a tip buys nothing on this chain', async () => {
    const call = await fresh()
    expect(await call('eth_maxPriorityFeePerGas')).toBe('0x0')
  })
})

describe('eth_feeHistory', () => {
  test('a fresh chain: one block, base fee count + 1, no reward without percentiles', async () => {
    const call = await fresh()
    const history = await call<FeeHistory>('eth_feeHistory', '0x1', 'latest')
    expect(history).toEqual({
      oldestBlock: '0x0',
      baseFeePerGas: [hex(GAS_PRICE), hex(GAS_PRICE)],
      gasUsedRatio: [0],
      baseFeePerBlobGas: ['0x1', '0x1'],
      blobGasUsedRatio: [0],
      l2PubdataPrice: ['0x0'],
    })
    expect(history).not.toHaveProperty('reward')
  })

  test('counts back from the newest block; baseFeePerGas has one entry more (the next block)', async () => {
    const call = await fresh()
    await transfers(call, 3)
    const history = await call<FeeHistory>('eth_feeHistory', '0x2', 'latest')
    expect(history.oldestBlock).toBe('0x2')
    expect(history.baseFeePerGas).toEqual([hex(GAS_PRICE), hex(GAS_PRICE), hex(GAS_PRICE)])
    expect(history.gasUsedRatio).toEqual([21_000 / BLOCK_GAS_LIMIT, 21_000 / BLOCK_GAS_LIMIT])
    expect(history.baseFeePerBlobGas).toHaveLength(3)
    expect(history.blobGasUsedRatio).toEqual([0, 0])
    expect(history.l2PubdataPrice).toEqual(['0x0', '0x0'])
  })

  test('the block count may be a hex quantity or a JSON number', async () => {
    const call = await fresh()
    await transfers(call, 2)
    expect(await call('eth_feeHistory', 2, 'latest')).toEqual(await call('eth_feeHistory', '0x2', 'latest'))
  })

  test('a historical newest block', async () => {
    const call = await fresh()
    await transfers(call, 3)
    const history = await call<FeeHistory>('eth_feeHistory', '0x2', '0x1')
    expect(history.oldestBlock).toBe('0x0')
    expect(history.gasUsedRatio).toEqual([0, 21_000 / BLOCK_GAS_LIMIT])
    expect(history.baseFeePerGas).toHaveLength(3)
  })

  test('more blocks than the chain has gives the whole chain', async () => {
    const call = await fresh()
    await transfers(call, 2)
    const history = await call<FeeHistory>('eth_feeHistory', '0x400', 'latest', [50])
    expect(history.oldestBlock).toBe('0x0')
    expect(history.gasUsedRatio).toHaveLength(3)
    expect(history.baseFeePerGas).toHaveLength(4)
    expect(history.reward).toHaveLength(3)
  })

  test('a block count of 0 gives empty lists', async () => {
    const call = await fresh()
    const history = await call<FeeHistory>('eth_feeHistory', '0x0', 'latest', [])
    expect(history.gasUsedRatio).toEqual([])
    expect(history.baseFeePerGas).toEqual([])
  })

  test('rewards are the effective tips at gas-weighted percentiles, as geth computes them', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    // One block with two 21,000-gas transfers tipping 3000 and 1000 wei, then an empty block.
    await call('eth_sendRawTransaction', await signTx(DEV[0].key, { maxPriorityFeePerGas: 3000n }))
    await call('eth_sendRawTransaction', await signTx(DEV[1].key, { maxPriorityFeePerGas: 1000n }))
    await mineBlock(node!)
    await mineBlock(node!)
    const history = await call<FeeHistory>('eth_feeHistory', '0x2', 'latest', [0, 25, 50, 50.001, 75, 100])
    expect(history.oldestBlock).toBe('0x1')
    expect(history.gasUsedRatio).toEqual([42_000 / BLOCK_GAS_LIMIT, 0])
    // 50.001% of 42,000 gas is 21,000.42: geth truncates it to 21,000, still inside the cheaper tx.
    expect(history.reward).toEqual([
      ['0x3e8', '0x3e8', '0x3e8', '0x3e8', '0xbb8', '0xbb8'],
      ['0x0', '0x0', '0x0', '0x0', '0x0', '0x0'],
    ])
  })

  test('a tip above what the fee cap leaves counts as the capped tip', async () => {
    const call = await fresh()
    // maxFee = base + 500: the effective tip is 500 whatever the declared tip.
    await call('eth_sendRawTransaction', await signTx(DEV[0].key, { maxFeePerGas: GAS_PRICE + 500n, maxPriorityFeePerGas: 10_000n }))
    const history = await call<FeeHistory>('eth_feeHistory', '0x1', 'latest', [50])
    expect(history.reward).toEqual([['0x1f4']])
  })

  describe('bad input', () => {
    test.each([
      ['percentiles that are not an array', ['0x1', 'latest', '50'], /^invalid argument 2 \(rewardPercentiles\): /],
      ['a percentile above 100', ['0x1', 'latest', [10, 101]], /^invalid argument 2 \(rewardPercentiles\): invalid reward percentile: 101/],
      ['a negative percentile', ['0x1', 'latest', [-1]], /^invalid argument 2 \(rewardPercentiles\): invalid reward percentile/],
      [
        'decreasing percentiles',
        ['0x1', 'latest', [50, 10]],
        /^invalid argument 2 \(rewardPercentiles\): invalid reward percentile: #0:50 > #1:10/,
      ],
      ['a percentile that is a string', ['0x1', 'latest', ['50']], /^invalid argument 2 \(rewardPercentiles\): invalid reward percentile/],
      ['a negative block count', [-1, 'latest'], /^invalid argument 0 \(blockCount\): /],
      ['a fractional block count', [1.5, 'latest'], /^invalid argument 0 \(blockCount\): /],
      ['a block count that is not a number', ['0xzz', 'latest'], /^invalid argument 0 \(blockCount\): /],
      ['a bad newest block', ['0x1', 'newest'], /^invalid argument 1 \(newestBlock\): /],
      ['no newest block', ['0x1'], 'missing value for required argument 1 (newestBlock)'],
      ['no arguments', [], 'missing value for required argument 0 (blockCount)'],
      ['four arguments', ['0x1', 'latest', [], 1], 'too many arguments, want at most 3'],
    ])('%s → -32602', async (_, params, message) => {
      const call = await fresh()
      await expectRpcError(call('eth_feeHistory', ...params), -32602, message)
    })

    test('a newest block beyond the head → -32000 header not found', async () => {
      const call = await fresh()
      await expectRpcError(call('eth_feeHistory', '0x1', '0x5'), -32000, 'header not found')
    })
  })
})
