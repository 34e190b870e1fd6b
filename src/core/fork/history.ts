import { bigIntToHex, type PrefixedHexString } from '@ethereumjs/util'
import type { BlockRef } from '../chain/blockRef.ts'
import { RpcError, UpstreamError } from '../errors.ts'
import type { Node } from '../node.ts'
import { parseBlockRef } from '../rpc/params.ts'
import type { ForkState } from './forkState.ts'

/**
 * How a method names what it reads, and where (its param's position):
 * - `block`: a block by number or tag; the upstream's up to the fork block, whose own block is the
 *   upstream's too (the local first block only stands for it: exec/genesis.ts);
 * - `blockHash`: a block by hash, the upstream's unless it is a local block above the fork block;
 * - `state`: the state at a block; the upstream's below the fork block (at the fork block it is
 *   the local chain's, the upstream's with the dev accounts funded);
 * - `transaction`: a transaction by hash, the upstream's when the node has none by that hash and
 *   the upstream mined it at or before the fork block;
 * - `batch`: a ZKsync upstream's L1 batch up to the fork block's.
 */
interface Route {
  kind: 'block' | 'blockHash' | 'state' | 'transaction' | 'batch'
  at: number
}

const ROUTES: Record<string, Route> = {
  eth_getBlockByNumber: { kind: 'block', at: 0 },
  eth_getBlockTransactionCountByNumber: { kind: 'block', at: 0 },
  eth_getUncleCountByBlockNumber: { kind: 'block', at: 0 },
  eth_getTransactionByBlockNumberAndIndex: { kind: 'block', at: 0 },
  eth_getBlockReceipts: { kind: 'block', at: 0 },
  debug_traceBlockByNumber: { kind: 'block', at: 0 },
  debug_getRawBlock: { kind: 'block', at: 0 },
  debug_getRawHeader: { kind: 'block', at: 0 },
  debug_getRawReceipts: { kind: 'block', at: 0 },
  zks_getBlockDetails: { kind: 'block', at: 0 },
  zks_getRawBlockTransactions: { kind: 'block', at: 0 },
  ots_getBlockDetails: { kind: 'block', at: 0 },
  ots_getBlockTransactions: { kind: 'block', at: 0 },
  eth_getBlockByHash: { kind: 'blockHash', at: 0 },
  eth_getBlockTransactionCountByHash: { kind: 'blockHash', at: 0 },
  eth_getUncleCountByBlockHash: { kind: 'blockHash', at: 0 },
  eth_getTransactionByBlockHashAndIndex: { kind: 'blockHash', at: 0 },
  debug_traceBlockByHash: { kind: 'blockHash', at: 0 },
  ots_getBlockDetailsByHash: { kind: 'blockHash', at: 0 },
  eth_getBalance: { kind: 'state', at: 1 },
  eth_getTransactionCount: { kind: 'state', at: 1 },
  eth_getCode: { kind: 'state', at: 1 },
  eth_getStorageAt: { kind: 'state', at: 2 },
  eth_getProof: { kind: 'state', at: 2 },
  eth_call: { kind: 'state', at: 1 },
  eth_estimateGas: { kind: 'state', at: 1 },
  eth_createAccessList: { kind: 'state', at: 1 },
  debug_traceCall: { kind: 'state', at: 1 },
  eth_getTransactionByHash: { kind: 'transaction', at: 0 },
  eth_getTransactionReceipt: { kind: 'transaction', at: 0 },
  debug_getRawTransaction: { kind: 'transaction', at: 0 },
  debug_traceTransaction: { kind: 'transaction', at: 0 },
  zks_getTransactionDetails: { kind: 'transaction', at: 0 },
  zks_getL2ToL1LogProof: { kind: 'transaction', at: 0 },
  ots_getTransactionError: { kind: 'transaction', at: 0 },
  ots_traceTransaction: { kind: 'transaction', at: 0 },
  zks_getL1BatchDetails: { kind: 'batch', at: 0 },
  zks_getL1BatchBlockRange: { kind: 'batch', at: 0 },
}

/** An upstream block, as much as routing needs of it. */
interface UpstreamBlockHead {
  number: string
}

/**
 * A fork's history: the blocks, transactions, receipts and logs up to the fork block, the state
 * before it and a ZKsync upstream's batches up to the fork block's are the upstream's, as anvil
 * serves them. The local chain continues the upstream's numbering (exec/genesis.ts), so a block
 * number says whose a block is. Every answer the upstream gives about that history is final (the
 * fork block is pinned), so it is kept like forked state (ForkState.answer): asked once, stored,
 * and served offline after a restart.
 *
 * What the upstream mined after the fork block is not this chain's: a transaction or block hash
 * the upstream places after it is unknown here, as anvil has it.
 */
