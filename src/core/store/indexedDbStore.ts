import { openDB, type DBSchema, type IDBPDatabase } from 'idb'
import type { ChainCommit, ChainMeta, PersistedChain, Store } from './store.ts'

/** The layout of the object stores; bumped (with an upgrade step) when it changes. */
const DB_VERSION = 1

interface ChainDB extends DBSchema {
  /** Trie nodes and contract code by their content key: never deleted (old roots stay readable). */
  nodes: { key: string; value: Uint8Array }
  /** Encoded block records by number (store/blockCodec.ts). */
  blocks: { key: number; value: Uint8Array }
  /** One record, 'chain': which chain this is and where its head is. */
  meta: { key: string; value: ChainMeta }
}

export type Durability = 'relaxed' | 'strict'

/**
 * One IndexedDB database per chain name (DESIGN §5). Each commit — trie nodes, blocks, head — is
 * ONE readwrite transaction, acknowledged only when `tx.done` resolves: that is where a full disk
 * (QuotaExceededError) surfaces, after every `put` already succeeded (browser-arch §3).
 */
export class IndexedDbStore implements Store {
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
    return new IndexedDbStore(db, durability)
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
    return { meta, nodes: keys.map((key, i): [string, Uint8Array] => [key, values[i]]), blocks }
  }

  async commit({ meta, nodes, blocks, dropAbove }: ChainCommit): Promise<void> {
    const tx = this.db.transaction(['meta', 'nodes', 'blocks'], 'readwrite', { durability: this.durability })
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
    await Promise.all([tx.objectStore('meta').clear(), tx.objectStore('nodes').clear(), tx.objectStore('blocks').clear(), tx.done])
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
