import type { BatchDBOp, DB } from '@ethereumjs/util'
import { PackedNodes } from '../store/packing.ts'

/**
 * The state trie's node database: every trie node and every contract code, content-addressed,
 * held in memory (reads never wait on storage) and never deleted, so the state root of every
 * block stays readable and a snapshot is just a root.
 *
 * New entries are recorded until `drainNew()` hands them to the next store commit; a failed
 * commit gives them back with `restoreNew()` so that nothing is silently left unpersisted.
 */
export class TrieNodeStore implements DB<string, Uint8Array> {
  private readonly nodes: Map<string, Uint8Array>
  /** Restored nodes still in the store's packed records (store/packing.ts), read where they lie. */
  private packed: PackedNodes | undefined
  private fresh = new Map<string, Uint8Array>()

  constructor(nodes?: Iterable<[string, Uint8Array]>, packed?: Uint8Array[]) {
    this.nodes = new Map(nodes)
    this.packed = packed?.length ? new PackedNodes(packed) : undefined
  }

  get size(): number {
    return this.nodes.size + (this.packed?.size ?? 0)
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.nodes.get(key) ?? this.packed?.get(key)
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    if (this.nodes.has(key) || this.packed?.has(key)) return
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
