import type { BatchDBOp, DB } from '@ethereumjs/util'
import { PackedNodes } from '../store/packing.ts'

/**
 * The state trie's node database: every trie node and every contract code, content-addressed,
 * held in memory (reads never wait on storage) and never deleted, so the state root of every
 * block stays readable and a snapshot is just a root.
 *
 * A restored chain's nodes may come in two parts: those the store read at start, and the rest,
 * read when a trie read first misses the first part (`loadLater`), which waits for them: every
 * node of every stored root is found as before.
 *
 * New entries are recorded until `drainNew()` hands them to the next store commit; a failed
 * commit gives them back with `restoreNew()` so that nothing is silently left unpersisted.
 */
export class TrieNodeStore implements DB<string, Uint8Array> {
  private readonly nodes: Map<string, Uint8Array>
  /** Restored nodes still in the store's packed records (store/packing.ts), read where they lie. */
  private packed: PackedNodes | undefined
  /** The store's other nodes, not read yet; then, once read, where they are. */
  private later: (() => Promise<Uint8Array[]>) | undefined
  private loading: Promise<void> | undefined
  private laterPacked: PackedNodes | undefined
  private fresh = new Map<string, Uint8Array>()

  constructor(nodes?: Iterable<[string, Uint8Array]>, packed?: Uint8Array[], later?: () => Promise<Uint8Array[]>) {
    this.nodes = new Map(nodes)
    this.packed = packed?.length ? new PackedNodes(packed) : undefined
    this.later = later
  }

  /** The nodes known so far (not those still to be read). */
  get size(): number {
    return this.nodes.size + (this.packed?.size ?? 0) + (this.laterPacked?.size ?? 0)
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const found = this.known(key)
    if (found !== undefined || !this.later) return found
    await this.loadLater()
    return this.known(key)
  }

  private known(key: string): Uint8Array | undefined {
    return this.nodes.get(key) ?? this.packed?.get(key) ?? this.laterPacked?.get(key)
  }

  /**
   * Reads the nodes the store left for later, once (a failed read is tried again by the next
   * call). Resolves at once when there are none or they were read.
   */
  loadLater(): Promise<void> {
    const later = this.later
    if (!later) return Promise.resolve()
    this.loading ??= later().then(
      (records) => {
        if (this.later !== later) return // cleared meanwhile: these nodes were wiped
        this.laterPacked = records.length > 0 ? new PackedNodes(records) : undefined
        this.later = undefined
      },
      (error: unknown) => {
        if (this.later === later) this.loading = undefined
        throw error
      },
    )
    return this.loading
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    // Before the later nodes are read, a node among them may be stored again: the same bytes
    // under the same key, harmless.
    if (this.nodes.has(key) || this.packed?.has(key) || this.laterPacked?.has(key)) return
    this.nodes.set(key, value)
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
    return fresh
  }

  restoreNew(entries: Map<string, Uint8Array>): void {
    for (const [key, value] of entries) this.fresh.set(key, value)
  }

  /** Forgets everything (anvil_reset: the store was wiped, so every node must be written again). */
  clear(): void {
    this.nodes.clear()
    this.packed = undefined
    this.later = undefined
    this.loading = undefined
    this.laterPacked = undefined
    this.fresh.clear()
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
