import { MemoryStore } from '../../src/core/store/memoryStore.ts'
import type { ChainCommit } from '../../src/core/store/store.ts'

/** A MemoryStore that records its commits and refuses them while `failing` (a full disk, a quota). */
export class FlakyStore extends MemoryStore {
  failing = false
  commits: ChainCommit[] = []
  override async commit(commit: ChainCommit): Promise<void> {
    if (this.failing) throw new Error('QuotaExceededError: the quota has been exceeded')
    this.commits.push(commit)
    await super.commit(commit)
  }
}
