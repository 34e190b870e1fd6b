/**
 * The Web Locks a tab's worker takes. The browser frees a lock when its holder's worker ends,
 * however it ends (stop, tab close, crash), which is what makes them the tabs' source of truth.
 */

/** Releases a held lock. */
export type Release = () => void

/**
 * Takes `name` and holds it until released (or the worker ends). With `wait` false, resolves
 * undefined at once when another holder has it; with `wait` true, waits in line for as long as
 * it takes (no timeout: a tab may lead for hours), unless `signal` aborts the wait.
 */
export function holdLock(name: string, wait: boolean, signal?: AbortSignal): Promise<Release | undefined> {
  return new Promise((resolve) => {
    navigator.locks
      .request(name, wait ? { signal } : { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(undefined)
          return undefined
        }
        return new Promise<void>((release) => resolve(release))
      })
      .catch(() => resolve(undefined))
  })
}

/** Resolves once `name` is free, i.e. its holder is gone; never if `signal` aborts first. */
export function whenFree(name: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    navigator.locks.request(name, { signal }, () => resolve()).catch(() => {})
  })
}
