import { bigIntToHex } from '@ethereumjs/util'
import type { BlockRecord } from '../../../chain/records.ts'
import { method, constant, type MethodTable } from '../../method.ts'
import { blockRef, custom, isCount, optional, ParamError } from '../../params.ts'

/** geth's cap on eth_feeHistory's block count. */
const MAX_FEE_HISTORY = 1024n

export const feeMethods: MethodTable = {
  eth_gasPrice: constant((node) => bigIntToHex(node.params.gasPrice())),
  // The base fee is the whole L2 gas price; nothing is gained by tipping (ZKsync answers 0).
  eth_maxPriorityFeePerGas: constant(() => '0x0'),
  // EIP-4844's blob base fee of the next block (viem's getBlobBaseFee): no blobs are ever mined
  // here, so it stays at its minimum, 1 wei.
  eth_blobBaseFee: constant((node) => bigIntToHex(node.chain.head.header.calcNextBlobGasPrice(node.common))),

  eth_feeHistory: method(
    [custom('blockCount', parseBlockCount), blockRef('newestBlock'), optional(custom('rewardPercentiles', parsePercentiles))],
    (node, [requested, newestRef, percentiles]) => {
      const newest = node.block(newestRef)
      const count = requested > MAX_FEE_HISTORY ? MAX_FEE_HISTORY : requested
      // From the chain's first block at the earliest (a fork's: its fork block).
      const first = node.chain.first
      const oldest = newest.number - count + 1n > first ? newest.number - count + 1n : first
      const blocks = count === 0n ? [] : [...node.chain.range(oldest, newest.number)]
      const nextBaseFee = bigIntToHex(node.params.baseFee())
      const history: Record<string, unknown> = {
        oldestBlock: bigIntToHex(count === 0n ? 0n : oldest),
        baseFeePerGas: count === 0n ? [] : [...blocks.map((b) => bigIntToHex(b.header.baseFeePerGas ?? 0n)), nextBaseFee],
        gasUsedRatio: blocks.map((b) => Number(b.header.gasUsed) / Number(b.header.gasLimit)),
        baseFeePerBlobGas: count === 0n ? [] : [...blocks.map(() => '0x1'), '0x1'],
        blobGasUsedRatio: blocks.map(() => 0),
        // ZKsync's extra: the L2 price of a pubdata byte; an EVM chain charges none.
        l2PubdataPrice: blocks.map(() => '0x0'),
      }
      if (percentiles) history.reward = blocks.map((block) => rewards(block, percentiles))
      return history
    },
  ),
}

function parseBlockCount(value: unknown): bigint {
  if (isCount(value)) return BigInt(value)
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return BigInt(value)
  throw new ParamError(`expected a block count (hex quantity or integer), got ${JSON.stringify(value)}`)
}

function parsePercentiles(value: unknown): number[] {
  if (!Array.isArray(value)) throw new ParamError('expected an array of percentiles from 0 to 100')
  value.forEach((p, i) => {
    if (typeof p !== 'number' || !(p >= 0 && p <= 100)) throw new ParamError(`invalid reward percentile: ${JSON.stringify(p)}`)
    if (i > 0 && p < value[i - 1]) throw new ParamError(`invalid reward percentile: #${i - 1}:${value[i - 1]} > #${i}:${p}`)
  })
  return value
}

/** Effective tips at the given percentiles of the block's gas, as geth computes them. */
function rewards(block: BlockRecord, percentiles: number[]): string[] {
  const baseFee = block.header.baseFeePerGas ?? 0n
  const txs = block.transactions
    .map((tx) => ({ tip: tx.receipt.effectiveGasPrice - baseFee, gas: tx.receipt.gasUsed }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0))
  if (txs.length === 0) return percentiles.map(() => '0x0')
  const total = Number(block.header.gasUsed)
  let index = 0
  let sum = Number(txs[0].gas)
  return percentiles.map((p) => {
    // geth truncates the threshold to whole gas; a fractional one would reach one tx too far.
    const threshold = Math.floor((total * p) / 100)
    while (sum < threshold && index < txs.length - 1) sum += Number(txs[++index].gas)
    return bigIntToHex(txs[index].tip)
  })
}
