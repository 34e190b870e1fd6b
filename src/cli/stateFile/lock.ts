import { open, readFile, unlink } from 'node:fs/promises'
import { StateFileError } from './format.ts'

/**
 * `<file>.lock`, holding the pid of the pagenode using the state file and when that process
 * started. Two nodes appending to one log, or one compacting it under the other, would lose
 * acknowledged changes; the lock makes the second one stop with a clear message instead. A lock
 * left by a process that is gone (kill -9, a crash) is taken over, and so is one whose pid now
 * belongs to another process (pids are reused: the start time tells them apart, where the
 * system says it — Linux's /proc).
 *
 * A clean close removes the lock; a lock taken over means the last pagenode did not close the
 * file, which is what lets a torn last append be cut off (format.ts).
 */
export class StateLock {
  private constructor(
    private readonly path: string,
    /** The lock was left by a pagenode that did not close the file (a crash, kill -9). */
    readonly tookOver: boolean,
  ) {
    heldHere.add(path)
  }

  static async acquire(stateFile: string): Promise<StateLock> {
    const path = `${stateFile}.lock`
    let tookOver = false
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await open(path, 'wx')
        await handle.writeFile(`${process.pid} ${(await startTimeOf(process.pid)) ?? ''}\n`)
        await handle.close()
        return new StateLock(path, tookOver)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      const [pidText, startText] = (await readFile(path, 'utf8').catch(() => '')).trim().split(/\s+/)
      const owner = Number.parseInt(pidText ?? '', 10)
      if (Number.isInteger(owner) && owner > 0 && (await isRunning(owner, startText, path))) {
        throw new StateFileError(
          `in use by another pagenode (process ${owner}); stop it first, or delete ${path} if no pagenode is running`,
        )
      }
      // Stale (or half-written by a process that died while creating it): take it over.
      await unlink(path).catch(() => {})
      tookOver = true
    }
    throw new StateFileError(`could not take the lock ${path}: another process keeps creating it`)
  }

  async release(): Promise<void> {
    heldHere.delete(this.path)
    await unlink(this.path).catch(() => {})
  }

  /** Leaves the lock file in place (a close that could not mark the file whole): the next start treats it as a crash. */
  abandon(): void {
    heldHere.delete(this.path)
  }
}

/** Locks this process holds: our own pid in a lock we do not hold is a previous run's. */
const heldHere = new Set<string>()

async function isRunning(pid: number, lockedStart: string | undefined, path: string): Promise<boolean> {
  // In a container a restarted pagenode often gets the same pid as the one that left the lock.
  if (pid === process.pid) return heldHere.has(path)
  try {
    process.kill(pid, 0)
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  // Alive: the same process only if it started when the lock's writer did.
  const start = await startTimeOf(pid)
  if (start === undefined) return true
  return lockedStart !== undefined && lockedStart !== '' ? lockedStart === start : isPagenode(pid)
}

/** When a process started, in clock ticks since boot (Linux's /proc/<pid>/stat, field 22); undefined elsewhere. */
async function startTimeOf(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)
  if (stat === undefined) return undefined
  // Fields after the command name, which is in parentheses and may hold spaces.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
}

/** A lock without a start time (an older pagenode's): its pid is ours only if it runs pagenode. */
async function isPagenode(pid: number): Promise<boolean> {
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
  return /pagenode|cli[/\\]main\.[jt]s/.test(commandLine)
}
