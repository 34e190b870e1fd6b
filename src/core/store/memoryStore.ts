import { applyPoolChanges, poolInOrder, type ChainCommit, type ChainMeta, type PersistedChain, type Store } from './store.ts'

/**
 * Keeps the committed chain in this JS realm: what `load` returns is exactly what was committed,
 * so a second node opened on the same MemoryStore finds the chain (how tests simulate a restart,
 * and the base of the CLI's file store).
 */
export class MemoryStore implements Store {
  private meta: ChainMeta | undefined
  private readonly nodes = new Map<string, Uint8Array>()
  private blocks: Uint8Array[] = []
  private readonly pool = new Map<number, Uint8Array>()
  private settings: Uint8Array | undefined
  private readonly fork = new Map<string, Uint8Array>()

  async load(): Promise<PersistedChain | undefined> {
    if (!this.meta) return undefined
    return {
      meta: { ...this.meta },
      nodes: this.nodes.entries(),
      blocks: [...this.blocks],
      pool: poolInOrder(this.pool),
      settings: this.settings,
      fork: this.fork.size > 0 ? new Map(this.fork) : undefined,
    }
  }

  async commit({ meta, nodes, blocks, dropAbove, pool, settings, fork }: ChainCommit): Promise<void> {
    if (dropAbove !== undefined) this.blocks.length = Number(dropAbove) + 1
    for (const [key, value] of nodes) this.nodes.set(key, value)
    for (const { number, bytes } of blocks) this.blocks[Number(number)] = bytes
    applyPoolChanges(this.pool, pool)
    if (settings) this.settings = settings
    if (fork) for (const [key, value] of fork) this.fork.set(key, value)
    this.meta = meta
  }

  async wipe(): Promise<void> {
    this.meta = undefined
    this.nodes.clear()
    this.blocks = []
    this.pool.clear()
    this.settings = undefined
    this.fork.clear()
  }

  async close(): Promise<void> {}
}

/** The default store of a node nobody asked to keep: nothing is copied, nothing survives. */
export class EphemeralStore implements Store {
  async load(): Promise<PersistedChain | undefined> {
    return undefined
  }
  async commit(): Promise<void> {}
  async wipe(): Promise<void> {}
  async close(): Promise<void> {}
}
