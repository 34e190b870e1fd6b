import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb'
import type { ChainCommit, ChainMeta, PersistedChain, Store } from './store.ts'

/** The layout of the object stores; bumped (with an upgrade step) when it changes. */
const DB_VERSION = 1

interface ChainDB extends DBSchema {
  /** Trie nodes and contract code by their content key: never deleted (old roots stay readable). */
  nodes: { key: string; value: Uint8Array }
  /** Encoded block records by number (store/blockCodec.ts). */
  blocks: { key: number; value: Uint8Array }
  /**
   * 'chain': which chain this is and where its head is. 'lease': which store (one per leader
   * tab) may write; only the newest opened one does.
   */
  meta: { key: string; value: ChainMeta | Lease }
}

interface Lease {
  owner: string
}

export type Durability = 'relaxed' | 'strict'

/**
 * One IndexedDB database per chain name (DESIGN §5). Each commit — trie nodes, blocks, head — is
 * ONE readwrite transaction, acknowledged only when `tx.done` resolves: that is where a full disk
 * (QuotaExceededError) surfaces, after every `put` already succeeded (browser-arch §3).
 *
 * Opening a store takes the chain's lease, and a commit first checks, in its own transaction,
 * that the lease is still its own: a leader that froze and was replaced by another tab can then
 * never write over the new leader's blocks when it wakes up (its commit is refused instead).
 * IndexedDB runs overlapping transactions in the order they were created, so a commit begun
 * before the new lease is taken is complete before the new leader loads the chain.
 */
export class IndexedDbStore implements Store {
  private readonly lease: Lease = { owner: crypto.randomUUID() }

  private constructor(
    private readonly db: IDBPDatabase<ChainDB>,
    private readonly durability: Durability,
  ) {}

  static async open(name: string, durability: Durability = 'relaxed'): Promise<IndexedDbStore> {
    let db: IDBPDatabase<ChainDB>
    try {
      db = await openDB<ChainDB>(name, DB_VERSION, {
        upgrade(database) {
          database.createObjectStore('nodes')
          database.createObjectStore('blocks')
          database.createObjectStore('meta')
        },
        // Another tab opening a newer layout: let it, this connection is done.
        blocking() {
          db.close()
        },
      })
    } catch (error) {
      if (error instanceof DOMException && error.name === 'VersionError') {
        throw new Error(`the IndexedDB database "${name}" was written by a newer pagenode; upgrade pagenode or use another name`)
      }
      throw error
    }
    const store = new IndexedDbStore(db, durability)
    await db.put('meta', store.lease, 'lease')
    return store
  }

  async load(): Promise<PersistedChain | undefined> {
    const tx = this.db.transaction(['meta', 'nodes', 'blocks'], 'readonly')
    const [meta, keys, values, blocks] = await Promise.all([
      tx.objectStore('meta').get('chain'),
      tx.objectStore('nodes').getAllKeys(),
      tx.objectStore('nodes').getAll(),
      tx.objectStore('blocks').getAll(),
      tx.done,
    ])
    if (!meta) return undefined
    return { meta: meta as ChainMeta, nodes: keys.map((key, i): [string, Uint8Array] => [key, values[i]]), blocks }
  }

  async commit({ meta, nodes, blocks, dropAbove }: ChainCommit): Promise<void> {
    const tx = this.db.transaction(['meta', 'nodes', 'blocks'], 'readwrite', { durability: this.durability })
    await this.holdsLease(tx)
    // Requests are queued without awaiting each: nothing else may be awaited inside the
    // transaction (it would auto-commit), and `tx.done` reports the first failure.
    const nodeStore = tx.objectStore('nodes')
    for (const [key, value] of nodes) void nodeStore.put(value, key).catch(() => {})
    const blockStore = tx.objectStore('blocks')
    if (dropAbove !== undefined) void blockStore.delete(IDBKeyRange.lowerBound(Number(dropAbove) + 1)).catch(() => {})
    for (const { number, bytes } of blocks) void blockStore.put(bytes, Number(number)).catch(() => {})
    void tx.objectStore('meta').put(meta, 'chain').catch(() => {})
    await tx.done.catch((error: unknown) => {
      throw refusedWrite(error)
    })
  }

  async wipe(): Promise<void> {
    const tx = this.db.transaction(['meta', 'nodes', 'blocks'], 'readwrite')
    await this.holdsLease(tx)
    await Promise.all([tx.objectStore('meta').delete('chain'), tx.objectStore('nodes').clear(), tx.objectStore('blocks').clear(), tx.done])
  }

  /** Aborts `tx` and throws unless this store still holds the chain's lease. */
  private async holdsLease(tx: IDBPTransaction<ChainDB, ('meta' | 'nodes' | 'blocks')[], 'readwrite'>): Promise<void> {
    // Awaiting a request of the transaction keeps it open (awaiting anything else would not).
    const lease = (await tx.objectStore('meta').get('lease')) as Lease | undefined
    if (lease?.owner === this.lease.owner) return
    tx.abort()
    await tx.done.catch(() => {})
    throw new Error('another tab took this chain over (this one had stopped answering); nothing was stored')
  }

  async close(): Promise<void> {
    this.db.close()
  }
}

/**
 * Why IndexedDB refused a commit, in words: the browser's errors often carry no message at all
 * (a QuotaExceededError's is empty), and this text ends up in the JSON-RPC error a caller sees.
 */
function refusedWrite(error: unknown): Error {
  if (!(error instanceof DOMException)) return error instanceof Error ? error : new Error(String(error))
  if (error.name === 'QuotaExceededError') {
    return new Error('the browser refused the write: storage quota exceeded (QuotaExceededError); free some site storage and try again')
  }
  return new Error(`IndexedDB refused the write (${error.name}${error.message ? `: ${error.message}` : ''})`)
}
