import { KECCAK256_RLP, type BatchDBOp, type DB } from '@ethereumjs/util'
import { ChainStoreError } from '../errors.ts'
import { bytesToHex } from '../hexText.ts'
import type { NodeSource } from './store.ts'

/**
 * The state trie's node database: every trie node and every contract code, content-addressed and
 * never deleted, so the state root of every block stays readable and a snapshot is just a root.
 *
 * Memory holds the nodes not stored yet and a cache of the hot ones; the rest are read from the
 * store by need (`NodeSource`: the IndexedDB store's records and segments, the memory stores'
 * compact archive), so memory is bounded by the cache's size, not by the chain's length (issue
 * 21). The cache keeps two generations (a node read from the older one moves to the newer; the
 * older is dropped when the newer fills): near-LRU, without a map delete on every read. A store
 * without a node source leaves every node here.
 *
 * New entries are recorded until `drainNew()` hands them to the next store commit; they stay
 * readable while it runs, `stored()` moves them to the cache once it resolved, and a failed
 * commit gives them back with `restoreNew()` so that nothing is silently left unpersisted.
 */
export class TrieNodeStore implements DB<string, Uint8Array> {
  private fresh = new Map<string, Uint8Array>()
  /** Drained for commits not resolved yet. */
  private readonly committing: Map<string, Uint8Array>[] = []
  private hot = new Map<string, Uint8Array>()
  private warm = new Map<string, Uint8Array>()
  private readonly slabs = new CacheSlabs()
  /** Every stored node, when the store has no node source. */
  private readonly kept: Map<string, Uint8Array> | undefined
  /** Bumped by `clear`: a read begun before it must not cache a node the wiped store lost. */
  private generation = 0

  constructor(
    private readonly source: NodeSource | undefined,
    /** Nodes kept once stored (`limits.stateCacheNodes`). */
    private readonly cacheNodes: number,
  ) {
    this.kept = source ? undefined : new Map()
  }

  /** Nodes held in memory now (not stored yet, or cached). */
  get size(): number {
    let size = this.fresh.size + this.hot.size + this.warm.size + (this.kept?.size ?? 0)
    for (const drained of this.committing) size += drained.size
    return size
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const found = this.inMemory(key)
    if (found !== undefined) return found
    if (!this.source) return missing(key)
    const generation = this.generation
    const read = await this.source.get(key)
    // Wiped meanwhile (anvil_reset): what it asked for is gone with the chain, not lost from it.
    if (generation !== this.generation) return this.inMemory(key)
    if (read === undefined) return missing(key)
    this.cache(key, read)
    return read
  }

  private inMemory(key: string): Uint8Array | undefined {
    const found = this.hot.get(key) ?? this.fresh.get(key) ?? this.kept?.get(key)
    if (found !== undefined) return found
    const warm = this.warm.get(key)
    if (warm !== undefined) {
      this.cache(key, warm)
      return warm
    }
    for (const drained of this.committing) {
      const value = drained.get(key)
      if (value !== undefined) return value
    }
    return undefined
  }

  private cache(key: string, value: Uint8Array): void {
    if (this.kept) return
    if (this.hot.size >= this.cacheNodes / 2) {
      this.warm = this.hot
      this.hot = new Map()
    }
    this.hot.set(key, this.slabs.copy(value))
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    // A node already in memory is the same bytes under the same key: not written again. One the
    // store holds but memory does not may be: harmless (content-addressed), and rare.
    if (this.inMemory(key) !== undefined) return
    this.fresh.set(key, value)
  }

  /** Nodes are shared by every historical root; deleting one would corrupt old state. */
  async del(): Promise<void> {}

  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') await this.put(op.key, op.value)
  }

  shallowCopy(): DB<string, Uint8Array> {
    return this
  }

  async open(): Promise<void> {}

  /** The entries added since the last drain, for one atomic store commit. */
  drainNew(): Map<string, Uint8Array> {
    const fresh = this.fresh
    this.fresh = new Map()
    if (fresh.size > 0) this.committing.push(fresh)
    return fresh
  }

  /** The commit that carried `entries` resolved: the store serves them now. */
  stored(entries: Map<string, Uint8Array>): void {
    if (!this.release(entries)) return
    if (this.kept) for (const [key, value] of entries) this.kept.set(key, value)
    else for (const [key, value] of entries) this.cache(key, value)
  }

  /** The commit that carried `entries` failed: they go to the next one. */
  restoreNew(entries: Map<string, Uint8Array>): void {
    this.release(entries)
    for (const [key, value] of entries) this.fresh.set(key, value)
  }

  private release(entries: Map<string, Uint8Array>): boolean {
    const at = this.committing.indexOf(entries)
    if (at >= 0) this.committing.splice(at, 1)
    return at >= 0 || entries.size === 0
  }

  /** Forgets everything (anvil_reset: the store was wiped, so every node must be written again). */
  clear(): void {
    this.generation++
    this.fresh.clear()
    this.committing.length = 0
    this.hot.clear()
    this.warm.clear()
    this.slabs.clear()
    this.kept?.clear()
  }
}

