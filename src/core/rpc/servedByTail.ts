import type { PrefixedHexString } from '@ethereumjs/util'
import type { Chain } from '../chain/chain.ts'

/**
 * What a restarted chain answers while its older blocks are still being read (issue 21: a long
 * chain's warm start must not wait for them). Its last blocks, their state and the pool are there
 * from the start; calls that need no more than those are answered at once: the chain's identity,
 * state reads and calls at a block held, those blocks and their transactions and receipts, and
 * transactions, which the miner mines on the last blocks (Chain.mineable). Every other call waits
 * for the older blocks (Node.request): a block or a hash not among the last blocks, logs,
 * batches, traces, and the dev methods that mine or rewind.
 */
const ALWAYS = new Set([
  'eth_chainId',
  'net_version',
  'net_listening',
  'web3_clientVersion',
  'eth_blockNumber',
  'eth_accounts',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_syncing',
])

/** Methods that read the state or a block by its number (or tag), and the position of that parameter. */
const AT_BLOCK: Record<string, number> = {
  eth_getBalance: 1,
  eth_getTransactionCount: 1,
  eth_getCode: 1,
  eth_getStorageAt: 2,
  eth_call: 1,
  eth_estimateGas: 1,
  eth_getBlockByNumber: 0,
  eth_getBlockTransactionCountByNumber: 0,
  eth_getTransactionByBlockNumberAndIndex: 0,
  eth_getBlockReceipts: 0,
}

/** Methods that read a block by its hash (first parameter). */
const BY_BLOCK_HASH = new Set(['eth_getBlockByHash', 'eth_getBlockTransactionCountByHash', 'eth_getTransactionByBlockHashAndIndex'])

/** Methods that read a mined transaction by its hash (first parameter). */
const BY_TRANSACTION_HASH = new Set(['eth_getTransactionReceipt', 'eth_getTransactionByHash'])

/** Methods that admit a transaction, to be mined under automine. */
const SENDS = new Set(['eth_sendRawTransaction', 'eth_sendTransaction'])

/** Tags a partial chain resolves: `safe`, `finalized` and `earliest` name blocks it may not hold. */
const HELD_TAGS = new Set([undefined, 'latest', 'pending'])

export function servedByTail(chain: Chain, method: string, params: unknown): boolean {
  if (ALWAYS.has(method)) return true
  const list = Array.isArray(params) ? (params as unknown[]) : []
  if (SENDS.has(method)) return chain.mineable
  if (BY_BLOCK_HASH.has(method)) return isHash(list[0]) && chain.blockByHash(list[0]) !== undefined
  if (BY_TRANSACTION_HASH.has(method)) return isHash(list[0]) && chain.hasTransaction(list[0])
  const at = Object.hasOwn(AT_BLOCK, method) ? AT_BLOCK[method] : undefined
  return at !== undefined && holds(chain, list[at])
}

/** Whether the block a parameter names (a tag, a number, or EIP-1898's object) is among those held. */
function holds(chain: Chain, block: unknown): boolean {
  if (HELD_TAGS.has(block as string | undefined)) return true
  // A block hash where a number may be given (eth_getBlockReceipts): held if found by it.
  if (isHash(block)) return chain.blockByHash(block) !== undefined
  if (isQuantity(block)) return BigInt(block) >= chain.firstHeld
  if (typeof block !== 'object' || block === null) return false
  const { blockHash, blockNumber } = block as { blockHash?: unknown; blockNumber?: unknown }
  if (blockHash !== undefined) return isHash(blockHash) && chain.blockByHash(blockHash) !== undefined
  return holds(chain, blockNumber)
}

function isQuantity(value: unknown): value is PrefixedHexString {
  return typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)
}

function isHash(value: unknown): value is PrefixedHexString {
  return typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value)
}
