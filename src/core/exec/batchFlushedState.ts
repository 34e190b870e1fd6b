import { RLP } from '@ethereumjs/rlp'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import {
  Account,
  bytesToUnprefixedHex,
  concatBytes,
  createAddressFromString,
  EthereumJSErrorWithoutCode,
  unpadBytes,
  unprefixedHexToBytes,
  utf8ToBytes,
  type Address,
} from '@ethereumjs/util'
import { keccak256 } from './fastCrypto.ts'
import { updateTrie, type TrieWrite } from './trieUpdate.ts'

/** ethereumjs' key prefix for code in the trie's database (MerkleStateManager's CODEHASH_PREFIX). */
const CODEHASH_PREFIX = utf8ToBytes('c')
/** The storage caches' RLP of an empty value: a slot written zero, deleted from its trie. */
const EMPTY_SLOT = 0x80

/**
 * ethereumjs' Merkle state manager whose writes reach the tries once a block, each trie in one
 * batch. A slot written stays in the storage cache (`putStorage`), as an account does, until the
 * flush — the write of the caches to the tries, once a block (exec/blockProducer.ts) — and the
 * flush writes each trie with one `updateTrie` (trieUpdate.ts) instead of one MPT put or del per
 * account and slot. The same tries, roots and nodes as ethereumjs 10.1.3's `flush`, in its order
 * and with its rules: code first, then each account's slots into its storage trie (the new root
 * into the account), then the accounts.
 *
 * A transfer block's flush took ~0.45 ms of the ~1.9 ms a transfer took in Node (three account
 * puts, each walking, re-encoding and re-hashing the trie's top), and ~0.17 ms batched.
 */
export class BatchFlushedStateManager extends MerkleStateManager {
  override putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    return this._caches?.storage ? this.putCachedStorage(address, key, value) : super.putStorage(address, key, value)
  }

  /**
   * A slot written into the storage cache only, for the flush to write to the trie with the rest
   * of the block: ethereumjs 10.1.3's putStorage means to do that, but writes
   * `this._caches?.storage?.put(…) ?? (await this._writeContractStorage(…))`, and the cache's
   * put returns nothing, so every SSTORE also went through to the storage trie at once: a trie
   * put that walks and hashes the slot's path, and an account write, on the execution's path,
   * and nodes no state keeps (an ERC-20 transfer block wrote 6 such nodes, then its flush the
   * same again). The checks and their errors are ethereumjs' own.
   */
  private async putCachedStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long')
    if (value.length > 32) throw EthereumJSErrorWithoutCode('Storage value cannot be longer than 32 bytes')
    if ((await this.getAccount(address)) === undefined) throw EthereumJSErrorWithoutCode('putStorage() called on non-existing account')
    this._caches!.storage!.put(address, key, RLP.encode(unpadBytes(value)))
  }

  /**
   * ethereumjs keeps a trie object per account whose storage it read, by hashed address (it also
   * files one by plain address when it writes a slot itself, which nothing reads), and reads the
   * account's slots through it whatever the account's storage root says; deleting the account
   * leaves it, so an account deleted (SELFDESTRUCT of a contract created in the same transaction)
   * and made again read the old slots and wrote new ones on top of them. Forgotten here with the
   * account.
   */
  override async deleteAccount(address: Address): Promise<void> {
    await super.deleteAccount(address)
    delete this._storageTries[bytesToUnprefixedHex(keccak256(address.bytes))]
  }

  /** Where code with `codeHash` is kept in the trie's database. */
  protected codeKey(codeHash: Uint8Array): Uint8Array {
    return this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash
  }

  override async flush(): Promise<void> {
    const caches = this._caches
    // Storage tries under prefixed keys live in another key space than the account trie's: not
    // what this node makes (stateMachine.ts), left to ethereumjs.
    if (!caches || this._prefixStorageTrieKeys) return super.flush()
    await this.flushCode(caches.code?.flush() ?? [])
    await this.flushStorage(caches.storage?.flush() ?? [])
    const accounts = caches.account?.flush() ?? []
    if (accounts.length === 0) return
    const writes = accounts.map(([addressHex, { accountRLP }]): TrieWrite => ({ key: keccak256(unprefixedHexToBytes(addressHex)), value: accountRLP }))
    this._trie.root(await updateTrie(this._trie.database(), this._trie.root(), writes, keccak256))
  }

  private async flushCode(items: [string, { code: Uint8Array | undefined }][]): Promise<void> {
    for (const [addressHex, { code }] of items) {
      if (code === undefined) continue
      const address = createAddressFromString(`0x${addressHex}`)
      const codeHash = keccak256(code)
      await this._getCodeDB().put(this.codeKey(codeHash), code)
      if ((await this.getAccount(address)) === undefined) await this.putAccount(address, new Account())
      await this.modifyAccountFields(address, { codeHash })
    }
  }

  /** Each account's slots into its storage trie, and the trie's new root into the account. */
  private async flushStorage(items: [string, string, Uint8Array | undefined][]): Promise<void> {
    const byAccount = new Map<string, TrieWrite[]>()
    for (const [addressHex, keyHex, value] of items) {
      let writes = byAccount.get(addressHex)
      if (!writes) byAccount.set(addressHex, (writes = []))
      // The cache holds the slot's RLP (putCachedStorage), which is what the trie keeps, unless it
      // is the empty string's: ethereumjs decodes it and deletes the slot, or encodes it again.
      const empty = value === undefined || (value.length === 1 && value[0] === EMPTY_SLOT)
      writes.push({ key: keccak256(unprefixedHexToBytes(keyHex)), value: empty ? undefined : value })
    }
    for (const [addressHex, writes] of byAccount) {
      const address = createAddressFromString(`0x${addressHex}`)
      const account = await this.getAccount(address)
      if (!account) continue
      account.storageRoot = await updateTrie(this._trie.database(), account.storageRoot, writes, keccak256)
      // ethereumjs keeps a trie object per account it read storage from (by its hashed address):
      // it must read the new root.
      this._storageTries[bytesToUnprefixedHex(keccak256(address.bytes))]?.root(account.storageRoot)
      await this.putAccount(address, account)
    }
  }
}
