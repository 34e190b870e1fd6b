import { rlpElement, rlpItem, rlpItemEnd } from './rlpWalk.ts'

/**
 * The nodes a state-trie node names by hash, read from its RLP without decoding it: a branch's
 * children, an extension's next node and, in the account trie, a leaf's storage root (where that
 * account's storage trie begins). A child small enough to be inlined (under 32 bytes) is inside
 * its parent and names no node itself; contract code, named by an account's code hash, is kept
 * under its own key ('c' + hash) and is not a trie node.
 *
 * `visit(bytes, start, accountTrie)`: the 32-byte hash at bytes[start, start + 32), and whether
 * the node it names is in the account trie (false: in a storage trie). Run for each node a block's
 * flush wrote (TrieNodeStore.keepingReachable): it steps over the elements by their prefixes and
 * allocates nothing for a branch.
 */
export function forEachNamedNode(
  node: Uint8Array,
  accountTrie: boolean,
  visit: (bytes: Uint8Array, start: number, accountTrie: boolean) => void,
): void {
  const list = rlpItem(node, 0)
  if (!list.list) return
  // Elements, counted; the hashes among the first 16 (a branch's children) visited after.
  let count = 0
  let hashes = 0
  let firstEnd = 0
  for (let at = list.start; at < list.end; count++) {
    const prefix = node[at]
    const end = rlpItemEnd(node, at)
    if (count === 0) firstEnd = end
    if (prefix === 0xa0 && count < 16) hashes |= 1 << count
    at = end
  }
  if (count === 17) {
    for (let i = 0, at = list.start; i < 16; i++) {
      if (hashes & (1 << i)) visit(node, at + 1, accountTrie)
      at = rlpItemEnd(node, at)
    }
    return
  }
  if (count !== 2) return
  // [path, value]: the compact path's first nibble says a leaf (bit 2) or an extension.
  const path = rlpItem(node, list.start)
  const isLeaf = path.end > path.start && (node[path.start] & 0x20) !== 0
  const value = rlpItem(node, firstEnd)
  const isHash = !value.list && value.end - value.start === 32
  if (!isLeaf) {
    if (isHash) visit(node, value.start, accountTrie)
    return
  }
  if (!accountTrie || value.list) return
  // An account: [nonce, balance, storageRoot, codeHash].
  const account = rlpItem(node, value.start)
  if (!account.list) return
  const storageRoot = rlpElement(node, account, 2)
  if (storageRoot && !storageRoot.list && storageRoot.end - storageRoot.start === 32) visit(node, storageRoot.start, false)
}
