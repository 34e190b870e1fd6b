import { open, readFile, unlink } from 'node:fs/promises'
import { StateFileError } from './format.ts'

/**
 * `<file>.lock`, holding the pid of the pagenode using the state file. Two nodes appending to one
 * log, or one compacting it under the other, would lose acknowledged changes; the lock makes the
 * second one stop with a clear message instead. A lock left by a process that is gone (kill -9, a
 * crash) is taken over.
 */
export class StateLock {
  private constructor(private readonly path: string) {
    heldHere.add(path)
  }

  static async acquire(stateFile: string): Promise<StateLock> {
    const path = `${stateFile}.lock`
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await open(path, 'wx')
        await handle.writeFile(`${process.pid}\n`)
        await handle.close()
        return new StateLock(path)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      const owner = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10)
      if (Number.isInteger(owner) && owner > 0 && isRunning(owner, path)) {
        throw new StateFileError(
          `in use by another pagenode (process ${owner}); stop it first, or delete ${path} if no pagenode is running`,
        )
      }
      // Stale (or half-written by a process that died while creating it): take it over.
      await unlink(path).catch(() => {})
    }
    throw new StateFileError(`could not take the lock ${path}: another process keeps creating it`)
  }

  async release(): Promise<void> {
    heldHere.delete(this.path)
    await unlink(this.path).catch(() => {})
  }
}

/** Locks this process holds: our own pid in a lock we do not hold is a previous run's. */
const heldHere = new Set<string>()

function isRunning(pid: number, path: string): boolean {
  // In a container a restarted pagenode often gets the same pid as the one that left the lock.
  if (pid === process.pid) return heldHere.has(path)
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
