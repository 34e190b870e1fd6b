import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { BlockRecord, LogRecord, TransactionRecord } from './records.ts'
import { logsBloomOf, transactionCount } from './storedBlock.ts'

/** Which logs a query wants: any of `addresses`; per position, any of the topics (null: any). */
export interface LogCriteria {
  addresses: PrefixedHexString[] | null
  topics: (PrefixedHexString[] | null)[]
}

export interface MatchedLog {
  log: LogRecord
  tx: TransactionRecord
  block: BlockRecord
}

/** The three bloom bits of a value, computed once per query instead of once per block. */
type BloomBits = [number, number][]

function bloomBits(value: PrefixedHexString): BloomBits {
  const hash = keccak_256(hexToBytes(value))
  const bits: BloomBits = []
  for (let i = 0; i < 6; i += 2) {
    const bit = ((hash[i] << 8) | hash[i + 1]) & 2047
    bits.push([255 - (bit >> 3), 1 << (bit & 7)])
  }
  return bits
}

function bloomHas(bloom: Uint8Array, bits: BloomBits): boolean {
  return bits.every(([byte, mask]) => (bloom[byte] & mask) !== 0)
}

/**
 * Finds matching logs in blocks, skipping every block whose bloom rules the query out (most
 * blocks, for a selective query) without looking at its receipts.
 */
export class LogMatcher {
  private readonly addressBits: BloomBits[] | null
  private readonly topicBits: (BloomBits[] | null)[]

  constructor(private readonly criteria: LogCriteria) {
    this.addressBits = criteria.addresses?.map(bloomBits) ?? null
    this.topicBits = criteria.topics.map((alternatives) => alternatives?.map(bloomBits) ?? null)
  }

  mayContain(bloom: Uint8Array): boolean {
    if (this.addressBits && !this.addressBits.some((bits) => bloomHas(bloom, bits))) return false
    return this.topicBits.every((alternatives) => !alternatives || alternatives.some((bits) => bloomHas(bloom, bits)))
  }

  matches(log: LogRecord): boolean {
    const { addresses, topics } = this.criteria
    if (addresses && !addresses.includes(log.address)) return false
    return topics.every((alternatives, i) => !alternatives || alternatives.includes(log.topics[i]))
  }

  /** Matching logs of `blocks`, in chain order; stops with `onOverflow` past `limit` results. */
  collect(blocks: Iterable<BlockRecord>, limit: number, onOverflow: () => never): MatchedLog[] {
    const found: MatchedLog[] = []
    for (const block of blocks) {
      if (transactionCount(block) === 0 || !this.mayContain(logsBloomOf(block))) continue
      for (const tx of block.transactions) {
        for (const log of tx.receipt.logs) {
          if (!this.matches(log)) continue
          if (found.length === limit) onOverflow()
          found.push({ log, tx, block })
        }
      }
    }
    return found
  }
}
