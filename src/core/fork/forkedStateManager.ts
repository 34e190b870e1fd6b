import { RLP } from '@ethereumjs/rlp'
import { Account, unpadBytes, type Address } from '@ethereumjs/util'
import type { StateManagerInterface } from '@ethereumjs/common'
import type { ForkState } from './forkState.ts'
import { ExecutionError } from '../errors.ts'
import { isEraVmBytecode } from '../rollup/eraVmBytecode.ts'
import { BatchFlushedStateManager } from '../exec/batchFlushedState.ts'

/**
 * A zero written to a forked contract's slot, as the storage caches hold it: RLP of the single
 * byte 0x00, which reads as zero, and which the trie keeps instead of deleting the slot. Deleted,
 * the slot would read as "never written here" and be asked of the upstream again.
 */
const ZERO_TOMBSTONE = RLP.encode(Uint8Array.of(0))

/**
 * The chain's state manager (the miner's VM, and under the sandboxes'): ethereumjs' Merkle state
 * manager, flushed in batches (exec/batchFlushedState.ts), which, on a forked chain (`fork` set),
 * reads what its trie lacks from the upstream's state at the fork block (fork/forkState.ts;
 * docs/architecture.md, "The fork read path").
 *
 * The local trie is authoritative for whatever was written locally: an account that is in it is
 * the account, a slot that is in it is the slot. What is absent comes from the fork: an account
 * the trie lacks is the upstream's (with an empty local storage root, so that local writes start
 * a local storage trie); code whose hash the trie's database lacks is the upstream's; a slot a
 * forked contract's local storage lacks is the upstream's. A zero written to such a slot is kept
 * as a tombstone (ZERO_TOMBSTONE), so that it stays zero. Upstream values are never put in the
 * caches: what the caches hold is flushed into the trie as if written.
 */
export class ForkableStateManager extends BatchFlushedStateManager {
  /** The fork the state reads through to; none on a chain that is not a fork. */
  fork: ForkState | undefined

  /**
   * Empties the caches once `limit` entries went into them since they were last emptied. Called
   * by the miner between blocks, when they hold nothing the trie lacks (a block's state root
   * flushed them) and no checkpoint is open. ethereumjs' default caches never evict: the miner's
   * would keep every account and slot the chain ever touched (~0.2 KB a block of ERC-20
   * transfers to new holders), in memory that must not grow with the chain (issue 21). The trie
   * node cache (TrieNodeStore) keeps the hot paths, so reads after a clear stay cheap.
   */
  trimCaches(limit: number): void {
    const caches = this._caches
    if (!caches) return
    const entered = (caches.account?.stats(false).writes ?? 0) + (caches.storage?.stats(false).writes ?? 0) + (caches.code?.stats(false).writes ?? 0)
    if (entered < limit) return
    caches.clear()
    caches.account?.stats(true)
    caches.storage?.stats(true)
    caches.code?.stats(true)
  }

  // Each override hands a chain that is not a fork straight to ethereumjs' method, with no async
  // layer of its own: these are the hottest calls of every execution.

  override getAccount(address: Address): Promise<Account | undefined> {
    return this.fork ? this.forkedAccount(address, this.fork) : super.getAccount(address)
  }

  override getCode(address: Address): Promise<Uint8Array> {
    return this.fork ? this.forkedCode(address, this.fork) : super.getCode(address)
  }

  override getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    return this.fork ? this.forkedStorage(address, key, this.fork) : super.getStorage(address, key)
  }

  override putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (this.fork && this._caches?.storage && key.length === 32 && unpadBytes(value).length === 0) return this.putForkedZero(address, key, value, this.fork)
    return super.putStorage(address, key, value)
  }

  private async forkedAccount(address: Address, fork: ForkState): Promise<Account | undefined> {
    const local = await super.getAccount(address)
    if (local !== undefined) return local
    const forked = await fork.account(address.bytes)
    return forked && new Account(forked.nonce, forked.balance, undefined, forked.codeHash)
  }

  private async forkedCode(address: Address, fork: ForkState): Promise<Uint8Array> {
    const cached = this._caches?.code?.get(address)
    if (cached !== undefined) return cached.code ?? new Uint8Array(0)
    const account = await this.getAccount(address)
    if (!account?.isContract()) return new Uint8Array(0)
    const local = await this._trie.database().get(this.codeKey(account.codeHash))
    if (local) {
      this._caches?.code?.put(address, local)
      return local
    }
    // Not cached: the code cache's entries are written back to the trie's database.
    return fork.code(address.bytes, account.codeHash)
  }

  private async forkedStorage(address: Address, key: Uint8Array, fork: ForkState): Promise<Uint8Array> {
    const value = await super.getStorage(address, key)
    if (value.length > 0) return value
    const forked = await fork.account(address.bytes)
    if (!forked?.hasStorage) return value
    return fork.storage(address.bytes, key)
  }

  /** A zero written to a slot: a tombstone where the upstream may hold a value, else as ethereumjs writes it. */
  private async putForkedZero(address: Address, key: Uint8Array, value: Uint8Array, fork: ForkState): Promise<void> {
    const forked = await fork.account(address.bytes)
    if (forked?.hasStorage && (await this.getAccount(address)) !== undefined) {
      this._caches!.storage!.put(address, key, ZERO_TOMBSTONE)
      return
    }
    return super.putStorage(address, key, value)
  }
}


/**
 * Readies an execution from `from` to `to` on a fork, before it runs: the accounts it starts with
 * that the local state lacks come from the upstream in one batch (with their code), where the EVM
 * would ask for them one after the other; and a target whose code is EraVM bytecode (a ZKsync Era
 * upstream's contracts, compiled by zksolc) is refused, where the EVM would run it as EVM code:
 * its first byte, 0x00, is STOP, and the call would "succeed" with nothing. Nothing on a chain that
 * is not a fork.
 */
export async function prepareForkedExecution(stateManager: StateManagerInterface, from: Address, to: Address | undefined): Promise<void> {
  const fork = stateManager instanceof ForkableStateManager ? stateManager.fork : undefined
  if (!fork) return
  // Every account the chain touched went through the fork once (as absent, if it is local only):
  // a warm call awaits nothing here.
  const unknown = [from, to].filter((address): address is Address => address !== undefined && !fork.knowsAccount(address.bytes))
  if (unknown.length > 0) await Promise.all(unknown.map((address) => fork.account(address.bytes)))
  if (to && isEraVmBytecode(await stateManager.getCode(to))) {
    throw new ExecutionError(
      `the contract at ${to.toString()} (from the fork's upstream ${fork.upstream.host}) is EraVM bytecode (zksolc output), which this node cannot run: it runs EVM bytecode only`,
    )
  }
}