export class ForkHistory {
  constructor(private readonly fork: ForkState) {}

  /** The answer to a call, from the upstream's history or from `local` (the node's own method). */
  async answer(node: Node, method: string, params: unknown, local: (params: unknown) => Promise<unknown>): Promise<unknown> {
    const list = Array.isArray(params) ? params : undefined
    if (!list) return local(params)
    // Logs name a range, which may span the fork point.
    if (method === 'eth_getLogs') return this.logs(node, list[0], list.length === 1, () => local(params))
    if (method === 'eth_getFilterLogs') return this.filterLogs(node, list, () => local(params))
    const route = Object.hasOwn(ROUTES, method) ? ROUTES[method] : undefined
    if (!route) return local(params)
    const { at } = route
    const value = list[at]
    if (value === undefined) return local(params)
    switch (route.kind) {
      case 'block':
      case 'state': {
        const ref = parsed(value)
        if (!ref) return local(params)
        if (ref.kind === 'hash') return this.byHash(node, method, list, at, ref.hash, route.kind, local)
        const number = this.numberOf(node, ref)
        const upstream = number !== undefined && (route.kind === 'block' ? number <= this.point : number < this.point)
        // Asked by number, never by tag (the upstream's `latest` moved on); a plain number (zks_) stays one.
        return upstream ? this.ask(method, withParam(list, at, typeof value === 'number' ? value : bigIntToHex(number))) : local(params)
      }
      case 'blockHash':
        return typeof value === 'string' ? this.byHash(node, method, list, at, value as PrefixedHexString, 'block', local) : local(params)
      case 'transaction':
        return typeof value === 'string' ? this.byTransaction(node, method, list, value as PrefixedHexString, local) : local(params)
      case 'batch': {
        const batch = this.fork.point.l1Batch
        const number = typeof value === 'number' || typeof value === 'string' ? toBigInt(value) : undefined
        return batch !== undefined && number !== undefined && number <= batch ? this.ask(method, list) : local(params)
      }
    }
  }

  private get point(): bigint {
    return this.fork.point.blockNumber
  }

  /** The block number a reference names, or undefined for `pending` (the node's own). */
  private numberOf(node: Node, ref: Exclude<BlockRef, { kind: 'hash' }>): bigint | undefined {
    if (ref.kind === 'number') return ref.number
    if (ref.tag === 'pending') return undefined
    if (ref.tag === 'earliest') return 0n
    return node.chain.resolveTag(ref.tag).number
  }

  /** A call naming a block by hash: the node's for its blocks above the fork block, else the upstream's up to it. */
  private async byHash(
    node: Node,
    method: string,
    list: unknown[],
    at: number,
    hash: PrefixedHexString,
    kind: 'block' | 'state',
    local: (params: unknown) => Promise<unknown>,
  ): Promise<unknown> {
    const number = await this.upstreamNumber(node, hash)
    if (number === undefined || (kind === 'state' && number === this.point)) return local(list)
    // By number (which the upstream's history keeps for good) where the method takes a number.
    return this.ask(method, kind === 'state' ? withParam(list, at, bigIntToHex(number)) : list)
  }

  /**
   * The number of the upstream's block `hash` if it is this chain's history (at or before the fork
   * block); undefined for a local block above it, or a hash the upstream does not place there.
   */
  private async upstreamNumber(node: Node, hash: PrefixedHexString): Promise<bigint | undefined> {
    const own = node.chain.blockByHash(hash)
    if (own && own.number > this.point) return undefined
    const head = (await this.ask('eth_getBlockByHash', [hash.toLowerCase(), false])) as UpstreamBlockHead | null
    const number = head ? BigInt(head.number) : undefined
    return number !== undefined && number <= this.point ? number : undefined
  }

  /** A call naming a transaction: the node's if it knows it, else the upstream's if mined up to the fork block. */
  private async byTransaction(node: Node, method: string, list: unknown[], hash: PrefixedHexString, local: (params: unknown) => Promise<unknown>): Promise<unknown> {
    if (node.chain.hasTransaction(hash) || node.pool.get(hash)) return local(list)
    const tx = (await this.ask('eth_getTransactionByHash', [hash.toLowerCase()])) as { blockNumber?: string | null } | null
    if (!tx?.blockNumber || BigInt(tx.blockNumber) > this.point) return local(list)
    return method === 'eth_getTransactionByHash' ? tx : this.ask(method, list)
  }