/** A trie node's key: its hash in hex (code is 'c' + hash, a preimage 'preimage:' + hash). */
const TRIE_NODE_KEY_LENGTH = 64

/** The empty trie's root (an account without storage), which is never stored: looked up, it is not there. */
const EMPTY_TRIE_ROOT_KEY = bytesToHex(KECCAK256_RLP).slice(2)

/**
 * What a key the store does not hold reads as: nothing for code and preimages (asked for whether
 * they exist) and for the empty trie's root; a refusal for any other trie node. A node is asked
 * for only because a node or root the chain holds names it, so its absence is damage. Answered
 * as absent, as ethereumjs' trie takes a "Missing node in DB" (the path just ends there), it
 * would make an account or slot read as never written: a wrong answer, not an error.
 */
function missing(key: string): undefined {
  if (key.length !== TRIE_NODE_KEY_LENGTH || key === EMPTY_TRIE_ROOT_KEY) return undefined
  throw new ChainStoreError(`the state's trie node ${key} is missing from the store: the stored chain is damaged or incomplete`)
}

/** Bytes of a cache slab. */
const CACHE_SLAB_BYTES = 256 * 1024
/** A value longer than this (a contract's code) is cached as it is. */
const LARGEST_SLABBED = 4096

/**
 * Where the cache keeps its nodes: copied side by side into shared slabs, not each in the
 * ArrayBuffer ethereumjs made it in. A cached node lives for hundreds of blocks, then goes with
 * its generation; held in its own buffer, it outlives the minor GCs and dies in the old
 * generation, where V8 frees a buffer's memory only at a major GC and the C allocator keeps the
 * pages that pile took. Copied, the buffers ethereumjs made die young, and a dropped generation
 * frees whole slabs. Node.js RSS above the empty node at 50,000 ERC-20 blocks, runs alternated
 * with the code before (npx tsx --expose-gc bench/chainSizesNode.ts 1000,10000,50000): 5.2–5.8
 * KB a block before, 4.5–5.5 after (means 5.5 and 4.8: docs/benchmarks.md); the allocator's heap
 * at 10,000 blocks 114 -> 75 MB (/proc/self/smaps); the time per transfer within the runs' spread.
 *
 * A slab is held while any node copied into it is (a view keeps its buffer): a node still read
 * is copied again when it moves to the newer generation, so old slabs do not stay for a few.
 */
class CacheSlabs {
  private slab = new Uint8Array(0)
  private used = 0

  copy(value: Uint8Array): Uint8Array {
    if (value.length > LARGEST_SLABBED) return value
    if (this.used + value.length > this.slab.length) {
      this.slab = new Uint8Array(CACHE_SLAB_BYTES)
      this.used = 0
    }
    const copy = this.slab.subarray(this.used, this.used + value.length)
    copy.set(value)
    this.used += value.length
    return copy
  }

  clear(): void {
    this.slab = new Uint8Array(0)
    this.used = 0
  }
}

/**
 * A throw-away write layer over the node store for eth_call, eth_estimateGas and tracing: reads
 * fall through, writes stay here and vanish, so a sandboxed execution can never leak nodes into
 * the persisted chain.
 */
export class ScratchNodeStore implements DB<string, Uint8Array> {
  private readonly scratch = new Map<string, Uint8Array>()

  constructor(private readonly base: TrieNodeStore) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.scratch.get(key) ?? (await this.base.get(key))
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.scratch.set(key, value)
  }

  async del(): Promise<void> {}

  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.scratch.set(op.key, op.value)
  }

  shallowCopy(): DB<string, Uint8Array> {
    return this
  }

  async open(): Promise<void> {}
}
