import type { ChainCommit, Store } from './store.ts'

/**
 * The store of a chain that lives only as long as its node: the node's in-memory chain already
 * holds everything, so a commit has nothing to copy and cannot fail.
 */
export class MemoryStore implements Store {
  async commit(_commit: ChainCommit): Promise<void> {}
  async close(): Promise<void> {}
}
