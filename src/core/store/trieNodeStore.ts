import type { BatchDBOp, DB } from '@ethereumjs/util'
import { probesOf, type NodeFilter } from './nodeFilter.ts'
import { PackedNodes } from './packing.ts'
import type { LaterNodes } from './store.ts'

/**
 * The state trie's node database: every trie node and every contract code, content-addressed,
 * held in memory (reads never wait on storage) and never deleted, so the state root of every
 * block stays readable and a snapshot is just a root.
 *
 * A restored chain's nodes may come in two parts: those the store read at start, and the rest,
 * read by need: a trie read that misses waits for the store's segments that may hold its node
 * (`LaterNodes`), so every node of every stored root is found as before.
 *
 * New entries are recorded until `drainNew()` hands them to the next store commit; a failed
 * commit gives them back with `restoreNew()` so that nothing is silently left unpersisted.
 */
export class TrieNodeStore implements DB<string, Uint8Array> {
  private readonly nodes: Map<string, Uint8Array>
  /** Restored nodes still in the store's packed records (store/packing.ts), read where they lie. */
  private packed: PackedNodes | undefined
  /** The store's other nodes, read by need; and those read, by segment, with their key filters. */
  private later: LaterNodes | undefined
  private readonly laterRead = new Map<string, { nodes: PackedNodes; filter?: NodeFilter }>()
  private fresh = new Map<string, Uint8Array>()

  constructor(nodes?: Iterable<[string, Uint8Array]>, packed?: Uint8Array[], later?: LaterNodes) {
    this.nodes = new Map(nodes)
    this.packed = packed?.length ? new PackedNodes(packed) : undefined
    this.later = later
  }

  /** The nodes known so far (not those still to be read). */
  get size(): number {
    let size = this.nodes.size + (this.packed?.size ?? 0)
    for (const { nodes } of this.laterRead.values()) size += nodes.size
    return size
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const found = this.known(key)
    const later = this.later
    if (found !== undefined || !later) return found
    const segments = await later.read(key)
    if (this.later !== later) return this.known(key) // cleared meanwhile: these nodes were wiped
    for (const { id, nodes, filter } of segments) {
      if (!this.laterRead.has(id)) this.laterRead.set(id, { nodes: new PackedNodes([nodes]), filter })
    }
    return this.known(key)
  }

  private known(key: string): Uint8Array | undefined {
    const found = this.nodes.get(key) ?? this.packed?.get(key)
    if (found !== undefined || this.laterRead.size === 0) return found
    const probes = probesOf(key)
    for (const { nodes, filter } of this.laterRead.values()) {
      if (filter && !filter.mayHoldProbes(probes)) continue
      const value = nodes.get(key)
      if (value !== undefined) return value
    }
    return undefined
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    // Before the later nodes are read, a node among them may be stored again: the same bytes
    // under the same key, harmless.
    if (this.known(key) !== undefined) return
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
    this.laterRead.clear()
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
