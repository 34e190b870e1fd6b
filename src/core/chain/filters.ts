import { type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import type { Limits } from '../config.ts'
import { LimitExceededError, ServerError } from '../errors.ts'
import type { BlockRef } from './chain.ts'
import type { LogCriteria } from './logQuery.ts'

export interface LogFilterSpec {
  fromBlock: BlockRef
  toBlock: BlockRef
  criteria: LogCriteria
}

interface FilterState {
  /** When it was last polled (or created): idle filters expire like geth's. */
  lastPollMs: number
}

export type FilterKind =
  | { kind: 'blocks'; lastBlock: bigint }
  | { kind: 'logs'; spec: LogFilterSpec; lastBlock: bigint }
  | { kind: 'pendingTransactions'; hashes: PrefixedHexString[] }

export type Filter = FilterState & FilterKind

/** A pending-transaction filter keeps at most this many unpolled hashes (the oldest go first). */
const MAX_PENDING_HASHES = 10_000

/**
 * Installed polling filters. Each remembers where its last poll ended, so eth_getFilterChanges
 * answers only what is new. A filter not polled within `filterIdleMs` is removed, after which
 * polling it reports "filter not found", as geth does.
 */
export class FilterRegistry {
  private readonly filters = new Map<PrefixedHexString, Filter>()

  constructor(
    private readonly limits: Pick<Limits, 'maxFilters' | 'filterIdleMs'>,
    private readonly nowMs: () => number,
  ) {}

  install(filter: FilterKind): PrefixedHexString {
    this.expire()
    if (this.filters.size >= this.limits.maxFilters) {
      throw new LimitExceededError(`too many filters: the limit is ${this.limits.maxFilters}; uninstall unused ones`, { limit: 'maxFilters' })
    }
    // A 32-byte value, always 64 digits, as the interface gives filter ids.
    const id = bytesToHex(crypto.getRandomValues(new Uint8Array(32)))
    this.filters.set(id, { ...filter, lastPollMs: this.nowMs() })
    return id
  }

  /** The filter, marked as polled now. */
  poll(id: PrefixedHexString): Filter {
    this.expire()
    const filter = this.filters.get(id.toLowerCase() as PrefixedHexString)
    if (!filter) throw new ServerError('filter not found')
    filter.lastPollMs = this.nowMs()
    return filter
  }

  uninstall(id: PrefixedHexString): boolean {
    this.expire()
    return this.filters.delete(id.toLowerCase() as PrefixedHexString)
  }

  /**
   * The chain went back to `head` (evm_revert, anvil_reset): cursors beyond it move back, so the
   * blocks mined in place of the dropped ones are reported.
   */
  rewind(head: bigint): void {
    for (const filter of this.filters.values()) {
      if (filter.kind !== 'pendingTransactions' && filter.lastBlock > head) filter.lastBlock = head
    }
  }

  pendingTransactionAdded(hash: PrefixedHexString): void {
    for (const filter of this.filters.values()) {
      if (filter.kind !== 'pendingTransactions') continue
      filter.hashes.push(hash)
      if (filter.hashes.length > MAX_PENDING_HASHES) filter.hashes.shift()
    }
  }

  private expire(): void {
    const deadline = this.nowMs() - this.limits.filterIdleMs
    for (const [id, filter] of this.filters) if (filter.lastPollMs < deadline) this.filters.delete(id)
  }
}
