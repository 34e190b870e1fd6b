/**
 * Where a chain is kept: one `commit` per state change, atomic, and a change is acknowledged only
 * once its commit resolved. The node reads the state's trie nodes back by need (`nodes`). A store
 * knows nothing of blocks or tries: it keeps opaque bytes under keys (docs/architecture.md,
 * "Storage and durability").
 */
export interface Store {
  /** The chain as last committed, or undefined for an empty store. */
  load(): Promise<PersistedChain | undefined>
  commit(commit: ChainCommit): Promise<void>
  /** Forgets the chain (a reset, or a chain that cannot be read). */
  wipe(): Promise<void>
  close(): Promise<void>
  /**
   * Where the node reads the trie nodes this store holds, committed ones included (from the
   * commit's resolution on). A store without one leaves every node in the node's memory.
   */
  readonly nodes?: NodeSource
  /**
   * The store holds the committed block records' bytes in this realm (a memory store: they are
   * what it loads): the chain keeps them in memory too, as spilling them to disk would free none.
   */
  readonly keepsBlocks?: boolean
}

/**
 * Bumped when the stored layout changes; a store written by a newer version is refused.
 * 2: block records carry their L1 batch position and ZKsync 0x71 transactions (blockCodec.ts).
 * 3: a block record may carry the state root of dev-node edits (a schema-2 reader would serve
 *    the unedited state); the nodes include the preimages of trie keys (exec/preimages.ts).
 * 4: receipts' logs blooms are stored empty, made from the logs on decode (a schema-3 reader
 *    would serve empty blooms).
 */
export const SCHEMA_VERSION = 4

/** What identifies a stored chain and where its head is. */
export interface ChainMeta {
  schemaVersion: number
  chainId: number
  genesisHash: string
  headNumber: bigint
}

export interface PersistedChain {
  meta: ChainMeta
  /** Encoded block records (store/blockCodec.ts), block `firstBlock` first, up to the head (empty: a block missing). */
  blocks: Uint8Array[]
  /** The blocks' hashes when the store kept them (as `blocks`); else they are computed. */
  blockHashes?: (Uint8Array | undefined)[]
  /**
   * The number of `blocks[0]` (0 by default). A store may hand the last blocks only, and the
   * older ones when asked (`older`), so that a long chain's start does not wait for them.
   */
  firstBlock?: number
  older?: () => Promise<OlderBlocks>
  /** The pool as last committed: its entries by arrival number, oldest first (poolCodec.ts). */
  pool?: [number, Uint8Array][]
  /** The node's run-time settings as last committed (chain/nodeSettings.ts), opaque here. */
  settings?: Uint8Array
  /**
   * A forked chain's fork: its point and the upstream state fetched so far (fork/forkState.ts),
   * opaque here; absent for a chain that is not a fork (and from stores written before forks).
   */
  fork?: Iterable<[string, Uint8Array]>
}

/** Blocks 0 to `firstBlock` - 1 of a chain whose load handed the last ones only. */
export interface OlderBlocks {
  blocks: Uint8Array[]
  blockHashes?: (Uint8Array | undefined)[]
}

/**
 * The trie nodes and contract code a store holds, read by need: the node keeps only the hot ones
 * in memory (TrieNodeStore), so its memory does not grow with the chain's state (issue 21). A
 * node is readable here once the commit that carried it resolved, and every node of every stored
 * root stays readable (nodes are never deleted).
 */
export interface NodeSource {
  get(key: string): Promise<Uint8Array | undefined>
}

/** Everything one state change adds, written in one atomic step. */
export interface ChainCommit {
  meta: ChainMeta
  /** New trie nodes and code (nodes are never deleted: every old root stays readable). */
  nodes: Map<string, Uint8Array>
  /**
   * New blocks in order, each encoded, keyed by number. A block already stored may come again
   * (its L1 batch sealed after it was mined): the new bytes replace the old.
   */
  blocks: { number: bigint; bytes: Uint8Array }[]
  /** Blocks above this number are gone (a failed or reverted tail), before `blocks` are added. */
  dropAbove?: bigint
  /**
   * What changed in the pool since the last commit: entries that arrived, by arrival number
   * (their bytes: poolCodec.ts), and the numbers of the entries that left (mined in `blocks`,
   * dropped, replaced). Mined transactions leave the stored pool in the commit that stores their
   * block, so a restart never finds one both mined and pooled.
   */
  pool?: PoolChanges
  /** The node's run-time settings, replacing the stored ones (only when they changed). */
  settings?: Uint8Array
  /**
   * New entries of a forked chain's fork (its point, upstream state fetched since the last
   * commit), added to the stored ones (an entry under a key already stored replaces it). A commit
   * may carry only these: what an eth_call fetched is stored without a block.
   */
  fork?: Map<string, Uint8Array>
}

export interface PoolChanges {
  added: [number, Uint8Array][]
  removed: number[]
}

/** Applies a commit's pool changes to a pool kept as a map by arrival number (every store does). */
export function applyPoolChanges(pool: Map<number, Uint8Array>, changes: PoolChanges | undefined): void {
  if (!changes) return
  for (const seq of changes.removed) pool.delete(seq)
  for (const [seq, bytes] of changes.added) pool.set(seq, bytes)
}

/** A stored pool in arrival order. */
export function poolInOrder(pool: Map<number, Uint8Array>): [number, Uint8Array][] {
  return [...pool].sort((a, b) => a[0] - b[0])
}
