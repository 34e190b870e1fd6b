import { type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { LogMatcher } from '../chain/logQuery.ts'
import type { Node } from '../node.ts'
import { InvalidParamsError, LimitExceededError } from '../errors.ts'
import { formatBlock } from './format/block.ts'
import { formatLog } from './format/log.ts'
import { formatTransaction } from './format/transaction.ts'
import { parseLogCriteria } from './logFilterObject.ts'
import { parseObject, ParamError } from './params.ts'

/** What an eth_subscription notification carries. */
export interface SubscriptionMessage {
  subscription: PrefixedHexString
  result: unknown
}

const KINDS = ['newHeads', 'logs', 'newPendingTransactions'] as const

/**
 * eth_subscribe / eth_unsubscribe for a transport that can push (the page's provider, a
 * WebSocket, createNode's `message` event; HTTP cannot, so the method table leaves them out).
 * Each subscription lives until unsubscribed or until `close()`, and pushes exactly what geth
 * pushes: a header per block, each matching log (again with `removed: true` when evm_revert
 * drops its block, as geth does on a reorg), each accepted transaction's hash (or the whole
 * transaction, when asked with `true`).
 */
export class Subscriptions {
  private readonly active = new Map<PrefixedHexString, () => void>()

  /** `max`: most subscriptions at once (per connection: the `maxSubscriptions` limit). */
  constructor(
    private readonly node: Node,
    private readonly push: (message: SubscriptionMessage) => void,
    private readonly max = node.config.limits.maxSubscriptions,
  ) {}

  get size(): number {
    return this.active.size
  }

  subscribe(params: unknown): PrefixedHexString {
    const [kind, options] = Array.isArray(params) ? params : []
    if (!(KINDS as readonly unknown[]).includes(kind)) {
      throw new InvalidParamsError(`invalid argument 0 (kind): expected one of ${KINDS.join(', ')}, got ${JSON.stringify(kind)}`)
    }
    if (this.active.size >= this.max) {
      throw new LimitExceededError(`too many subscriptions: the limit is ${this.max} per connection; unsubscribe some first`, { limit: 'maxSubscriptions' })
    }
    const id = bytesToHex(crypto.getRandomValues(new Uint8Array(16)))
    const send = (result: unknown) => this.push({ subscription: id, result })
    let stop: () => void
    if (kind === 'newHeads') {
      stop = this.node.on('block', (block) => {
        const { transactions: _transactions, uncles: _uncles, withdrawals: _withdrawals, ...header } = formatBlock(block, false)
        send(header)
      })
    } else if (kind === 'logs') {
      const matcher = new LogMatcher(parseCriteria(options))
      const stopMined = this.node.on('block', (block) => {
        for (const { log, tx } of matcher.collect([block], Infinity, () => undefined as never)) send(formatLog(log, tx, block))
      })
      const stopRemoved = this.node.on('blocksRemoved', (blocks) => {
        for (const { log, tx, block } of matcher.collect(blocks, Infinity, () => undefined as never)) send({ ...formatLog(log, tx, block), removed: true })
      })
      stop = () => {
        stopMined()
        stopRemoved()
      }
    } else {
      const full = parseFullTransactions(options)
      stop = this.node.on('pendingTransaction', (hash) => {
        if (!full) return send(hash)
        // The event comes as the transaction enters the pool, before anything can mine it.
        const entry = this.node.pool.get(hash)
        if (entry) send(formatTransaction(entry, undefined))
      })
    }
    this.active.set(id, stop)
    return id
  }

  unsubscribe(id: unknown): boolean {
    const stop = typeof id === 'string' ? this.active.get(id.toLowerCase() as PrefixedHexString) : undefined
    if (!stop) return false
    stop()
    this.active.delete((id as string).toLowerCase() as PrefixedHexString)
    return true
  }

  close(): void {
    for (const stop of this.active.values()) stop()
    this.active.clear()
  }
}

/** geth's `eth_subscribe('newPendingTransactions', fullTx)`: a boolean, false when absent. */
function parseFullTransactions(options: unknown): boolean {
  if (options === undefined || options === null) return false
  if (typeof options !== 'boolean') throw new InvalidParamsError(`invalid argument 1 (fullTx): expected a boolean, got ${JSON.stringify(options)}`)
  return options
}

function parseCriteria(options: unknown) {
  if (options === undefined || options === null) return { addresses: null, topics: [] }
  try {
    return parseLogCriteria(parseObject(options))
  } catch (error) {
    if (error instanceof ParamError) throw new InvalidParamsError(`invalid argument 1 (filter): ${error.message}`)
    throw error
  }
}
