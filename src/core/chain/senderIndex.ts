import type { PrefixedHexString } from '@ethereumjs/util'
import type { BlockRecord } from './records.ts'

/**
 * Mined transactions by sender and nonce (eth_getTransactionBySenderAndNonce,
 * ots_getTransactionBySenderAndNonce), built lazily: blocks are indexed when the first lookup
 * after them comes, so mining pays nothing and a chain restored from the store is decoded only if
 * someone asks. It holds one entry per mined transaction (a key of ~62 characters and a hash:
 * some 250 bytes each, 25 MB for 100,000 transactions), for as long as the node runs.
 */
export class SenderIndex {
  private readonly hashes = new Map<string, PrefixedHexString>()
  /** The first block not indexed yet. */
  private next = 0n

  /** The hash of the mined transaction of `from` with `nonce`, indexing the blocks up to `head` first. */
  lookup(from: PrefixedHexString, nonce: bigint, blocks: Iterable<BlockRecord>): PrefixedHexString | undefined {
    for (const block of blocks) {
      if (block.number < this.next) continue
      for (const tx of block.transactions) this.hashes.set(key(tx.from, tx.tx.nonce), tx.hash)
      this.next = block.number + 1n
    }
    return this.hashes.get(key(from, nonce))
  }

  /** The block from which `lookup` needs blocks. */
  get indexedBelow(): bigint {
    return this.next
  }

  /** Forgets the removed blocks' transactions (a failed commit, evm_revert). */
  truncate(removed: readonly BlockRecord[]): void {
    if (removed.length === 0) return
    for (const block of removed) {
      if (block.number >= this.next) continue
      for (const tx of block.transactions) this.hashes.delete(key(tx.from, tx.tx.nonce))
    }
    if (removed[0].number < this.next) this.next = removed[0].number
  }
}

function key(from: PrefixedHexString, nonce: bigint): string {
  return `${from.toLowerCase()}:${nonce.toString(16)}`
}
