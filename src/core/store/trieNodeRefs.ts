import { rlpElement, rlpElements, rlpItem, type RlpItem } from './rlpWalk.ts'

/**
 * The nodes a state-trie node names by hash, read from its RLP without decoding it: a branch's
 * children, an extension's next node and, in the account trie, a leaf's storage root (where that
 * account's storage trie begins). A child small enough to be inlined (under 32 bytes) is inside
 * its parent and names no node itself; contract code, named by an account's code hash, is kept
 * under its own key ('c' + hash) and is not a trie node.
 *
 * `visit(bytes, start, accountTrie)`: the 32-byte hash at bytes[start, start + 32), and whether
 * the node it names is in the account trie (false: in a storage trie).
 */
export function forEachNamedNode(
  node: Uint8Array,
  accountTrie: boolean,
  visit: (bytes: Uint8Array, start: number, accountTrie: boolean) => void,
): void {
  const list = rlpItem(node, 0)
  if (!list.list) return
  const elements = rlpElements(node, list)
  if (elements.length === 17) {
    for (let i = 0; i < 16; i++) if (isHash(elements[i])) visit(node, elements[i].start, accountTrie)
    return
  }
  if (elements.length !== 2) return
  const [path, value] = elements
  // The compact path's first nibble: bit 2 says a leaf, otherwise an extension.
  const isLeaf = path.end > path.start && (node[path.start] & 0x20) !== 0
  if (!isLeaf) {
    if (isHash(value)) visit(node, value.start, accountTrie)
    return
  }
  if (!accountTrie || value.list) return
  // An account: [nonce, balance, storageRoot, codeHash].
  const account = rlpItem(node, value.start)
  if (!account.list) return
  const storageRoot = rlpElement(node, account, 2)
  if (storageRoot && isHash(storageRoot)) visit(node, storageRoot.start, false)
}

function isHash(item: RlpItem): boolean {
  return !item.list && item.end - item.start === 32
}
