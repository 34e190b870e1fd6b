import { NodeArchive } from './nodeArchive.ts'
import { packNodesTransient } from './packing.ts'
import { applyPoolChanges, poolInOrder, type ChainCommit, type ChainMeta, type PersistedChain, type Store } from './store.ts'

/**
 * Keeps the committed chain in this JS realm: what `load` returns is exactly what was committed,
 * so a second node opened on the same MemoryStore finds the chain (how tests simulate a restart,
 * and the base of the CLI's file store). Trie nodes are kept compact (NodeArchive) and read by
 * need, by every node opened on it.
 */
export class MemoryStore implements Store {
  readonly keepsBlocks = true
  private meta: ChainMeta | undefined
  readonly nodes = new NodeArchive()
  private blocks: Uint8Array[] = []
  private readonly pool = new Map<number, Uint8Array>()
  private settings: Uint8Array | undefined
  private readonly fork = new Map<string, Uint8Array>()

  async load(): Promise<PersistedChain | undefined> {
    if (!this.meta) return undefined
    return {
      meta: { ...this.meta },
      blocks: [...this.blocks],
      pool: poolInOrder(this.pool),
      settings: this.settings,
      fork: this.fork.size > 0 ? new Map(this.fork) : undefined,
    }
  }

  async commit({ meta, nodes, blocks, dropAbove, pool, settings, fork }: ChainCommit): Promise<void> {
    if (dropAbove !== undefined) this.blocks.length = Number(dropAbove) + 1
    if (nodes.size > 0) this.nodes.add(packNodesTransient(nodes))
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

/**
 * The default store of a node nobody asked to keep: nothing survives it. It still holds the trie
 * nodes, compactly (NodeArchive), since the node keeps only the hot ones in memory.
 */
export class EphemeralStore implements Store {
  readonly nodes = new NodeArchive()

  async load(): Promise<PersistedChain | undefined> {
    return undefined
  }
  async commit({ nodes }: ChainCommit): Promise<void> {
    if (nodes.size > 0) this.nodes.add(packNodesTransient(nodes))
  }
  async wipe(): Promise<void> {
    this.nodes.clear()
  }
  async close(): Promise<void> {
    this.nodes.close()
  }
}
