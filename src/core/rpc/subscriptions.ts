import { type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { LogMatcher } from '../chain/logQuery.ts'
import type { Node } from '../node.ts'
import { InvalidParamsError } from '../errors.ts'
import { formatBlock } from './format/block.ts'
import { formatLog } from './format/log.ts'
import { parseLogCriteria } from './logFilterObject.ts'
import { parseObject, ParamError } from './params.ts'

/** What an eth_subscription notification carries. */
export interface SubscriptionMessage {
  subscription: PrefixedHexString
  result: unknown
}

const KINDS = ['newHeads', 'logs', 'newPendingTransactions'] as const

/**
 * eth_subscribe / eth_unsubscribe for a transport that can push (the page's provider; HTTP
 * cannot, so the method table leaves them out). Each subscription lives until unsubscribed or
 * until `close()`, and pushes exactly what geth pushes: a header per block, each matching log,
 * each accepted transaction's hash.
 */
export class Subscriptions {
  private readonly active = new Map<PrefixedHexString, () => void>()

  constructor(
    private readonly node: Node,
    private readonly push: (message: SubscriptionMessage) => void,
  ) {}

  subscribe(params: unknown): PrefixedHexString {
    const [kind, options] = Array.isArray(params) ? params : []
    if (!(KINDS as readonly unknown[]).includes(kind)) {
      throw new InvalidParamsError(`invalid argument 0 (kind): expected one of ${KINDS.join(', ')}, got ${JSON.stringify(kind)}`)
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
      stop = this.node.on('block', (block) => {
        for (const { log, tx } of matcher.collect([block], Infinity, () => undefined as never)) send(formatLog(log, tx, block))
      })
    } else {
      stop = this.node.on('pendingTransaction', (hash) => send(hash))
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

function parseCriteria(options: unknown) {
  if (options === undefined || options === null) return { addresses: null, topics: [] }
  try {
    return parseLogCriteria(parseObject(options))
  } catch (error) {
    if (error instanceof ParamError) throw new InvalidParamsError(`invalid argument 1 (filter): ${error.message}`)
    throw error
  }
}
