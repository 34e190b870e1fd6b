/**
 * The explorer's reads of the chain, typed. Absent things come back as `null` (as the node
 * answers them); failures reject with the node's JSON-RPC error.
 */
import type { Hex, Session } from '../session.ts'
import type { BatchDetails, FullBlock, RpcReceipt, RpcTransaction, TransactionDetails } from './types.ts'

export const toHex = (n: bigint | number): Hex => `0x${n.toString(16)}`

export const headNumber = async (session: Session): Promise<bigint> => BigInt(await session.request<Hex>('eth_blockNumber'))

export const blockByNumber = (session: Session, number: bigint | 'latest') =>
  session.request<FullBlock | null>('eth_getBlockByNumber', [number === 'latest' ? 'latest' : toHex(number), true])

export const blockByHash = (session: Session, hash: Hex) => session.request<FullBlock | null>('eth_getBlockByHash', [hash, true])

export const transaction = (session: Session, hash: Hex) => session.request<RpcTransaction | null>('eth_getTransactionByHash', [hash])

export const receipt = (session: Session, hash: Hex) => session.request<RpcReceipt | null>('eth_getTransactionReceipt', [hash])

export const transactionDetails = (session: Session, hash: Hex) => session.request<TransactionDetails | null>('zks_getTransactionDetails', [hash])

export const latestBatchNumber = async (session: Session): Promise<number> => Number(BigInt(await session.request<Hex>('zks_L1BatchNumber')))

export const batchDetails = (session: Session, number: number) => session.request<BatchDetails | null>('zks_getL1BatchDetails', [number])

/** The first and last L2 block of a batch, or null for a batch the node does not know. */
export async function batchBlockRange(session: Session, number: number): Promise<[bigint, bigint] | null> {
  const range = await session.request<[Hex, Hex] | null>('zks_getL1BatchBlockRange', [number])
  return range === null ? null : [BigInt(range[0]), BigInt(range[1])]
}

/** Blocks `from`…`to` (inclusive, newest first), fetched side by side. */
export async function blocksDescending(session: Session, to: bigint, from: bigint): Promise<FullBlock[]> {
  const numbers: bigint[] = []
  for (let n = to; n >= from && n >= 0n; n--) numbers.push(n)
  const blocks = await Promise.all(numbers.map((n) => blockByNumber(session, n)))
  return blocks.filter((block): block is FullBlock => block !== null)
}
