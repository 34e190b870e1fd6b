import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { BlockRecord, LogRecord } from './records.ts'
import { StoredBlock, type LogTransaction } from './storedBlock.ts'

/** Which logs a query wants: any of `addresses`; per position, any of the topics (null: any). */
export interface LogCriteria {
  addresses: PrefixedHexString[] | null
  topics: (PrefixedHexString[] | null)[]
}

export interface MatchedLog {
  log: LogRecord
  tx: LogTransaction
  block: BlockRecord
}

/**
 * The bloom bits of a set of alternatives (any of them may be there), computed once per query
 * instead of once per block: per alternative, three (byte index, mask) pairs, flat.
 */
function bloomBits(values: PrefixedHexString[]): Int32Array {
  const bits = new Int32Array(values.length * 6)
  values.forEach((value, v) => {
    const hash = keccak_256(hexToBytes(value))
    for (let i = 0; i < 3; i++) {
      const bit = ((hash[2 * i] << 8) | hash[2 * i + 1]) & 2047
      bits[v * 6 + 2 * i] = 255 - (bit >> 3)
      bits[v * 6 + 2 * i + 1] = 1 << (bit & 7)
    }
  })
  return bits
}

/** Whether any of the alternatives' three bits are all set in `bloom`. */
function bloomHasAny(bloom: Uint8Array, bits: Int32Array): boolean {
  for (let i = 0; i < bits.length; i += 6) {
    if ((bloom[bits[i]] & bits[i + 1]) !== 0 && (bloom[bits[i + 2]] & bits[i + 3]) !== 0 && (bloom[bits[i + 4]] & bits[i + 5]) !== 0) return true
  }
  return false
}

/**
 * Finds matching logs in blocks, skipping every block whose bloom rules the query out (most
 * blocks, for a selective query) without looking at its receipts. A stored block's logs are read
 * from its record's receipts (StoredBlock.logs): a query never decodes its transactions.
 */
export class LogMatcher {
  /** Per criterion that restricts anything (addresses, then each topic position), its bloom bits. */
  private readonly bloomBits: Int32Array[]
  private readonly addresses: Set<PrefixedHexString> | null
  private readonly topics: { position: number; alternatives: Set<PrefixedHexString> }[]

  constructor(criteria: LogCriteria) {
    this.addresses = criteria.addresses ? new Set(criteria.addresses) : null
    this.topics = []
    criteria.topics.forEach((alternatives, position) => {
      if (alternatives) this.topics.push({ position, alternatives: new Set(alternatives) })
    })
    this.bloomBits = [criteria.addresses, ...criteria.topics].filter((values) => values !== null).map(bloomBits)
  }

  mayContain(bloom: Uint8Array): boolean {
    for (const bits of this.bloomBits) if (!bloomHasAny(bloom, bits)) return false
    return true
  }

  matches(log: LogRecord): boolean {
    if (this.addresses && !this.addresses.has(log.address)) return false
    for (const { position, alternatives } of this.topics) {
      const topic = log.topics[position]
      if (topic === undefined || !alternatives.has(topic)) return false
    }
    return true
  }

  /** Matching logs of `blocks`, in chain order; stops with `onOverflow` past `limit` results. */
  collect(blocks: Iterable<BlockRecord>, limit: number, onOverflow: () => never): MatchedLog[] {
    const found: MatchedLog[] = []
    for (const block of blocks) {
      if (block instanceof StoredBlock) {
        if (block.transactionCount === 0 || !this.mayContain(block.logsBloom)) continue
        const { logs, txs } = block.logs()
        for (let i = 0; i < logs.length; i++) {
          if (!this.matches(logs[i])) continue
          if (found.length === limit) onOverflow()
          found.push({ log: logs[i], tx: txs[i], block })
        }
        continue
      }
      if (block.transactions.length === 0 || !this.mayContain(block.header.logsBloom)) continue
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
