import { open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { MemoryStore, type ChainCommit, type ChainMeta, type PersistedChain, type Store } from '../../core/index.ts'
import { encodeRecord, fileHeader, scanStateFile, StateFileError } from './format.ts'
import { StateLock } from './lock.ts'

/** Snapshot records stay around this size, so compaction never builds one giant buffer. */
const SNAPSHOT_RECORD_BYTES = 8 * 1024 * 1024

export interface OpenedStateFile {
  /** The file did not exist (or was empty): the node starts a new chain in it. */
  created: boolean
  /** Bytes of an append a crash interrupted, cut off at open (never acknowledged). */
  tornBytes: number
}

/**
 * A Store in one file (format.ts): an append-only log of commit records.
 *
 * - Durable: `commit` appends one record and fdatasyncs before it resolves, and the node
 *   acknowledges a change only once its commit resolved.
 * - Atomic: a record is all or nothing (checksummed; a torn last record is cut off at the next
 *   open). Whole-file rewrites (creation, compaction, wipe) go to `<file>.tmp`, are fsynced,
 *   then renamed over the file, so the file is always either the old one or the new one.
 * - Compact: `close` rewrites the log as a snapshot of the chain, so the file does not keep
 *   every superseded head record and dropped block forever.
 *
 * The chain is also kept in memory (a MemoryStore): that is what `load` hands the node and what
 * a snapshot is written from.
 */
export class FileStore implements Store {
  private readonly image = new MemoryStore()
  /** Appends run one at a time, in call order: the log's order is the commit order. */
  private queue: Promise<void> = Promise.resolve()
  /** Records appended since the file was last rewritten: a reason to compact at close. */
  private appended = 0
  private broken: Error | undefined
  private closing: Promise<void> | undefined

  private constructor(
    readonly path: string,
    private handle: FileHandle,
    private size: number,
    private readonly lock: StateLock,
    readonly opened: OpenedStateFile,
  ) {}

  /** Opens (or creates) the state file, replays it, and takes its lock. */
  static async open(file: string): Promise<FileStore> {
    const path = resolve(file)
    const lock = await StateLock.acquire(path)
    try {
      return await FileStore.openLocked(path, lock)
    } catch (error) {
      await lock.release()
      throw error
    }
  }

  private static async openLocked(path: string, lock: StateLock): Promise<FileStore> {
    const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    })
    if (bytes === undefined || bytes.length === 0) {
      await writeAtomically(path, [fileHeader()])
      return new FileStore(path, await open(path, 'r+'), fileHeader().length, lock, { created: true, tornBytes: 0 })
    }
    const scanned = scanStateFile(bytes)
    const handle = await open(path, 'r+')
    if (scanned.tornBytes > 0) {
      // Cut the torn record off before appending, or the next record would sit behind garbage.
      await handle.truncate(scanned.validBytes)
      await handle.sync()
    }
    const store = new FileStore(path, handle, scanned.validBytes, lock, { created: false, tornBytes: scanned.tornBytes })
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
    if (this.closing) return Promise.reject(new Error(`the state file ${this.path} is closed`))
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
      throw new Error(`could not save to ${this.path}: ${(error as Error).message}`)
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
      this.broken = new Error(
        `the state file ${this.path} could not be written (${(cause as Error).message}); restart pagenode to recover it`,
      )
    }
  }

  wipe(): Promise<void> {
    return this.enqueue(async () => {
      await this.rewrite([fileHeader()])
      await this.image.wipe()
    })
  }

  /**
   * Waits for the commits already made, compacts the log into a snapshot if it grew, and
   * releases the file. A failed compaction loses nothing: the log it would have replaced stays.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.queue
      try {
        if (this.appended > 0 && !this.broken) await this.rewrite(await this.snapshot())
      } finally {
        await this.handle.close().catch(() => {})
        await this.lock.release()
      }
    })()
    return this.closing
  }

  /** The whole chain as a few large commit records: replaying them rebuilds it exactly. */
  private async snapshot(): Promise<Uint8Array[]> {
    const chain = await this.image.load()
    if (!chain) return [fileHeader()]
    const records = [fileHeader()]
    let nodes = new Map<string, Uint8Array>()
    let blocks: ChainCommit['blocks'] = []
    let bytes = 0
    const flush = () => {
      records.push(encodeRecord({ meta: chain.meta, nodes, blocks }))
      nodes = new Map()
      blocks = []
      bytes = 0
    }
    for (const [key, value] of chain.nodes) {
      nodes.set(key, value)
      bytes += key.length + value.length
      if (bytes >= SNAPSHOT_RECORD_BYTES) flush()
    }
    chain.blocks.forEach((block, number) => {
      blocks.push({ number: BigInt(number), bytes: block })
      bytes += block.length
      if (bytes >= SNAPSHOT_RECORD_BYTES) flush()
    })
    // The last record always exists and carries the meta, even for an empty tail.
    flush()
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
