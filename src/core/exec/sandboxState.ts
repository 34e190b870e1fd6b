import { MerklePatriciaTrie, type MPTOpts } from '@ethereumjs/mpt'
import { bytesToUnprefixedHex, equalsBytes, type Account, type Address } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { ForkableStateManager } from '../fork/forkedStateManager.ts'

/** Reads a trie remembers at most; past it, it starts again (~200 bytes each). */
const MEMO_LIMIT = 50_000

/**
 * A trie that remembers what it read under its current root. What a trie holds under a root
 * never changes, so a read is kept until the root moves (a write, `root(…)`, a revert to another
 * root); the check is by identity, a root being a new array whenever it changes.
 */
export class ReadMemoTrie extends MerklePatriciaTrie {
  private memoRoot: Uint8Array | undefined
  private readonly memo = new Map<string, Uint8Array | null>()

  override async get(key: Uint8Array, throwIfMissing = false): Promise<Uint8Array | null> {
    const root = this.root()
    // A chain that stays at one head while something reads every account would grow it forever.
    if (root !== this.memoRoot || this.memo.size >= MEMO_LIMIT) {
      this.memo.clear()
      this.memoRoot = root
    }
    const hex = bytesToUnprefixedHex(key)
    const known = this.memo.get(hex)
    if (known !== undefined) return known
    const value = await super.get(key, throwIfMissing)
    if (this.root() === root) this.memo.set(hex, value)
    return value
  }

  /** Storage tries are made as copies of the account trie: they remember too. */
  override shallowCopy(includeCheckpoints = true, opts?: MPTOpts): MerklePatriciaTrie {
    const trie = new ReadMemoTrie({ ...this._opts, db: this._db.db.shallowCopy(), root: this.root(), cacheSize: 0, ...opts })
    if (includeCheckpoints && this.hasCheckpoints()) trie._db.setCheckpoints(this._db.checkpoints)
    return trie
  }
}

/**
 * The state manager of a sandbox (see StateMachine). Each use of a sandbox ends in a revert,
 * which drops from the caches everything the use read and forgets every storage trie, so each
 * eth_call walked the tries again for the same accounts and slots and made each storage trie
 * anew: a quarter of a call's time, profiled. Over a ReadMemoTrie, the reads are remembered by
 * the tries; this keeps the storage tries, each for as long as it is at its account's storage
 * root. What the sandbox writes still goes to the caches and is reverted as before.
 */
export class SandboxStateManager extends ForkableStateManager {
  private readonly keptStorageTries = new Map<string, MerklePatriciaTrie>()
  /** Address → its hash, the key super files a storage trie under (a keccak per call otherwise). */
  private readonly hashedAddresses = new Map<string, { hashed: Uint8Array; hex: string }>()

  protected override _getStorageTrie(addressOrHash: Address | { bytes: Uint8Array } | Uint8Array, rootAccount?: Account): MerklePatriciaTrie {
    const { hashed, hex } = addressOrHash instanceof Uint8Array ? { hashed: addressOrHash, hex: bytesToUnprefixedHex(addressOrHash) } : this.hashedAddress(addressOrHash.bytes)
    const current = this._storageTries[hex]
    if (current !== undefined) return current
    const kept = this.keptStorageTries.get(hex)
    const root = rootAccount?.storageRoot
    if (kept !== undefined && root !== undefined && equalsBytes(kept.root(), root)) {
      this._storageTries[hex] = kept
      return kept
    }
    const trie = super._getStorageTrie(hashed, rootAccount)
    this.keptStorageTries.set(hex, trie)
    return trie
  }

  private hashedAddress(address: Uint8Array): { hashed: Uint8Array; hex: string } {
    const key = bytesToUnprefixedHex(address)
    let known = this.hashedAddresses.get(key)
    if (known === undefined) {
      const hashed = (this.common.customCrypto.keccak256 ?? keccak_256)(address)
      known = { hashed, hex: bytesToUnprefixedHex(hashed) }
      this.hashedAddresses.set(key, known)
    }
    return known
  }

  override async setStateRoot(stateRoot: Uint8Array, clearCache?: boolean): Promise<void> {
    // Still valid at their roots, but kept only for the state the sandbox is at.
    this.keptStorageTries.clear()
    this.hashedAddresses.clear()
    await super.setStateRoot(stateRoot, clearCache)
  }
}
