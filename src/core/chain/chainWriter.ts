import type { TrieNodeStore } from '../exec/trieNodeStore.ts'
import { encodeBlockRecord } from '../store/blockCodec.ts'
import { SCHEMA_VERSION, type ChainMeta, type Store } from '../store/store.ts'
import type { Chain } from './chain.ts'
import type { BlockRecord } from './records.ts'

/**
 * Turns changes of the in-memory chain into store commits: the new trie nodes, the new blocks
 * encoded, the head. A refused commit gives its trie nodes back, so the next commit carries them.
 */
export class ChainWriter {
  constructor(
    private readonly store: Store,
    private readonly chain: Chain,
    private readonly nodes: TrieNodeStore,
    private readonly chainId: number,
  ) {}

  meta(): ChainMeta {
    return {
      schemaVersion: SCHEMA_VERSION,
      chainId: this.chainId,
      genesisHash: this.chain.byNumber(0n)!.hash,
      headNumber: this.chain.head.number,
    }
  }

  /** Commits `blocks` (already appended to the chain), after dropping blocks above `dropAbove`. */
  async commit(blocks: BlockRecord[], dropAbove?: bigint): Promise<void> {
    const nodes = this.nodes.drainNew()
    try {
      await this.store.commit({
        meta: this.meta(),
        nodes,
        blocks: blocks.map((block) => ({ number: block.number, bytes: encodeBlockRecord(block) })),
        dropAbove,
      })
    } catch (error) {
      this.nodes.restoreNew(nodes)
      throw error
    }
  }
}
