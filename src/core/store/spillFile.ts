import type * as NodeFs from 'node:fs'
import type * as NodeOs from 'node:os'
import { nodeBuiltin } from './nodeBuiltin.ts'

/** Closes a spill file whose owner was collected without closing it (a MemoryStore nobody closes). */
const orphans = new FinalizationRegistry<{ fs: typeof NodeFs; fd: number; path?: string }>(({ fs, fd, path }) => {
  try {
    fs.closeSync(fd)
    if (path) fs.unlinkSync(path)
  } catch {
    // Already gone: nothing to free.
  }
})

/**
 * Bytes a memory store has sealed, moved out of the process's memory into a temporary file and
 * read back by need, in Node.js (as anvil moves its older states to disk): what lets a long
 * chain's state history cost disk, not RAM. Append-only; a read is synchronous (the page cache
 * answers it in microseconds).
 *
 * The file is unlinked as soon as it is open, so it goes with the process however it ends
 * (kill -9 included); where an open file cannot be unlinked (Windows) it is deleted on close.
 */
export class SpillFile {
  /** Bytes written. */
  size = 0
  private closed = false

  private constructor(
    private readonly fs: typeof NodeFs,
    private readonly fd: number,
    private readonly path: string | undefined,
  ) {}

  /** A new spill file for `owner`, or undefined where there is no file system to spill to (a browser) or it refused. */
  static open(owner: object): SpillFile | undefined {
    const fs = nodeBuiltin<typeof NodeFs>('node:fs')
    const os = nodeBuiltin<typeof NodeOs>('node:os')
    const process = nodeBuiltin<{ pid: number }>('node:process')
    if (!fs || !os || !process) return undefined
    const path = `${os.tmpdir()}/pagenode-${process.pid}-${crypto.randomUUID()}.spill`
    let fd: number
    try {
      fd = fs.openSync(path, 'wx+', 0o600)
    } catch {
      return undefined
    }
    let kept: string | undefined
    try {
      fs.unlinkSync(path)
    } catch {
      kept = path
    }
    const file = new SpillFile(fs, fd, kept)
    orphans.register(owner, { fs, fd, path: kept }, file)
    return file
  }

  /** Appends `bytes`; returns where they start. */
  write(bytes: Uint8Array): number {
    const at = this.size
    let written = 0
    while (written < bytes.length) written += this.fs.writeSync(this.fd, bytes, written, bytes.length - written, at + written)
    this.size += bytes.length
    return at
  }

  /** The `length` bytes written at `at`. */
  read(at: number, length: number): Uint8Array {
    const out = new Uint8Array(length)
    let read = 0
    while (read < length) {
      const n = this.fs.readSync(this.fd, out, read, length - read, at + read)
      if (n === 0) throw new Error(`spill file ends at ${at + read}, ${length - read} bytes short`)
      read += n
    }
    return out
  }

  /** Forgets everything written (the file is emptied). */
  truncate(): void {
    this.fs.ftruncateSync(this.fd, 0)
    this.size = 0
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    orphans.unregister(this)
    this.fs.closeSync(this.fd)
    if (this.path) this.fs.unlinkSync(this.path)
  }
}
