import { MemoryStore } from '../../src/core/store/memoryStore.ts'
import type { ChainCommit } from '../../src/core/store/store.ts'

/**
 * A MemoryStore that records its commits and refuses them while `failing` (a full disk, a quota),
 * and holds them while `held` (a slow disk: `hold()`, then `release()` lets them complete).
 */
export class FlakyStore extends MemoryStore {
  failing = false
  commits: ChainCommit[] = []
  private held: Promise<void> | undefined
  private releaseHeld: (() => void) | undefined

  /** Commits from now on wait until `release()`. */
  hold(): void {
    this.held ??= new Promise((resolve) => (this.releaseHeld = resolve))
  }

  release(): void {
    this.releaseHeld?.()
    this.held = undefined
  }

  override async commit(commit: ChainCommit): Promise<void> {
    if (this.held) await this.held
    if (this.failing) throw new Error('QuotaExceededError: the quota has been exceeded')
    this.commits.push(commit)
    await super.commit(commit)
  }
}
