import type { BlockRef } from '../chain/blockRef.ts'
import type { Chain } from '../chain/chain.ts'
import { ParamError, parseBlockRef, parseHash } from './params.ts'

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
const HELD_TAGS = new Set(['latest', 'pending', 'committed'])

export function servedByTail(chain: Chain, method: string, params: unknown): boolean {
  if (ALWAYS.has(method)) return true
  const list = Array.isArray(params) ? (params as unknown[]) : []
  if (SENDS.has(method)) return chain.mineable
  // Read with the methods' own parsers, so that the tail answers as the method reads the call; a
  // parameter they refuse is refused at once, the same with or without the older blocks.
  if (BY_BLOCK_HASH.has(method)) return whenParsed(parseHash, list[0], (hash) => chain.blockByHash(hash) !== undefined)
  if (BY_TRANSACTION_HASH.has(method)) return whenParsed(parseHash, list[0], (hash) => chain.hasTransaction(hash))
  const at = Object.hasOwn(AT_BLOCK, method) ? AT_BLOCK[method] : undefined
  if (at === undefined) return false
  // Absent or null: `latest`, the methods' default.
  return list[at] === undefined || list[at] === null || whenParsed(parseBlockRef, list[at], (ref) => holds(chain, ref))
}

/** Whether the block `ref` names is among those a partial chain holds. */
function holds(chain: Chain, ref: BlockRef): boolean {
  if (ref.kind === 'tag') return HELD_TAGS.has(ref.tag)
  if (ref.kind === 'number') return ref.number >= chain.firstHeld
  return chain.blockByHash(ref.hash) !== undefined
}

/** `served(parsed)`, or true for a value `parse` refuses (the method refuses it at once). */
function whenParsed<T>(parse: (value: unknown) => T, value: unknown, served: (parsed: T) => boolean): boolean {
  let parsed: T
  try {
    parsed = parse(value)
  } catch (error) {
    if (error instanceof ParamError) return true
    throw error
  }
  return served(parsed)
}