  /**
   * eth_getLogs: a range that ends at or before the fork block is the upstream's, one that starts
   * after it the node's, and one across it is split there (the upstream's logs first). `local`
   * answers the query on the node's blocks, which start at the fork block and hold no logs there.
   * The node's range limit applies to the whole range, as the node checks it.
   */
  private async logs(node: Node, filter: unknown, plain: boolean, local: () => Promise<unknown>): Promise<unknown> {
    if (typeof filter !== 'object' || filter === null || !plain) return local()
    const { blockHash, fromBlock, toBlock } = filter as { blockHash?: unknown; fromBlock?: unknown; toBlock?: unknown }
    if (blockHash !== undefined) {
      if (typeof blockHash !== 'string' || fromBlock !== undefined || toBlock !== undefined) return local()
      return (await this.upstreamNumber(node, blockHash as PrefixedHexString)) === undefined ? local() : this.ask('eth_getLogs', [filter])
    }
    const from = parsed(fromBlock ?? 'latest')
    const to = parsed(toBlock ?? 'latest')
    if (!from || !to || from.kind === 'hash' || to.kind === 'hash') return local()
    const first = this.numberOf(node, from)
    const head = node.chain.head.number
    const last = this.numberOf(node, to) ?? head
    if (first === undefined || first > this.point) return local()
    const end = last < head ? last : head
    if (first > end || end - first + 1n > BigInt(node.config.limits.maxLogBlockRange)) return local()
    const upTo = end < this.point ? end : this.point
    const forked = this.ask('eth_getLogs', [{ ...filter, fromBlock: bigIntToHex(first), toBlock: bigIntToHex(upTo) }]) as Promise<unknown[]>
    if (end <= this.point) return forked
    const [before, after] = (await Promise.all([forked, local()])) as [unknown[], unknown[]]
    return [...before, ...after]
  }

  /** eth_getFilterLogs: the log filter's query, as eth_getLogs would answer it. */
  private filterLogs(node: Node, list: unknown[], local: () => Promise<unknown>): Promise<unknown> {
    let filter
    try {
      filter = typeof list[0] === 'string' ? node.filters.poll(list[0] as PrefixedHexString) : undefined
    } catch {
      filter = undefined
    }
    // Not a log filter (or none): the node answers, with its error.
    if (filter?.kind !== 'logs') return local()
    const { fromBlock, toBlock, criteria } = filter.spec
    const match = { address: criteria.addresses ?? undefined, topics: criteria.topics }
    const query = fromBlock.kind === 'hash' ? { blockHash: fromBlock.hash, ...match } : { fromBlock: refParam(fromBlock), toBlock: refParam(toBlock), ...match }
    return this.logs(node, query, true, local)
  }

  /**
   * The upstream's answer about its history, kept for good; an error the upstream answered with
   * (a revert of a call at an old block, a block it does not have) is passed on as it gave it.
   */
  private async ask(method: string, params: unknown[]): Promise<unknown> {
    try {
      return await this.fork.answer(`${method}:${JSON.stringify(params)}`, () => this.fork.upstream.request(method, params))
    } catch (error) {
      const answered = error instanceof UpstreamError ? (error.cause as { code?: unknown; message?: unknown; data?: unknown } | undefined) : undefined
      if (typeof answered?.code === 'number' && typeof answered.message === 'string') {
        throw new RpcError(answered.code, answered.message, answered.data, { cause: error })
      }
      throw error
    }
  }
}

/** A block parameter as the node parses it (zks_ methods take a plain number too); undefined if it does not parse. */
function parsed(value: unknown): BlockRef | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? { kind: 'number', number: BigInt(value) } : undefined
  try {
    return parseBlockRef(value)
  } catch {
    return undefined
  }
}

/** A parsed block parameter written back as a param (by tag or number). */
function refParam(ref: BlockRef): string {
  return ref.kind === 'tag' ? ref.tag : ref.kind === 'number' ? bigIntToHex(ref.number) : ref.hash
}

function toBigInt(value: string | number): bigint | undefined {
  try {
    return BigInt(value)
  } catch {
    return undefined
  }
}

function withParam(list: unknown[], at: number, value: unknown): unknown[] {
  const copy = [...list]
  copy[at] = value
  return copy
}
