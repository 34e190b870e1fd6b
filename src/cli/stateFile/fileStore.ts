import { copyFile, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import { MemoryStore, type ChainCommit, type ChainMeta, type PersistedChain, type Store } from '../../core/index.ts'
import { closeMark, encodeRecord, FORMAT_VERSION, fileHeader, scanStateFile, StateFileError, type ScannedFile } from './format.ts'
import { StateLock } from './lock.ts'

/** Snapshot records stay around this size, so compaction never builds one giant buffer. */
const SNAPSHOT_RECORD_BYTES = 8 * 1024 * 1024

export interface OpenedStateFile {
  /** The file did not exist (or was empty): the node starts a new chain in it. */
  created: boolean
  /** Bytes of an append a crash interrupted, cut off at open (never acknowledged). */
  tornBytes: number
  /** A `<file>.tmp` a compaction interrupted by a kill left, removed at open. */
  staleTemp?: boolean
  /** A damaged file opened with `recover`: what was kept, and where the original was copied. */
  recovered?: { records: number; damage: string; copy: string }
}

export interface OpenOptions {
  /**
   * Keep the valid prefix of a damaged file instead of refusing it (`--state-recover`): the
   * original is copied aside first, as `<file>.damaged-<time>`.
   */
  recover?: boolean
}

/**
 * A Store in one file (format.ts): an append-only log of commit records.
 *
 * - Durable: `commit` appends one record and fdatasyncs before it resolves, and the node
 *   acknowledges a change only once its commit resolved.
 * - Atomic: a record is all or nothing (checksummed and marked; a torn last record is cut off at
 *   the next open, after a crash only: format.ts). Whole-file rewrites (creation, compaction,
 *   wipe) go to `<file>.tmp`, are fsynced, then renamed over the file, so the file is always
 *   either the old one or the new one; a `.tmp` a kill left behind is removed at the next open.
 * - Damage is refused, not skipped: a file that fails its checks anywhere but a torn last append
 *   stops the start with where it is, unless opened with `recover`, which keeps the records
 *   before the damage and copies the original aside.
 * - Compact: `close` rewrites the log as a snapshot of the chain, so the file does not keep
 *   every superseded head record and dropped block forever.
 *
 * The chain is also kept in memory (a MemoryStore, its trie nodes compact): that is what `load`
 * hands the node, what the node reads its state from, and what a snapshot is written from.
 */
export class FileStore implements Store {
  private readonly image = new MemoryStore()
  /** The image's: trie nodes are read from memory, where the file's are kept compact. */
  readonly nodes = this.image.nodes
  /** The image holds the blocks' records. */
  readonly keepsBlocks = true
  /** Appends run one at a time, in call order: the log's order is the commit order. */
  private queue: Promise<void> = Promise.resolve()
  /** Records appended since the file was last rewritten: a reason to compact at close. */
  private appended = 0
  private broken: Error | undefined
  private closing: Promise<void> | undefined
  /** The file's name without its directory: what errors that may reach an HTTP client show. */
  private readonly name: string

  private constructor(
    readonly path: string,
    private handle: FileHandle,
    private size: number,
    private readonly lock: StateLock,
    readonly opened: OpenedStateFile,
  ) {
    this.name = basename(path)
  }

  /** Opens (or creates) the state file, replays it, and takes its lock. */
  static async open(file: string, options: OpenOptions = {}): Promise<FileStore> {
    const path = resolve(file)
    const lock = await StateLock.acquire(path)
    try {
      return await FileStore.openLocked(path, lock, options)
    } catch (error) {
      // Nothing was written: a lock taken over stays (the file is still as a crash left it).
      if (lock.tookOver) lock.abandon()
      else await lock.release()
      throw error
    }
  }

  private static async openLocked(path: string, lock: StateLock, options: OpenOptions): Promise<FileStore> {
    // Under the lock, no other pagenode is compacting: a temporary file is a killed one's.
    const staleTemp = await unlink(`${path}.tmp`).then(
      () => true,
      () => false,
    )
    const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    })
    if (bytes === undefined || bytes.length === 0) {
      await writeAtomically(path, [fileHeader()])
      return new FileStore(path, await open(path, 'r+'), fileHeader().length, lock, { created: true, tornBytes: 0, staleTemp })
    }
    const scanned = scanStateFile(bytes)
    const problem = damageOf(scanned, lock.tookOver)
    if (problem !== undefined) {
      const records = scanned.commits.length
      if (!options.recover) {
        throw new StateFileError(
          `${problem}; start with --state-recover to keep the ${records} intact record${records === 1 ? '' : 's'} before it (the file is copied aside first)`,
        )
      }
      const copy = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`
      await copyFile(path, copy)
      const store = await FileStore.fromCommits(path, lock, scanned, { created: false, tornBytes: 0, staleTemp, recovered: { records, damage: problem, copy } })
      await store.rewrite(await store.snapshot())
      return store
    }
    if (scanned.version < FORMAT_VERSION) {
      // An older format: rewritten in this one at once, so that appends match the file's header.
      const store = await FileStore.fromCommits(path, lock, scanned, { created: false, tornBytes: scanned.tornBytes, staleTemp })
      await store.rewrite(await store.snapshot())
      return store
    }
    const handle = await open(path, 'r+')
    if (scanned.tornBytes > 0 || scanned.closed) {
      // Cut the torn record (or the close mark) off before appending: records go after the last one.
      await handle.truncate(scanned.validBytes)
      await handle.sync()
    }
    const store = new FileStore(path, handle, scanned.validBytes, lock, { created: false, tornBytes: scanned.tornBytes, staleTemp })
    for (const commit of scanned.commits) await store.image.commit(commit)
    return store
  }

  /** A store whose image holds `scanned`'s commits, on the file as it is (the caller rewrites it). */
  private static async fromCommits(path: string, lock: StateLock, scanned: ScannedFile, opened: OpenedStateFile): Promise<FileStore> {
    const store = new FileStore(path, await open(path, 'r+'), scanned.validBytes, lock, opened)
    for (const commit of scanned.commits) await store.image.commit(commit)
    return store
  }

  /** The stored chain's identity and head, without opening a node on it. */
  async meta(): Promise<ChainMeta | undefined> {
    return (await this.image.load())?.meta
  }

  load(): Promise<PersistedChain | undefined> {
    return this.image.load()
  }

  commit(commit: ChainCommit): Promise<void> {
    return this.enqueue(() => this.append(commit))
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    if (this.closing) return Promise.reject(new Error(`the state file ${this.name} is closed`))
    const done = this.queue.then(work)
    this.queue = done.catch(() => {})
    return done
  }

  private async append(commit: ChainCommit): Promise<void> {
    if (this.broken) throw this.broken
    const record = encodeRecord(commit)
    try {
      await writeFully(this.handle, record, this.size)
      await this.handle.datasync()
    } catch (error) {
      await this.undoAppend(error)
      throw new Error(`could not save to the state file ${this.name}: ${this.withoutDirectory(error)}`)
    }
    this.size += record.length
    this.appended++
    await this.image.commit(commit)
  }

  /**
   * A failed append (disk full) may have left part of its record: cut it off so the log stays
   * clean. If even that fails the log's end is unknown, and every later commit is refused.
   */
  private async undoAppend(cause: unknown): Promise<void> {
    try {
      await this.handle.truncate(this.size)
      await this.handle.datasync()
    } catch {
      this.broken = new Error(`the state file ${this.name} could not be written (${this.withoutDirectory(cause)}); restart pagenode to recover it`)
    }
  }

  /**
   * An error's message without the file's directory: messages of a failed write reach the
   * JSON-RPC caller (an HTTP client), who has no business knowing where the file lives.
   */
  private withoutDirectory(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error)
    return message.split(`${dirname(this.path)}/`).join('').split(`${dirname(this.path)}\\`).join('')
  }

  wipe(): Promise<void> {
    return this.enqueue(async () => {
      try {
        await this.rewrite([fileHeader()])
      } catch (error) {
        throw new Error(`could not rewrite the state file ${this.name}: ${this.withoutDirectory(error)}`)
      }
      await this.image.wipe()
    })
  }

  /**
   * Waits for the commits already made, compacts the log into a snapshot if it grew, marks the
   * file closed, and releases it. A failed compaction loses nothing: the log it would have
   * replaced stays, the close mark is appended to it. A file that could not be marked keeps its
   * lock, so that the next start treats it as a crash (its tail may then be cut, never refused).
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.queue
      let marked = false
      try {
        if (this.broken) return
        if (this.appended > 0) {
          try {
            await this.rewrite([...(await this.snapshot()), closeMark()])
            marked = true
            return
          } catch (error) {
            await this.markClosed().then(() => (marked = true)).catch(() => {})
            throw error
          }
        }
        await this.markClosed()
        marked = true
      } finally {
        await this.handle.close().catch(() => {})
        if (marked) await this.lock.release()
        else this.lock.abandon()
      }
    })()
    return this.closing
  }

  /** Appends the close mark: the file ends here, whole. */
  private async markClosed(): Promise<void> {
    await writeFully(this.handle, closeMark(), this.size)
    await this.handle.datasync()
  }

  /** The whole chain as a few large commit records: replaying them rebuilds it exactly. */
  private async snapshot(): Promise<Uint8Array[]> {
    const chain = await this.image.load()
    if (!chain) return [fileHeader()]
    const records = [fileHeader()]
    let nodes = new Map<string, Uint8Array>()
    let blocks: ChainCommit['blocks'] = []
    let fork = new Map<string, Uint8Array>()
    let bytes = 0
    const flush = () => {
      records.push(encodeRecord({ meta: chain.meta, nodes, blocks, fork }))
      nodes = new Map()
      blocks = []
      fork = new Map()
      bytes = 0
    }
    for (const [key, value] of chain.fork ?? []) {
      fork.set(key, value)
      bytes += key.length + value.length
      if (bytes >= SNAPSHOT_RECORD_BYTES) flush()
    }
    for await (const [key, value] of this.image.nodes.entries()) {
      nodes.set(key, value)
      bytes += key.length + value.length
      if (bytes >= SNAPSHOT_RECORD_BYTES) flush()
    }
    chain.blocks.forEach((block, number) => {
      blocks.push({ number: BigInt(number), bytes: block })
      bytes += block.length
      if (bytes >= SNAPSHOT_RECORD_BYTES) flush()
    })
    // The last record always exists and carries the meta, even for an empty tail, and the pool
    // and the settings.
    records.push(encodeRecord({ meta: chain.meta, nodes, blocks, pool: { added: chain.pool ?? [], removed: [] }, settings: chain.settings, fork }))
    return records
  }

  /** Replaces the file with `parts` atomically and carries on appending to the new file. */
  private async rewrite(parts: Uint8Array[]): Promise<void> {
    await this.handle.close()
    try {
      await writeAtomically(this.path, parts)
    } finally {
      this.handle = await open(this.path, 'r+')
    }
    this.size = parts.reduce((total, part) => total + part.length, 0)
    this.appended = 0
  }
}

/**
 * Why a scanned file may not be used as it is: damage, or a file cut short that no crash
 * explains (its last pagenode closed it, so it should end with the close mark).
 */
function damageOf(scanned: ScannedFile, afterCrash: boolean): string | undefined {
  if (scanned.damage) return scanned.damage
  // Format 1 had no close mark: a torn tail was always cut, as it still is for those files.
  if (scanned.closed || afterCrash || scanned.version < 2) return undefined
  return scanned.tornBytes > 0
    ? `damaged: cut short inside a record at byte ${scanned.validBytes}, and no pagenode crashed while using it (a crash leaves its lock)`
    : `damaged: cut short at byte ${scanned.validBytes} (it lacks the mark a clean close leaves, and no pagenode crashed while using it)`
}

/** write-temp, fsync, rename over, fsync the directory: the file is the old one or the new one. */
async function writeAtomically(path: string, parts: Uint8Array[]): Promise<void> {
  const temp = `${path}.tmp`
  const handle = await open(temp, 'w')
  try {
    let position = 0
    for (const part of parts) {
      await writeFully(handle, part, position)
      position += part.length
    }
    await handle.sync()
  } catch (error) {
    await handle.close().catch(() => {})
    await unlink(temp).catch(() => {})
    throw error
  }
  await handle.close()
  await rename(temp, path)
  await syncDirectory(dirname(path))
}

/** The rename is durable only once the directory entry is (POSIX; Windows cannot and need not). */
async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | undefined
  try {
    handle = await open(directory, 'r')
    await handle.sync()
  } catch (error) {
    if (process.platform !== 'win32') throw error
  } finally {
    await handle?.close()
  }
}

/** `FileHandle.write` may write less than asked; a record must go out whole. */
async function writeFully(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  let written = 0
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, position + written)
    written += bytesWritten
  }
}

export { StateFileError }
