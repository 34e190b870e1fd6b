import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { type Address, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { keccak256 } from './fastCrypto.ts'
import type { TrieNodeStore } from '../store/trieNodeStore.ts'

/**
 * The state trie keys accounts by keccak(address) and storage by keccak(slot), so walking it
 * (anvil_dumpState) finds hashes, not addresses. Every address and slot the miner's state writes
 * is recorded here under its hash, in the node store, so the preimages are persisted with the
 * nodes that use them (as geth keeps a preimage store). Keys cannot collide with trie nodes or
 * code: those are hex strings, these start with "preimage:".
 */
const PREFIX = 'preimage:'

export function preimageKey(hash: PrefixedHexString): string {
  return PREFIX + hash.slice(2)
}

/** The address or slot whose keccak is `hash`, if the state ever wrote it. */
export async function preimageOf(nodes: TrieNodeStore, hash: PrefixedHexString): Promise<Uint8Array | undefined> {
  return nodes.get(preimageKey(hash))
}

/** Keys remembered as recorded, at most: past it, it starts again (a key recorded twice is the same node). */
const SEEN_LIMIT = 50_000

/**
 * Makes `stateManager` record the preimage of every account and storage key it writes. Every
 * write goes through putAccount and putStorage (code and field changes do too); a key is hashed
 * once per run of the node, then remembered (up to SEEN_LIMIT). `forget()` starts over (the node
 * store was cleared).
 */
export function recordPreimages(stateManager: MerkleStateManager, nodes: TrieNodeStore): { forget(): void } {
  const seen = new Set<string>()
  const record = (key: Uint8Array) => {
    const hex = bytesToHex(key)
    if (seen.has(hex)) return
    // What it saves is a keccak per key written again: not worth ~120 bytes per key ever written.
    if (seen.size >= SEEN_LIMIT) seen.clear()
    seen.add(hex)
    void nodes.put(preimageKey(bytesToHex(keccak256(key))), key.slice())
  }
  const putAccount = stateManager.putAccount.bind(stateManager)
  stateManager.putAccount = (address: Address, account) => {
    record(address.bytes)
    return putAccount(address, account)
  }
  const putStorage = stateManager.putStorage.bind(stateManager)
  stateManager.putStorage = (address: Address, key: Uint8Array, value: Uint8Array) => {
    record(key)
    return putStorage(address, key, value)
  }
  return { forget: () => seen.clear() }
}
