/**
 * The user's own Solidity files, by name, kept in IndexedDB (`pagenode-playground-workspace`)
 * apart from the examples, so an example never takes the place of one of them. Files import one
 * another by name (`import "./Base.sol";`): the compiler is given every file a source pulls in.
 * The list is held in memory too, so the editor and the compiler read it synchronously; each
 * change is written through.
 */
import { openDB, type IDBPDatabase } from 'idb'
import { LIBRARIES } from './imports.ts'

const DATABASE = 'pagenode-playground-workspace'
const STORE = 'files'

export interface WorkspaceFile {
  name: string
  content: string
}

export class WorkspaceError extends Error {}

/** A file name: folders and a name of letters, digits, `_`, `-` or `.`, ending in `.sol`. */
const NAME = /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\.sol$/

export class Workspace {
  private readonly files = new Map<string, string>()
  private database: Promise<IDBPDatabase | undefined> | undefined

  /** Reads the stored files (once, before the panel shows them). */
  async load(): Promise<void> {
    const database = await this.open()
    if (!database) return
    for (const file of (await database.getAll(STORE)) as WorkspaceFile[]) this.files.set(file.name, file.content)
  }

  get names(): string[] {
    return [...this.files.keys()].sort()
  }

  read(name: string): string | undefined {
    return this.files.get(name)
  }

  has(name: string): boolean {
    return this.files.has(name)
  }

  /** Why `name` cannot be a new file's name (badly formed, a library's path, taken), or undefined. */
  problemWith(name: string, reserved: readonly string[] = []): string | undefined {
    if (!NAME.test(name)) return `"${name}" is not a file name: letters, digits, _, - and . (folders with /), ending in .sol`
    if (LIBRARIES.some((library) => name.startsWith(library.split('/')[0] + '/'))) return `${name} would hide a library the playground ships`
    if (this.files.has(name) || reserved.includes(name)) return `${name} exists already`
    return undefined
  }

  async write(name: string, content: string): Promise<void> {
    this.files.set(name, content)
    const database = await this.open()
    await database?.put(STORE, { name, content } satisfies WorkspaceFile)
  }

  async rename(from: string, to: string): Promise<void> {
    const content = this.files.get(from)
    if (content === undefined) throw new WorkspaceError(`${from} is not in the workspace`)
    this.files.delete(from)
    this.files.set(to, content)
    const database = await this.open()
    if (!database) return
    const transaction = database.transaction(STORE, 'readwrite')
    await Promise.all([transaction.store.delete(from), transaction.store.put({ name: to, content } satisfies WorkspaceFile), transaction.done])
  }

  /** Deletes a file; resolves with it, so that it can be put back (undo). */
  async remove(name: string): Promise<WorkspaceFile | undefined> {
    const content = this.files.get(name)
    if (content === undefined) return undefined
    this.files.delete(name)
    const database = await this.open()
    await database?.delete(STORE, name)
    return { name, content }
  }

  private open(): Promise<IDBPDatabase | undefined> {
    this.database ??= openDB(DATABASE, 1, {
      upgrade(database) {
        database.createObjectStore(STORE, { keyPath: 'name' })
      },
    }).catch((error: unknown) => {
      console.warn('the workspace is kept in memory only:', error)
      return undefined
    })
    return this.database
  }
}
