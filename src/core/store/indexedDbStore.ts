import { openDB, unwrap, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb'
import { ChainStoreError } from '../errors.ts'
import { packNodes, packZeros, PackedNodes, unpackZeros } from './packing.ts'
import { MERGE_FILTER, NodeFilter, PIECE_FILTER } from './nodeFilter.ts'
import { SegmentedNodes, type NodeMerge } from './segmentedNodes.ts'
import {
  blockHashOfRecord,
  blockSegmentKeys,
  nodeFilterKey,
  nodeFilterKeys,
  nodeSegmentKey,
  nodeSegmentKeys,
  readSegment,
  segmentOfFilter,
  storedBlockSegment,
  storedNodeSegment,
  type SegmentBlock,
  type StoredSegment,
} from './segments.ts'
import type { ChainCommit, ChainMeta, OlderBlocks, PersistedChain, Store } from './store.ts'
import { holdLiveness, liveOwners } from './storeLiveness.ts'

/**
 * The layout of the object stores; bumped (with an upgrade step) when it changes.
 * 2: new trie nodes are written as one packed record per commit (`nodeBatches`), block records
 *    zero-packed: a commit is 3 records, not one per node (bench: ~4 ms less per durable block).
 *    Records of layout 1 (`nodes`, raw blocks) are still read.
 * 3: `segments`: the per-commit records merged in the background into a few large ones
 *    (segments.ts), so a warm start reads tens of records, not two per block. Layout-2 records
 *    are read as they are and merged. A merge writes its blocks and its trie nodes as separate
 *    segments (nodes under string keys), so a start reads the nodes only when it needs them;
 *    segments holding both, as the first merges wrote them, are still read whole at start.
 * 4: node segments are deflated and block segments hold records not zero-packed (segments.ts):
 *    1,000 transfers took 3.3 KB each on disk, now ~2.3 KB, and a warm start unpacks nothing in
 *    JavaScript. Each node segment has a filter of its keys (nodeFilter.ts) under an "f" key, so
 *    a trie read reads the segments that may hold its node, not all of them. Layout-3 segments
 *    (no filter: read on any miss) are still read.
 * 5: `pool`: the pool's entries by arrival number, and the node's settings under 'settings' in
 *    `meta`, written in the same transaction as the blocks (a layout-4 database has neither: its
 *    pool is empty and its settings the options').
 * 6: a merge writes its trie nodes as pieces of ~64 KB, each a node segment of its own, and one
 *    record of their filters (`{ pieces }`): the node reads its state by need (issue 21), and a
 *    read that misses memory reads one piece, not the merge's ~2 MB. Layout-5 node segments and
 *    filters are still read; a layout-5 pagenode would misread the new filter records, so the
 *    version says so.
 * 7: `fork`: a forked chain's fork entries (its point, the upstream state fetched) by key
 *    (fork/forkState.ts), written in the commits that carry them (a layout-6 database is no fork).
 *    Additive; a layout-6 reader would not see the fork's state, and is refused by the version.
 * 8: `meta` 'unfiltered' lists the node segments that have no filter (layout 3's), found once by
 *    the upgrade: layouts 4 and on write a filter with every node segment, so the filters and
 *    that list name every node segment, and a start no longer enumerates their keys (at 50,000
 *    blocks, 4,772 keys took ~60 ms: listing keys walks the ~64 KB values too). New filters are
 *    denser (nodeFilter.ts: ~1 false positive in 100,000 keys, not 1,000) and their pieces carry
 *    the probe count; the filters before are read as written. A layout-7 reader would misread them.
 *    Since then, a merge's filter record also holds a filter of all its keys (`merge`), tested
 *    before its pieces' filters, which are sparser (nodeFilter.ts). Not a new layout: a layout-8
 *    reader leaves the field and tests every piece, as it did (reading, through the sparser
 *    filters, a few more pieces in vain).
 * 9: `meta` has a unique index on `writer`. The 'chain' record names the store that wrote it
 *    (`writer`), and a store replaced while it may still be alive (a frozen tab) is revoked by a
 *    record 'revoked:<owner>' naming it: its next write of 'chain' breaks the index, which aborts
 *    its commit. A commit thus checks the lease without reading it and waiting for the answer.
 *    Nothing to move; a layout-8 pagenode would neither revoke the store it replaces nor be
 *    refused once revoked, so the version says so.
 * 10: a commit is one record (`commits`, the `nodeBatches` store renamed): its trie nodes and its
 *    blocks together. A durable transfer was three requests over three stores (nodes, block,
 *    meta), now two over two: in Chromium each request costs the worker ~0.15 ms to make and the
 *    commit's latency grows with their number (~5% more durable transfers a second, one by one
 *    and 50 in flight, measured alternated with layout 9: bench/profile.ts).
 *    Layout-9 records (packed nodes alone in `nodeBatches`, blocks in `blocks`) are read as they
 *    are and merged; a layout-9 reader would misread the new ones, so the version says so.
 */
const DB_VERSION = 10

/**
 * Blocks and node batches the per-commit records hold, unmerged, before the store merges them
 * into segments: a few hundred read at load cost a few milliseconds.
 */
const MERGE_AFTER_ITEMS = 512

/**
 * Block segments a load reads before the node answers (the others after): two, so that the
 * blocks BLOCKHASH reaches (256) are there even when the last segment is short.
 */
const TAIL_SEGMENTS = 2

interface ChainDB extends DBSchema {
  /** Layout 1: trie nodes and contract code by their content key, one record each (read only). */
  nodes: { key: string; value: Uint8Array }
  /**
   * One record per commit, in commit order (layout 10; layouts 2–9 named it `nodeBatches` and
   * kept only the commit's packed nodes there, as a bare Uint8Array). Until merged.
   */
  commits: { key: number; value: CommitRecord | Uint8Array }
  /** Layouts 2–9: encoded block records by number, zero-packed (read and merged, never written). */
  blocks: { key: number; value: Uint8Array }
  /**
   * Merged `commits` and `blocks` records (segments.ts), in the order they were merged. A block
   * in a later segment, or in a per-commit record, is a newer version of it (stored again).
   */
  segments: { key: number | string; value: StoredSegment | StoredFilters }
  /**
   * 'chain': which chain this is and where its head is. 'lease': which store (one per leader
   * tab) may write; only the newest opened one does. 'revoked:<owner>': a store replaced while
   * it may have been alive (layout 9). 'chain' and the revocations carry `writer`, indexed unique.
   */
  meta: { key: string; value: (ChainMeta & Written) | Lease | Written | Uint8Array | string[]; indexes: { writer: string } }
  /** The pool: each entry (store/poolCodec.ts) by its arrival number. */
  pool: { key: number; value: Uint8Array }
  /** A forked chain's fork entries (fork/forkState.ts), opaque here, by their keys. */
  fork: { key: string; value: Uint8Array }
}

/**
 * What one commit wrote (layout 10): its new trie nodes and code, packed (packing.ts), and its
 * blocks by number, each an encoded block record (store/blockCodec.ts), zero-packed. A commit's
 * `dropAbove` needs no field: the head in 'chain' ends the chain, and every block between a drop
 * and the head was stored again after the drop, in a later record.
 */
interface CommitRecord {
  nodes?: Uint8Array
  blocks: [number, Uint8Array][]
}

/** A per-commit record of any layout as this one: a layout-9 record holds packed nodes alone. */
const commitRecordOf = (stored: CommitRecord | Uint8Array): CommitRecord => (stored instanceof Uint8Array ? { nodes: stored, blocks: [] } : stored)

/** A record's blocks and node batch, counted towards the next merge (MERGE_AFTER_ITEMS). */
const itemsOf = ({ nodes, blocks }: CommitRecord) => blocks.length + (nodes ? 1 : 0)

interface Lease {
  owner: string
}

/** A `meta` record under the unique `writer` index: 'chain' (its last writer) or a revocation (the store revoked). */
interface Written {
  writer: string
}

type StoreName = 'meta' | 'nodes' | 'commits' | 'blocks' | 'segments' | 'pool' | 'fork'

export type Durability = 'relaxed' | 'strict'

/**
 * One IndexedDB database per chain name (docs/architecture.md, "Storage and durability"). Each
 * commit — trie nodes, blocks, head — is ONE readwrite transaction, acknowledged only when it
 * completes: that is where a full disk (QuotaExceededError) surfaces, after every `put` already
 * succeeded (docs/browser-notes.md, "Where IndexedDB reports a full disk").
 *
 * Opening a store takes the chain's lease, and a commit checks, in its own transaction, that the
 * lease is still its own: a leader that froze and was replaced by another tab can then never
 * write over the new leader's blocks when it wakes up (its commit is refused instead). IndexedDB
 * runs overlapping transactions in the order they were created, so a commit begun before the
 * new lease is taken is complete before the new leader loads the chain.
 *
 * On the hot path (`commit`) the check is the write of 'chain' itself, not a read: a store
 * replaced while it may still be alive is revoked by a record naming it as `writer`
 * (`takeLease`), which `meta`'s unique index then refuses to see beside its next 'chain'. The
 * failed put aborts the transaction, even one committed before its page saw the failure
 * (IndexedDB's explicit commit, as the browsers implement and test it). So a commit is asked
 * for at once, without waiting a round trip for the lease's answer (bench: ~0.2 ms of every
 * durable transfer in Chromium), and without a request more. Merges and wipes, rarer, read the
 * lease (`holdsLease`).
 */
export class IndexedDbStore implements Store {
  private readonly lease: Lease = { owner: crypto.randomUUID() }
  /** Lets go of this store's liveness lock (storeLiveness.ts): at close. */
  private releaseLiveness: () => void = () => {}
  /** Blocks and node batches in per-commit records not merged into segments yet (as far as this store knows). */
  private unmerged = 0
  private merging: Promise<void> | undefined
  private mergeAfterLoad: ReturnType<typeof setTimeout> | undefined
  /** The trie nodes, read by need: the records since the last merge, then the segments (segmentedNodes.ts). */
  readonly nodes: SegmentedNodes

  private constructor(
    private readonly db: IDBPDatabase<ChainDB>,
    private readonly durability: Durability,
  ) {
    this.nodes = new SegmentedNodes(async (id) => {
      const stored = await this.db.get('segments', id)
      if (!stored) throw new Error(`the stored node segment ${id} is missing`)
      return (await readSegment(stored as StoredSegment)).nodes
    })
  }

  static async open(name: string, durability: Durability = 'relaxed'): Promise<IndexedDbStore> {
    let db: IDBPDatabase<ChainDB>
    try {
      db = await openDB<ChainDB>(name, DB_VERSION, {
        async upgrade(database, oldVersion, _newVersion, transaction) {
          if (oldVersion < 1) {
            database.createObjectStore('nodes')
            database.createObjectStore('blocks')
            database.createObjectStore('meta')
          }
          if (oldVersion < 2) database.createObjectStore('commits', { autoIncrement: true })
          if (oldVersion < 3) database.createObjectStore('segments', { autoIncrement: true })
          // 4: nothing to move; new segments are written in its forms, and layout-3 ones read as they are.
          if (oldVersion < 5) database.createObjectStore('pool')
          // 6: nothing to move; new merges write pieces, and layout-5 segments are read as they are.
          if (oldVersion < 7) database.createObjectStore('fork')
          if (oldVersion < 9) transaction.objectStore('meta').createIndex('writer', 'writer', { unique: true })
          // 10: `nodeBatches` renamed `commits`; its layout-9 records are read as they are.
          if (oldVersion >= 2 && oldVersion < 10) unwrap(transaction).objectStore('nodeBatches').name = 'commits'
          // 8: the node segments without a filter, listed once (none before layout 3 or after it).
          if (oldVersion >= 3 && oldVersion < 8) {
            const segments = transaction.objectStore('segments')
            const [ids, filters] = await Promise.all([segments.getAllKeys(nodeSegmentKeys()) as Promise<string[]>, readFilters(segments)])
            const filtered = new Set(filters.flatMap(({ pieces }) => pieces.map(({ id }) => id)))
            const unfiltered = ids.filter((id) => !filtered.has(id))
            if (unfiltered.length > 0) await transaction.objectStore('meta').put(unfiltered, 'unfiltered')
          }
        },
        // Another tab opening a newer layout: let it, this connection is done.
        blocking() {
          db.close()
        },
      })
    } catch (error) {
      if (error instanceof DOMException && error.name === 'VersionError') {
        throw new ChainStoreError(`the IndexedDB database "${name}" was written by a newer pagenode; upgrade pagenode or use another name`, {
          cause: error,
        })
      }
      throw error
    }
    const store = new IndexedDbStore(db, durability)
    try {
      // Alive before its lease is written: whoever replaces it must be able to tell.
      store.releaseLiveness = await holdLiveness(store.lease.owner)
      await store.takeLease()
    } catch (error) {
      await store.close()
      throw error
    }
    return store
  }

  /**
   * Writes this store's lease over the one before. That store is revoked (its next commit fails)
   * unless it is known to be gone; revocations of stores that are gone now are dropped, so they
   * do not pile up one per start. A store's liveness lock is taken before it writes its lease,
   * and a lease is written before anyone revokes it: so a lease or revocation read before the
   * locks were asked about, whose owner the answer does not list, belongs to a closed store.
   */
  private async takeLease(): Promise<void> {
    const before = this.db.transaction('meta', 'readonly').objectStore('meta')
    const [previous, revoked] = await Promise.all([before.get('lease') as Promise<Lease | undefined>, before.getAllKeys(revokedKeys())])
    const live = await liveOwners()
    const gone = (owner: string) => live !== undefined && !live.has(owner)
    const tx = this.db.transaction('meta', 'readwrite')
    const meta = tx.objectStore('meta')
    const writes: Promise<unknown>[] = [tx.done]
    const [current, chain] = await Promise.all([meta.get('lease') as Promise<Lease | undefined>, meta.get('chain') as Promise<(ChainMeta & Written) | undefined>])
    for (const key of revoked) if (gone(key.slice(REVOKED.length))) writes.push(meta.delete(key))
    // The chain's record names this store from now on: the revocation below may name its last writer.
    if (chain) writes.push(meta.put({ ...chain, writer: this.lease.owner }, 'chain'))
    // A lease written after the question (another store opened meanwhile) may be alive.
    const knownGone = current !== undefined && current.owner === previous?.owner && gone(current.owner)
    if (current && !knownGone) writes.push(meta.put({ writer: current.owner }, revokedKey(current.owner)))
    writes.push(meta.put(this.lease, 'lease'))
    await Promise.all(writes)
  }

  async load(): Promise<PersistedChain | undefined> {
    const tx = this.db.transaction(['meta', 'nodes', 'commits', 'blocks', 'segments', 'pool', 'fork'], 'readonly')
    // The node segments' index, read beside the load rather than after it: at 50,000 blocks its
    // ~2.6 MB of filters took ~45 ms, and a first state read that came before it waited for it.
    // Created now, before any commit's or merge's transaction: it reads the segments as loaded.
    let index: Promise<NodeMerge[]> | undefined = this.readNodeIndex()
    index.catch(() => {}) // a failed read is tried again when a trie read needs it (indexLater)
    const [meta, keys, values, segmentIds, stored, commitKeys, blockNumbers, legacyBlocks, poolKeys, pool, settings, forkKeys, fork] = await Promise.all([
      tx.objectStore('meta').get('chain'),
      tx.objectStore('nodes').getAllKeys(),
      tx.objectStore('nodes').getAll(),
      // Block segments' keys only: the last ones are read below; node segments are indexed after
      // the load (`readNodeIndex`) and read when a trie read needs them (`nodes`).
      tx.objectStore('segments').getAllKeys(blockSegmentKeys()) as Promise<number[]>,
      tx.objectStore('commits').getAll(),
      tx.objectStore('commits').getAllKeys(),
      tx.objectStore('blocks').getAllKeys(),
      tx.objectStore('blocks').getAll(),
      tx.objectStore('pool').getAllKeys(),
      tx.objectStore('pool').getAll(),
      tx.objectStore('meta').get('settings'),
      tx.objectStore('fork').getAllKeys(),
      tx.objectStore('fork').getAll(),
    ])
    // The last block segments only: the older ones are read after the start (`older`), so a warm
    // start reads what answering at the head needs whatever the chain's length (issue 21).
    const tailIds = segmentIds.slice(-TAIL_SEGMENTS)
    const segments = (await Promise.all(tailIds.map((id) => tx.objectStore('segments').get(id)))) as StoredSegment[]
    await tx.done
    if (!meta) return undefined
    const head = Number((meta as ChainMeta).headNumber)
    const commits = stored.map(commitRecordOf)
    this.unmerged = commits.reduce((sum, commit) => sum + itemsOf(commit), legacyBlocks.length)
    const records: Uint8Array[] = []
    const hashes: (Uint8Array | undefined)[] = []
    // Nodes of the first layouts: one record each (1), or in segments holding blocks too (3).
    const older: Uint8Array[] = keys.length > 0 ? [packNodes(new Map(keys.map((key, i) => [key, values[i]])))] : []
    // Oldest first, so that a block stored again replaces its earlier version.
    for (const decoded of await Promise.all(segments.map(readSegment))) {
      for (const block of decoded.blocks) {
        records[block.number] = block.record
        hashes[block.number] = block.hash
      }
      if (decoded.nodes.length > 0) older.push(decoded.nodes)
    }
    this.nodes.clear()
    if (older.length > 0) this.nodes.setOlder(new PackedNodes(older))
    this.nodes.indexLater(() => {
      const read = index ?? this.readNodeIndex()
      index = undefined
      return read
    })
    // Layout-9 block records, then the commits in order: each newer than the one before.
    blockNumbers.forEach((number, i) => {
      records[number] = unpackZeros(legacyBlocks[i])
      hashes[number] = undefined
    })
    commits.forEach(({ nodes, blocks }, i) => {
      if (nodes) this.nodes.addRecord(commitKeys[i], nodes)
      for (const [number, bytes] of blocks) {
        records[number] = unpackZeros(bytes)
        hashes[number] = undefined
      }
    })
    // Blocks above the head were dropped (a failed or reverted tail) after a segment kept them.
    records.length = Math.min(records.length, head + 1)
    hashes.length = records.length
    // Not now: a merge reads, hashes and deflates hundreds of records, which would compete with
    // the chain's first answers.
    this.mergeAfterLoad = setTimeout(() => this.mergeWhenDue(), MERGE_AFTER_LOAD_MS)
    const olderIds = segmentIds.slice(0, segmentIds.length - tailIds.length)
    // The blocks read run unbroken from `first` to the head; those below it are newer versions
    // of older blocks (stored again when their batch sealed), which win over the older segments'.
    let first = olderIds.length > 0 ? records.length : 0
    while (first > 0 && records[first - 1] !== undefined) first--
    let olderRead: Promise<OlderBlocks> | undefined
    this.nodes.readOlder =
      first > 0
        ? () => (olderRead ??= this.olderBlocks(olderIds, first, records, hashes).finally(() => (this.nodes.readOlder = undefined)))
        : undefined
    return {
      meta: withoutWriter(meta as ChainMeta & Partial<Written>),
      // A missing block stays empty, for the node to refuse the chain as incomplete.
      blocks: Array.from(records.slice(first), (bytes) => bytes ?? new Uint8Array()),
      blockHashes: hashes.slice(first),
      firstBlock: first,
      older: this.nodes.readOlder as (() => Promise<OlderBlocks>) | undefined,
      // Keys come in ascending order: arrival order.
      pool: poolKeys.map((seq, i): [number, Uint8Array] => [seq, pool[i]]),
      settings: settings as Uint8Array | undefined,
      fork: forkKeys.length > 0 ? forkKeys.map((key, i): [string, Uint8Array] => [key, fork[i]]) : undefined,
    }
  }

  /**
   * The node segments' ids and key filters by merge, as `SegmentedNodes.indexLater` reads them:
   * those the filter records name, and those of layout 3, which have none (listed by the layout-8
   * upgrade), each a merge of its own.
   */
  private async readNodeIndex(): Promise<NodeMerge[]> {
    const tx = this.db.transaction(['segments', 'meta'], 'readonly')
    const [filtered, unfiltered] = await Promise.all([readFilters(tx.objectStore('segments')), tx.objectStore('meta').get('unfiltered') as Promise<string[] | undefined>])
    // Oldest first, as merged: the keys' digits sort so.
    const first = ({ pieces }: NodeMerge) => pieces[0].id
    return [...filtered, ...(unfiltered ?? []).map((id) => ({ pieces: [{ id }] }))].sort((a, b) => (first(a) < first(b) ? -1 : first(a) > first(b) ? 1 : 0))
  }

  /** Blocks 0 to `below` - 1 from the older segments, with the newer versions `load` read put over them. */
  private async olderBlocks(ids: number[], below: number, newer: Uint8Array[], newerHashes: (Uint8Array | undefined)[]): Promise<OlderBlocks> {
    const tx = this.db.transaction('segments', 'readonly')
    const stored = (await Promise.all(ids.map((id) => tx.store.get(id)))) as StoredSegment[]
    const records: Uint8Array[] = new Array(below)
    const hashes: (Uint8Array | undefined)[] = new Array(below)
    for (const decoded of await Promise.all(stored.map(readSegment))) {
      for (const block of decoded.blocks) {
        if (block.number >= below) continue
        records[block.number] = block.record
        hashes[block.number] = block.hash
      }
      if (decoded.nodes.length > 0) this.nodes.addOlder(decoded.nodes)
    }
    for (let n = 0; n < below; n++) {
      if (newer[n] === undefined) continue
      records[n] = newer[n]
      hashes[n] = newerHashes[n]
    }
    return { blocks: Array.from(records, (bytes) => bytes ?? new Uint8Array()), blockHashes: hashes }
  }

  async commit({ meta: chainMeta, nodes, blocks, pool, settings, fork }: ChainCommit): Promise<void> {
    // Encoded before the transaction opens: nothing but its own requests may be awaited in it.
    // A drop (`dropAbove`) is the head in 'chain' (see CommitRecord).
    const record: CommitRecord = { blocks: blocks.map(({ number, bytes }) => [Number(number), packZeros(bytes)]) }
    if (nodes.size > 0) record.nodes = packNodes(nodes)
    const hasRecord = itemsOf(record) > 0
    // The plain IndexedDB API on the hot path, not idb's wrappers: a commit is one durable block
    // under automine, and a Proxy, a promise and two listeners per request, then a microtask
    // hop before the lease is checked, showed in the worker's profile (bench/profile.ts).
    // The pool's store only when the pool changed: a commit's scope is what it locks.
    const scope = ['meta', ...(hasRecord ? ['commits'] : []), ...(pool ? ['pool'] : []), ...(fork ? ['fork'] : [])]
    const tx = unwrap(this.db).transaction(scope, 'readwrite', { durability: this.durability })
    return new Promise<void>((resolve, reject) => {
      const added = hasRecord ? tx.objectStore('commits').add(record) : undefined
      if (pool) {
        const poolStore = tx.objectStore('pool')
        for (const seq of pool.removed) poolStore.delete(seq)
        for (const [seq, bytes] of pool.added) poolStore.put(bytes, seq)
      }
      if (settings) tx.objectStore('meta').put(settings, 'settings')
      if (fork) {
        const forkStore = tx.objectStore('fork')
        for (const [key, value] of fork) forkStore.put(value, key)
      }
      // Refused by `meta`'s unique index if this store was revoked, which aborts the transaction
      // and every write in it (see the class comment).
      const chain = tx.objectStore('meta').put({ ...chainMeta, writer: this.lease.owner } satisfies ChainMeta & Written, 'chain')
      // Committed as soon as the writes are done, without waiting for their success events to
      // reach this thread and for it to go idle (IndexedDB's auto-commit), which a busy worker
      // delays. Where there is no explicit commit, the auto-commit aborts on the failed put alike.
      tx.commit?.()
      // A failed request aborts the transaction; a full disk shows only here, at commit
      // (docs/browser-notes.md, "Where IndexedDB reports a full disk").
      tx.oncomplete = () => {
        if (added && record.nodes) this.nodes.addRecord(added.result as number, record.nodes)
        this.merged(itemsOf(record))
        resolve()
      }
      // An abort that names no error (as idb's tx.done does): what refusedWrite words.
      tx.onabort = () => {
        const revoked = chain.readyState === 'done' && chain.error?.name === 'ConstraintError'
        reject(revoked ? new Error(LEASE_LOST) : refusedWrite(tx.error ?? new DOMException('the transaction was aborted', 'AbortError')))
      }
    })
  }

  /** Counts a commit's blocks and node batch, for `mergeWhenDue`. */
  private merged(items: number): void {
    this.unmerged += items
    this.mergeWhenDue()
  }

  /** Merges the per-commit records into a segment, in the background, once there are enough of them. */
  private mergeWhenDue(): void {
    if (this.merging || this.unmerged < MERGE_AFTER_ITEMS) return
    this.merging = this.merge()
      .catch(() => {}) // merging is an optimisation: the records it did not merge stay readable
      .finally(() => (this.merging = undefined))
  }

  /**
   * Reads every per-commit record, makes them a block segment and a (deflated) node segment, then,
   * in one readwrite transaction that checks the lease, adds the segments and deletes the records.
   * Deflating is asynchronous, which would end a transaction: so the records are read in one and
   * replaced in another. Commits meanwhile add records after those read, which it leaves: a
   * record is never changed once added, and only a merge deletes one.
   */
  private async merge(): Promise<void> {
    const read = this.db.transaction(['commits', 'blocks'], 'readonly')
    const [commitKeys, stored, blockNumbers, legacyBlocks] = await Promise.all([
      read.objectStore('commits').getAllKeys(),
      read.objectStore('commits').getAll(),
      read.objectStore('blocks').getAllKeys(),
      read.objectStore('blocks').getAll(),
    ])
    this.unmerged = 0
    if (blockNumbers.length === 0 && commitKeys.length === 0) return
    // Layout-9 block records, then the commits' in order: a block stored again, newest last.
    const blocks = new Map(blockNumbers.map((number, i) => [number, legacyBlocks[i]]))
    const batches: Uint8Array[] = []
    const batchKeys: number[] = []
    stored.forEach((record, i) => {
      const { nodes, blocks: committed } = commitRecordOf(record)
      if (nodes) {
        batches.push(nodes)
        batchKeys.push(commitKeys[i])
      }
      for (const [number, bytes] of committed) blocks.set(number, bytes)
    })
    const merged: SegmentBlock[] = [...blocks.keys()]
      .sort((a, b) => a - b)
      .map((number) => {
        const record = unpackZeros(blocks.get(number)!)
        return { number, hash: blockHashOfRecord(record), record }
      })
    // Blocks and nodes apart (segments.ts): a start reads the blocks, the nodes when needed.
    const blockSegment = merged.length > 0 ? storedBlockSegment(merged) : undefined
    // The nodes in pieces of ~64 KB (each its own record), with one record of their filters: a
    // trie read that misses memory reads one piece, not the whole merge's nodes (~2 MB).
    const pieces = await Promise.all(
      nodePieces(batches, batchKeys).map(async (piece) => ({
        key: nodeSegmentKey(piece.firstKey),
        segment: await storedNodeSegment(piece.batches),
        filter: NodeFilter.of(piece.batches, PIECE_FILTER),
      })),
    )
    // A read tests this before its pieces' filters: one test, not ~25, for a merge without its key.
    const mergeFilter = pieces.length > 0 ? NodeFilter.of(batches, MERGE_FILTER) : undefined

    const tx = this.db.transaction(['meta', 'commits', 'blocks', 'segments'], 'readwrite', { durability: this.durability })
    await this.holdsLease(tx, tx.objectStore('meta').get('lease'))
    if (blockSegment) void tx.objectStore('segments').add(blockSegment).catch(() => {})
    for (const piece of pieces) void tx.objectStore('segments').add(piece.segment, piece.key).catch(() => {})
    if (pieces.length > 0) {
      const filters: StoredFilters = {
        pieces: pieces.map((piece) => ({ segment: piece.key, filter: piece.filter.bits, probes: piece.filter.probes })),
        merge: mergeFilter && { filter: mergeFilter.bits, probes: mergeFilter.probes },
      }
      void tx.objectStore('segments').add(filters, nodeFilterKey(batchKeys[0])).catch(() => {})
    }
    const lastCommit = commitKeys[commitKeys.length - 1]
    if (commitKeys.length > 0) void tx.objectStore('commits').delete(IDBKeyRange.bound(commitKeys[0], lastCommit)).catch(() => {})
    if (blockNumbers.length > 0) void tx.objectStore('blocks').delete(IDBKeyRange.bound(blockNumbers[0], blockNumbers[blockNumbers.length - 1])).catch(() => {})
    await tx.done
    // The records merged are gone: the node reads their nodes from the segment from now on.
    if (pieces.length > 0) this.nodes.addMerge({ pieces: pieces.map(({ key, filter }) => ({ id: key, filter })), filter: mergeFilter }, lastCommit)
  }

  async wipe(): Promise<void> {
    await this.merging
    const tx = this.db.transaction(['meta', 'nodes', 'commits', 'blocks', 'segments', 'pool', 'fork'], 'readwrite')
    await this.holdsLease(tx, tx.objectStore('meta').get('lease'))
    await Promise.all([
      tx.objectStore('fork').clear(),
      tx.objectStore('meta').delete('chain'),
      tx.objectStore('meta').delete('settings'),
      tx.objectStore('meta').delete('unfiltered'),
      tx.objectStore('pool').clear(),
      tx.objectStore('nodes').clear(),
      tx.objectStore('commits').clear(),
      tx.objectStore('blocks').clear(),
      tx.objectStore('segments').clear(),
      tx.done,
    ])
    this.nodes.clear()
  }

  /** Aborts `tx` and throws unless `lease` (read in `tx`) says this store still holds the chain's lease. */
  private async holdsLease(tx: IDBPTransaction<ChainDB, StoreName[], 'readwrite'>, lease: Promise<unknown>): Promise<void> {
    // Awaiting a request of the transaction keeps it open (awaiting anything else would not).
    if (((await lease.catch(() => undefined)) as Lease | undefined)?.owner === this.lease.owner) return
    tx.abort()
    await tx.done.catch(() => {})
    throw new Error(LEASE_LOST)
  }

  async close(): Promise<void> {
    clearTimeout(this.mergeAfterLoad)
    // A merge under way completes (or aborts whole) on its own; wait so that a reopened store finds it done.
    await this.merging
    this.db.close()
    this.releaseLiveness()
  }
}

/**
 * A merge's node filters as stored: layout 5 and before, one filter of the one node segment
 * under the same digits; layout 6, the filters of its pieces, each naming its segment, and since
 * layout 8 the probe count it was written with (4 when absent: nodeFilter.ts). Since merge
 * filters, also one filter of all the merge's keys (`merge`): a field a reader that does not know
 * it leaves, testing every piece's filter as before, so the layout stays 8.
 */
type StoredFilters =
  | { filter: Uint8Array }
  | { pieces: { segment: string; filter: Uint8Array; probes?: number }[]; merge?: { filter: Uint8Array; probes: number } }

/** Every merge a filter record names, with its pieces' filters and its own. */
async function readFilters(segments: { getAllKeys(range: IDBKeyRange): Promise<unknown[]>; getAll(range: IDBKeyRange): Promise<unknown[]> }): Promise<NodeMerge[]> {
  const [keys, filters] = await Promise.all([segments.getAllKeys(nodeFilterKeys()) as Promise<string[]>, segments.getAll(nodeFilterKeys()) as Promise<StoredFilters[]>])
  return keys.map((key, i) => mergeOf(key, filters[i]))
}

function mergeOf(key: string, stored: StoredFilters): NodeMerge {
  if (!('pieces' in stored)) return { pieces: [{ id: segmentOfFilter(key), filter: new NodeFilter(stored.filter) }] }
  return {
    pieces: stored.pieces.map(({ segment, filter, probes }) => ({ id: segment, filter: new NodeFilter(filter, probes) })),
    filter: stored.merge && new NodeFilter(stored.merge.filter, stored.merge.probes),
  }
}

/** Raw bytes of trie nodes a node segment piece holds, at most (a per-commit record bigger than this is a piece of its own). */
const PIECE_BYTES = 64 * 1024

/** Consecutive per-commit node records grouped into pieces of about PIECE_BYTES. */
function nodePieces(batches: Uint8Array[], keys: number[]): { firstKey: number; batches: Uint8Array[] }[] {
  const pieces: { firstKey: number; batches: Uint8Array[] }[] = []
  let bytes = Infinity
  batches.forEach((batch, i) => {
    if (bytes + batch.length > PIECE_BYTES) {
      pieces.push({ firstKey: keys[i], batches: [] })
      bytes = 0
    }
    pieces[pieces.length - 1].batches.push(batch)
    bytes += batch.length
  })
  return pieces
}

/** How long after a load a merge that is due waits (ms). */
const MERGE_AFTER_LOAD_MS = 2_000

/** The chain's meta as the node knows it: which store wrote it is the store's own business. */
function withoutWriter(meta: ChainMeta & Partial<Written>): ChainMeta {
  const chain = { ...meta }
  delete chain.writer
  return chain
}

/** `meta` keys of revoked stores (layout 9): REVOKED and the store's lease owner. */
const REVOKED = 'revoked:'
/** A function, not a constant: this module is imported where there is no IndexedDB (Node). */
const revokedKeys = () => IDBKeyRange.bound(REVOKED, `${REVOKED}\uffff`)
const revokedKey = (owner: string) => REVOKED + owner

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
