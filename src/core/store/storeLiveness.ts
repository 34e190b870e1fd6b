/**
 * Which IndexedDB stores are still open, origin-wide: each open store holds a Web Lock named for
 * its lease owner until it closes, and the browser frees it when its worker ends, however it ends.
 * A store that replaces another revokes the old one only when it may still be alive (a frozen
 * tab can wake up and commit), and drops the revocations of stores that are gone
 * (indexedDbStore.ts, "Fencing an old leader" in docs/architecture.md).
 *
 * Where the browser has no Web Locks, nothing can be told apart: every store counts as alive.
 */

const PREFIX = 'pagenode-store:'

/** Holds the lock of `owner` until the returned function is called (at once where there are no Web Locks). */
export function holdLiveness(owner: string): Promise<() => void> {
  const locks = globalThis.navigator?.locks
  if (!locks) return Promise.resolve(() => {})
  return new Promise((granted, refused) => {
    // A name no other store asks for: granted at once, held until released.
    locks.request(PREFIX + owner, () => new Promise<void>((release) => granted(release))).catch(refused)
  })
}

/** The owners of the stores open now, anywhere in this origin; undefined where that cannot be told. */
export async function liveOwners(): Promise<Set<string> | undefined> {
  const locks = globalThis.navigator?.locks
  if (!locks) return undefined
  const { held = [] } = await locks.query()
  const owners = new Set<string>()
  for (const { name } of held) if (name?.startsWith(PREFIX)) owners.add(name.slice(PREFIX.length))
  return owners
}
