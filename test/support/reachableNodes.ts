import { LeafMPTNode, MerklePatriciaTrie } from '@ethereumjs/mpt'
import { createAccountFromRLP, equalsBytes, KECCAK256_RLP, type DB } from '@ethereumjs/util'
import { bytesToHex } from '../../src/core/hexText.ts'

/**
 * The keys of every node the state trie at `root` reaches, its accounts' storage tries included,
 * by ethereumjs' own walk: what a store must hold for that state to read whole.
 */
export async function reachableNodeKeys(db: DB<string, Uint8Array>, root: Uint8Array): Promise<Set<string>> {
  const reached = new Set<string>()
  const storageRoots: Uint8Array[] = []
  const walk = (at: Uint8Array, accountTrie: boolean) =>
    new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: 'view', root: at }).walkTrie(at, async (nodeRef, node, key, controller) => {
      if (nodeRef.length === 32) reached.add(bytesToHex(nodeRef).slice(2))
      if (accountTrie && node instanceof LeafMPTNode) {
        const account = createAccountFromRLP(node.value())
        if (!equalsBytes(account.storageRoot, KECCAK256_RLP)) storageRoots.push(account.storageRoot)
      }
      if (node) controller.allChildren(node, key)
    })
  await walk(root, true)
  for (const storageRoot of storageRoots) await walk(storageRoot, false)
  return reached
}
