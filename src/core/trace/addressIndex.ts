import type { PrefixedHexString } from '@ethereumjs/util'
import type { BlockRecord } from '../chain/records.ts'
import type { Node } from '../node.ts'
import { CallTreeView, touchedAddresses, type TouchedAddresses } from './otterscan.ts'
import { traceBlock } from './replay.ts'

/** A transaction an address appears in: its block and index. */
export interface Posting {
  block: bigint
  index: number
}

/**
 * Which transactions each address appears in — as sender, recipient, or anywhere in the call tree
 * (a contract called, a contract created, a self-destruct's beneficiary) — for Otterscan's
 * ots_searchTransactionsBefore/After, and who created each contract (ots_getContractCreator).
 *
 * Nothing is traced at mining time, so the index is built on demand: the first search traces
 * every block not indexed yet (a replay, as debug_traceBlock does), later ones only the blocks
 * mined since. A search never scans the chain again. It follows the chain when blocks are dropped
 * (evm_revert, a failed commit): the hash of every indexed block is kept and checked. Memory:
 * one posting (~50 bytes) per address per transaction, plus a hash per block, for the node's life.
 */
export class AddressIndex {
  private readonly postings = new Map<PrefixedHexString, Posting[]>()
  private readonly creators = new Map<PrefixedHexString, { hash: PrefixedHexString; creator: PrefixedHexString; block: bigint }[]>()
  /** The hash of each indexed block, by number. */
  private readonly hashes: PrefixedHexString[] = []
  private catchingUp: Promise<void> | undefined

  constructor(private readonly node: Node) {}

  /** The postings of `address`, oldest first, once every block up to the head is indexed. */
  async of(address: PrefixedHexString): Promise<readonly Posting[]> {
    await this.catchUp()
    return this.postings.get(address.toLowerCase() as PrefixedHexString) ?? []
  }

  /** The transaction that last created a contract at `address`, and the address that created it. */
  async creatorOf(address: PrefixedHexString): Promise<{ hash: PrefixedHexString; creator: PrefixedHexString } | undefined> {
    await this.catchUp()
    const creations = this.creators.get(address.toLowerCase() as PrefixedHexString)
    const last = creations?.at(-1)
    return last && { hash: last.hash, creator: last.creator }
  }

  private catchUp(): Promise<void> {
    // One catch-up at a time: concurrent searches wait for the same one.
    this.catchingUp ??= this.indexNewBlocks().finally(() => (this.catchingUp = undefined))
    return this.catchingUp
  }

  private async indexNewBlocks(): Promise<void> {
    const chain = this.node.chain
    this.forgetDroppedBlocks()
    for (let n = BigInt(this.hashes.length); n <= chain.head.number; n++) {
      const block = chain.byNumber(n)!
      this.add(block, await this.trace(block))
      this.hashes.push(block.hash)
    }
  }

  private async trace(block: BlockRecord): Promise<TouchedAddresses[]> {
    if (block.transactions.length === 0) return []
    // No time limit: a mined block ran once already (bounded by its gas), and the index needs every
    // block; the replay still yields to the event loop while it runs.
    const entries = await traceBlock(this.node, block, new CallTreeView(touchedAddresses), 0)
    return entries.map((entry) => entry.result as TouchedAddresses)
  }

  private add(block: BlockRecord, touched: TouchedAddresses[]): void {
    touched.forEach(({ addresses, created }, index) => {
      const tx = block.transactions[index]
      // The sender and recipient of a transaction that failed before any frame ran are still in it.
      addresses.add(tx.from)
      if (tx.tx.to) addresses.add(tx.tx.to.toString())
      for (const address of addresses) {
        const list = this.postings.get(address) ?? []
        list.push({ block: block.number, index })
        this.postings.set(address, list)
      }
      for (const { address, creator } of created) {
        const list = this.creators.get(address) ?? []
        list.push({ hash: tx.hash, creator, block: block.number })
        this.creators.set(address, list)
      }
    })
  }

  /** Drops what was indexed of blocks the chain no longer has (or has others at their numbers). */
  private forgetDroppedBlocks(): void {
    const chain = this.node.chain
    let keep = this.hashes.length
    while (keep > 0 && chain.byNumber(BigInt(keep - 1))?.hash !== this.hashes[keep - 1]) keep--
    if (keep === this.hashes.length) return
    const from = BigInt(keep)
    this.hashes.length = keep
    for (const [address, list] of this.postings) {
      const kept = list.filter((posting) => posting.block < from)
      if (kept.length === 0) this.postings.delete(address)
      else this.postings.set(address, kept)
    }
    for (const [address, list] of this.creators) {
      const kept = list.filter((creation) => creation.block < from)
      if (kept.length === 0) this.creators.delete(address)
      else this.creators.set(address, kept)
    }
  }
}

const indexes = new WeakMap<Node, AddressIndex>()

/** The node's address index, made at its first use (most nodes never serve Otterscan). */
export function addressIndexOf(node: Node): AddressIndex {
  let index = indexes.get(node)
  if (!index) indexes.set(node, (index = new AddressIndex(node)))
  return index
}
