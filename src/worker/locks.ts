/**
 * The Web Locks a tab's worker takes. The browser frees a lock when its holder's worker ends,
 * however it ends (stop, tab close, crash), which is what makes them the tabs' source of truth.
 */

export interface HeldLock {
  release(): void
  /** Resolves if another tab takes the lock away (`steal`); never after `release()`. */
  lost: Promise<void>
}

/**
 * How to ask: 'now' gives up at once if another tab holds the lock; 'wait' waits in line for as
 * long as it takes (no timeout: a tab may lead for hours), unless `signal` aborts; 'steal' takes
 * it from its holder, whose `lost` then resolves.
 */
export type LockMode = 'now' | 'wait' | 'steal'

/** Takes `name` and holds it until released (or the worker ends); undefined if not granted. */
export function holdLock(name: string, mode: LockMode, signal?: AbortSignal): Promise<HeldLock | undefined> {
  return new Promise((resolve) => {
    let granted = false
    let loseIt = () => {}
    const lost = new Promise<void>((resolve) => (loseIt = resolve))
    const options: LockOptions = mode === 'now' ? { ifAvailable: true } : mode === 'steal' ? { steal: true } : { signal }
    navigator.locks
      .request(name, options, (lock) => {
        if (!lock) {
          resolve(undefined)
          return undefined
        }
        granted = true
        return new Promise<void>((release) => resolve({ release, lost }))
      })
      // After the grant, a rejection means the lock was stolen; before it, the wait was aborted.
      .catch(() => (granted ? loseIt() : resolve(undefined)))
  })
}

/** Resolves once `name` is free, i.e. its holder is gone; never if `signal` aborts first. */
export function whenFree(name: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    navigator.locks.request(name, { signal }, () => resolve()).catch(() => {})
  })
}
