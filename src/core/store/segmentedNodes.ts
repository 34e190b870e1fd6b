import { NodeArchive } from './nodeArchive.ts'
import { probesOf, type NodeFilter } from './nodeFilter.ts'
import { PackedNodes } from './packing.ts'
import type { NodeSource } from './store.ts'

/**
 * Bytes of node segments kept read, most recently used: a piece of a merge is ~64 KB of nodes
 * (layout 6; a whole merge's, ~2 MB, before). The last one read is kept whatever its size.
 */
const SEGMENT_CACHE_BYTES = 4 * 1024 * 1024

/** A node segment's id and its key filter (none: from layout 3, it may hold any key). */
export interface NodeSegment {
  id: string
  filter?: NodeFilter
}

/**
 * The node segments one merge wrote (its pieces, oldest first) and a filter of all their keys
 * (none: a merge stored before merge filters, any of whose pieces may hold any key).
 */
export interface NodeMerge {
  pieces: NodeSegment[]
  filter?: NodeFilter
}

/**
 * The trie nodes of the IndexedDB store as the node reads them (issue 21: not all in memory):
 *
 * - the records of the commits since the last merge, which the store keeps in memory as well
 *   (NodeArchive: a few hundred records at most, until the next merge makes them a segment);
 * - the node segments, each with its key filter, grouped by the merge that wrote them, each merge
 *   with a filter of its keys: a read that misses the records reads the segments, newest first,
 *   whose filter and whose merge's filter may hold its key (a segment or merge without a filter
 *   always may), keeping the last few read;
 * - the nodes of the first layouts, read at load (`older`).
 */
export class SegmentedNodes implements NodeSource {
  private recent = new NodeArchive(false)
  private recentRecords: { key: number; packed: Uint8Array }[] = []
  /** Newest last. */
  private readonly merges: NodeMerge[] = []
  /** Reads the segments a load found (`indexLater`), until they are known. */
  private indexing: (() => Promise<NodeMerge[]>) | undefined
  private indexed: Promise<void> | undefined
  private readonly read = new Map<string, { nodes: Promise<PackedNodes>; bytes: number }>()
  private cachedBytes = 0

  private older: PackedNodes | undefined

  constructor(
    private readonly readSegment: (id: string) => Promise<Uint8Array>,
    private readonly cacheBytes = SEGMENT_CACHE_BYTES,
  ) {}

  /** The nodes of the first layouts, read at load. */
  setOlder(nodes: PackedNodes): void {
    this.older = nodes
  }

  /** More of them: a layout-3 segment (blocks and nodes together) read after the load. */
  addOlder(nodes: Uint8Array): void {
    this.older = new PackedNodes([...(this.older?.records ?? []), nodes])
  }

  /** A commit's (or a load's) per-commit node record, stored under `key`. */
  addRecord(key: number, packed: Uint8Array): void {
    this.recentRecords.push({ key, packed })
    this.recent.add(packed)
  }

  /**
   * The segments a load found, not part of the load: their filters grow with the chain (at
   * 50,000 blocks, 159 filter records of ~2.6 MB take ~45 ms), and a start answers from the chain
   * alone. `read` is called at once (the IndexedDB store hands over the read it began beside the
   * load); a read that reaches the segments waits for it, and a failed one is made again by the
   * next such read.
   */
  indexLater(read: () => Promise<NodeMerge[]>): void {
    this.indexing = read
    this.indexed = undefined
    this.segmentIndex()?.catch(() => {})
  }

  /** A merge's node segments stored (merged from the records up to `lastKey`, now gone from the store). */
  addMerge(merge: NodeMerge, lastKey?: number): void {
    this.merges.push(merge)
    if (lastKey === undefined) return
    this.recentRecords = this.recentRecords.filter(({ key }) => key > lastKey)
    this.recent = new NodeArchive(false)
    for (const { packed } of this.recentRecords) this.recent.add(packed)
  }

  /**
   * Reads the older block segments a load left, which may hold nodes too (layout 3): a key
   * found nowhere else waits for them.
   */
  readOlder: (() => Promise<unknown>) | undefined

  async get(key: string): Promise<Uint8Array | undefined> {
    const found = await this.find(key)
    if (found !== undefined || !this.readOlder) return found
    await this.readOlder().catch(() => {})
    return this.find(key)
  }

  private async find(key: string): Promise<Uint8Array | undefined> {
    const found = this.older?.get(key) ?? (await this.recent.get(key))
    if (found !== undefined) return found
    await this.segmentIndex()
    if (this.merges.length === 0) return undefined
    const probes = probesOf(key)
    const merges = this.merges
    for (let m = merges.length - 1; m >= 0; m--) {
      const { pieces, filter: keysOfMerge } = merges[m]
      if (keysOfMerge && !keysOfMerge.mayHoldProbes(probes)) continue
      for (let i = pieces.length - 1; i >= 0; i--) {
        const { id, filter } = pieces[i]
        if (filter && !filter.mayHoldProbes(probes)) continue
        const value = (await this.segment(id)).get(key)
        if (value !== undefined) return value.slice() // a view would keep the whole segment alive
      }
    }
    return undefined
  }

  clear(): void {
    this.indexing = undefined
    this.indexed = undefined
    this.recent = new NodeArchive(false)
    this.recentRecords = []
    this.merges.length = 0
    this.read.clear()
    this.cachedBytes = 0
    this.older = undefined
  }

  /** Resolves once the segments a load found are known (undefined: they are). */
  private segmentIndex(): Promise<void> | undefined {
    const read = this.indexing
    if (!read) return undefined
    this.indexed ??= read().then(
      (found) => {
        if (this.indexing !== read) return // cleared meanwhile
        // Older than any merged since: before them, each once.
        const known = new Set(this.merges.map(({ pieces }) => pieces[0].id))
        this.merges.unshift(...found.filter(({ pieces }) => !known.has(pieces[0].id)))
        this.indexing = undefined
      },
      (error: unknown) => {
        if (this.indexing === read) this.indexed = undefined
        throw error
      },
    )
    return this.indexed
  }

  private segment(id: string): Promise<PackedNodes> {
    const kept = this.read.get(id)
    if (kept) {
      this.read.delete(id) // re-inserted: most recently used last
      this.read.set(id, kept)
      return kept.nodes
    }
    const entry = { nodes: this.readSegment(id).then((nodes) => new PackedNodes([nodes])), bytes: 0 }
    this.read.set(id, entry)
    entry.nodes.then(
      (nodes) => {
        if (this.read.get(id) !== entry) return
        entry.bytes = nodes.records[0].length
        this.cachedBytes += entry.bytes
        for (const [oldest, evicted] of this.read) {
          if (this.cachedBytes <= this.cacheBytes || oldest === id) break
          this.read.delete(oldest)
          this.cachedBytes -= evicted.bytes
        }
      },
      // A failed read is tried again by the next miss.
      () => {
        if (this.read.get(id) === entry) this.read.delete(id)
      },
    )
    return entry.nodes
  }
}
