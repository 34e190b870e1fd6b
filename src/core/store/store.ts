import type { BlockRecord } from '../chain/records.ts'

/** Everything one state change adds to the chain, written atomically (DESIGN §5). */
export interface ChainCommit {
  /** New trie nodes and contract code, content-addressed. */
  nodes: Map<string, Uint8Array>
  /** New blocks, in order, with their transactions, receipts and logs. */
  blocks: BlockRecord[]
}

/**
 * Where the chain is kept. The node keeps everything it reads in memory; a store is written to
 * on every state change and a change is acknowledged only after `commit` resolved.
 */
export interface Store {
  commit(commit: ChainCommit): Promise<void>
  close(): Promise<void>
}
