import { openDB, unwrap, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb'
import { packNodes, packZeros, unpackNodes, unpackZeros } from './packing.ts'
import type { ChainCommit, ChainMeta, PersistedChain, Store } from './store.ts'

/**
 * The layout of the object stores; bumped (with an upgrade step) when it changes.
 * 2: new trie nodes are written as one packed record per commit (`nodeBatches`), block records
 *    zero-packed: a commit is 3 records, not one per node (bench: ~4 ms less per durable block).
 *    Records of layout 1 (`nodes`, raw blocks) are still read.
 */
const DB_VERSION = 2

interface ChainDB extends DBSchema {
  /** Layout 1: trie nodes and contract code by their content key, one record each (read only). */
  nodes: { key: string; value: Uint8Array }
  /** Trie nodes and contract code, one packed record per commit (packing.ts): never deleted. */
  nodeBatches: { key: number; value: Uint8Array }
  /** Encoded block records by number (store/blockCodec.ts), zero-packed (packing.ts). */
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

type StoreName = 'meta' | 'nodes' | 'nodeBatches' | 'blocks'

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
        upgrade(database, oldVersion) {
          if (oldVersion < 1) {
            database.createObjectStore('nodes')
            database.createObjectStore('blocks')
            database.createObjectStore('meta')
          }
          if (oldVersion < 2) database.createObjectStore('nodeBatches', { autoIncrement: true })
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
    const tx = this.db.transaction(['meta', 'nodes', 'nodeBatches', 'blocks'], 'readonly')
    const [meta, keys, values, batches, blocks] = await Promise.all([
      tx.objectStore('meta').get('chain'),
      tx.objectStore('nodes').getAllKeys(),
      tx.objectStore('nodes').getAll(),
      tx.objectStore('nodeBatches').getAll(),
      tx.objectStore('blocks').getAll(),
      tx.done,
    ])
    if (!meta) return undefined
    const nodes = keys.map((key, i): [string, Uint8Array] => [key, values[i]])
    for (const batch of batches) unpackNodes(batch, nodes)
    return { meta: meta as ChainMeta, nodes, blocks: blocks.map(unpackZeros) }
  }

  async commit({ meta, nodes, blocks, dropAbove }: ChainCommit): Promise<void> {
    // Encoded before the transaction opens: nothing but its own requests may be awaited in it.
    const packedNodes = nodes.size > 0 ? packNodes(nodes) : undefined
    const packedBlocks = blocks.map(({ number, bytes }) => ({ number, bytes: packZeros(bytes) }))
    // The plain IndexedDB API on the hot path, not idb's wrappers: a commit is one durable block
    // under automine, and a Proxy, a promise and two listeners per request, then a microtask
    // hop before the lease is checked, showed in the worker's profile (bench/profile.ts).
    const tx = unwrap(this.db).transaction(['meta', 'nodeBatches', 'blocks'], 'readwrite', { durability: this.durability })
    return new Promise<void>((resolve, reject) => {
      let leaseLost = false
      // The lease is read first (requests run in order) and the writes are queued behind it at
      // once, not after a round trip: if the lease is not ours, the abort takes them all back.
      // Its answer is checked in its own success event, while the transaction is still active.
      const lease = tx.objectStore('meta').get('lease')
      lease.onsuccess = () => {
        if ((lease.result as Lease | undefined)?.owner === this.lease.owner) return
        leaseLost = true
        tx.abort()
      }
      if (packedNodes) tx.objectStore('nodeBatches').add(packedNodes)
      const blockStore = tx.objectStore('blocks')
      if (dropAbove !== undefined) blockStore.delete(IDBKeyRange.lowerBound(Number(dropAbove) + 1))
      for (const { number, bytes } of packedBlocks) blockStore.put(bytes, Number(number))
      tx.objectStore('meta').put(meta, 'chain')
      // A failed request aborts the transaction; a full disk shows only here, at commit (browser-arch §3).
      tx.oncomplete = () => resolve()
      // An abort that names no error (as idb's tx.done does): what refusedWrite words.
      tx.onabort = () => reject(leaseLost ? new Error(LEASE_LOST) : refusedWrite(tx.error ?? new DOMException('the transaction was aborted', 'AbortError')))
    })
  }

  async wipe(): Promise<void> {
    const tx = this.db.transaction(['meta', 'nodes', 'nodeBatches', 'blocks'], 'readwrite')
    await this.holdsLease(tx, tx.objectStore('meta').get('lease'))
    await Promise.all([
      tx.objectStore('meta').delete('chain'),
      tx.objectStore('nodes').clear(),
      tx.objectStore('nodeBatches').clear(),
      tx.objectStore('blocks').clear(),
      tx.done,
    ])
  }

  /** Aborts `tx` and throws unless `lease` (read in `tx`) says this store still holds the chain's lease. */
  private async holdsLease(tx: IDBPTransaction<ChainDB, StoreName[], 'readwrite'>, lease: Promise<ChainMeta | Lease | undefined>): Promise<void> {
    // Awaiting a request of the transaction keeps it open (awaiting anything else would not).
    if (((await lease.catch(() => undefined)) as Lease | undefined)?.owner === this.lease.owner) return
    tx.abort()
    await tx.done.catch(() => {})
    throw new Error(LEASE_LOST)
  }

  async close(): Promise<void> {
    this.db.close()
  }
}

const LEASE_LOST = 'another tab took this chain over (this one had stopped answering); nothing was stored'

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
