import { equalsBytes, KECCAK256_RLP } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { rlpEncode, type RlpValue } from '../store/rlpWrite.ts'
import { payload, rlpItem, type RlpItem } from '../store/rlpWalk.ts'
import { concatPaths, fromHexPrefix, hexPrefix, nibbles, sharedLength } from './triePath.ts'

/**
 * A batch of writes to a Merkle-Patricia trie, applied in memory and then hashed once: the nodes
 * the writes reach are read and decoded once, the changes make new nodes beside them (a node read
 * is never changed, so its hash stays true), and each new node is encoded, hashed and written
 * once, at the end. The same root, and the same
 * node bytes under the same keys, as putting and deleting each key with @ethereumjs/mpt, which
 * walks, re-encodes, re-hashes and writes the key's whole path on every put: a transfer block's
 * flush of three accounts read the trie's top three times and hashed it three times, and two of
 * the three versions it wrote belong to no state (docs/ethereumjs-notes.md, "A block's state is
 * written to the trie once").
 *
 * Only nodes of the new state are written, and only those that changed: unchanged subtrees stay
 * references to what the store holds.
 */

/** Where the trie's nodes are, by hash: the trie's database. */
export interface TrieNodeDb {
  get(hash: Uint8Array): Promise<Uint8Array | null | undefined>
  put(hash: Uint8Array, node: Uint8Array): Promise<void>
}

/** A key of the trie (already hashed, for a secure trie) and its new value; undefined deletes it. */
export interface TrieWrite {
  key: Uint8Array
  value: Uint8Array | undefined
}

/** A node the store holds, not read yet. */
interface Stored {
  kind: 'stored'
  hash: Uint8Array
}
interface Leaf {
  kind: 'leaf'
  path: Uint8Array
  value: Uint8Array
  /** Its hash, when it was read from the store under it and not changed since. */
  hash?: Uint8Array
}
interface Extension {
  kind: 'extension'
  path: Uint8Array
  child: TrieNode
  hash?: Uint8Array
}
interface Branch {
  kind: 'branch'
  children: (TrieNode | undefined)[]
  value: Uint8Array | undefined
  hash?: Uint8Array
}
type TrieNode = Stored | Leaf | Extension | Branch
type Loaded = Leaf | Extension | Branch

const EMPTY = new Uint8Array(0)

/**
 * Applies `writes` to the trie at `root` and returns the new root. New nodes are put into `db`;
 * none is deleted (every older root stays readable). Throws when a node the trie names is not in
 * `db`.
 */
export async function updateTrie(db: TrieNodeDb, root: Uint8Array, writes: Iterable<TrieWrite>, hash: (bytes: Uint8Array) => Uint8Array): Promise<Uint8Array> {
  const trie = new TrieInMemory(db)
  let top: TrieNode | undefined = equalsBytes(root, KECCAK256_RLP) ? undefined : { kind: 'stored', hash: root }
  for (const { key, value } of writes) {
    const path = nibbles(key)
    top = value === undefined || value.length === 0 ? await trie.remove(top, path, 0) : await trie.insert(top, path, 0, value)
  }
  if (top === undefined) return KECCAK256_RLP
  if (top.hash) return top.hash
  const encoder = new NodeEncoder(hash)
  const newRoot = encoder.root(top)
  for (const [key, node] of encoder.written) await db.put(key, node)
  return newRoot
}

/** The trie's nodes as they are changed: read from the store as the writes reach them. */
class TrieInMemory {
  constructor(private readonly db: TrieNodeDb) {}

  async insert(node: TrieNode | undefined, path: Uint8Array, depth: number, value: Uint8Array): Promise<TrieNode> {
    if (node === undefined) return { kind: 'leaf', path: path.subarray(depth), value }
    if (node.kind === 'stored') {
      const loaded = await this.load(node)
      const inserted = await this.insert(loaded, path, depth, value)
      return inserted === loaded ? node : inserted
    }
    if (node.kind === 'branch') {
      if (depth === path.length) return node.value && equalsBytes(node.value, value) ? node : { kind: 'branch', children: node.children, value }
      const nibble = path[depth]
      const child = await this.insert(node.children[nibble], path, depth + 1, value)
      if (child === node.children[nibble]) return node
      const children = node.children.slice()
      children[nibble] = child
      return { kind: 'branch', children, value: node.value }
    }
    const shared = sharedLength(node.path, 0, path, depth)
    if (node.kind === 'leaf' && shared === node.path.length && depth + shared === path.length) {
      return equalsBytes(node.value, value) ? node : { kind: 'leaf', path: node.path, value }
    }
    if (node.kind === 'extension' && shared === node.path.length) {
      const child = await this.insert(node.child, path, depth + shared, value)
      return child === node.child ? node : { kind: 'extension', path: node.path, child }
    }
    // The paths part after `shared` nibbles: a branch there, under an extension of what they share.
    const children: (TrieNode | undefined)[] = new Array(16).fill(undefined)
    let branchValue: Uint8Array | undefined
    if (node.kind === 'leaf') {
      if (shared === node.path.length) branchValue = node.value
      else children[node.path[shared]] = { kind: 'leaf', path: node.path.subarray(shared + 1), value: node.value }
    } else {
      const rest = node.path.subarray(shared + 1)
      children[node.path[shared]] = rest.length === 0 ? node.child : { kind: 'extension', path: rest, child: node.child }
    }
    if (depth + shared === path.length) branchValue = value
    else children[path[depth + shared]] = { kind: 'leaf', path: path.subarray(depth + shared + 1), value }
    const branch: Branch = { kind: 'branch', children, value: branchValue }
    return shared === 0 ? branch : { kind: 'extension', path: node.path.subarray(0, shared), child: branch }
  }

  /** The node without `path`: the same object when the trie does not hold it. */
  async remove(node: TrieNode | undefined, path: Uint8Array, depth: number): Promise<TrieNode | undefined> {
    if (node === undefined) return undefined
    if (node.kind === 'stored') {
      const loaded = await this.load(node)
      const removed = await this.remove(loaded, path, depth)
      return removed === loaded ? node : removed
    }
    if (node.kind === 'leaf') {
      const matches = node.path.length === path.length - depth && sharedLength(node.path, 0, path, depth) === node.path.length
      return matches ? undefined : node
    }
    if (node.kind === 'extension') {
      if (sharedLength(node.path, 0, path, depth) !== node.path.length) return node
      const child = await this.remove(node.child, path, depth + node.path.length)
      if (child === node.child) return node
      return child === undefined ? undefined : this.joined(node.path, child)
    }
    let { value, children } = node
    if (depth === path.length) {
      if (value === undefined) return node
      value = undefined
    } else {
      const nibble = path[depth]
      const removed = await this.remove(children[nibble], path, depth + 1)
      if (removed === children[nibble]) return node
      children = children.slice()
      children[nibble] = removed
    }
    // A branch left with one entry is no branch: it becomes that entry, its path one nibble longer.
    let only = -1
    let count = value === undefined ? 0 : 1
    for (let i = 0; i < 16; i++) {
      if (children[i] !== undefined) {
        only = i
        count++
      }
    }
    if (count === 0) return undefined
    if (count > 1) return { kind: 'branch', children, value }
    if (only < 0) return { kind: 'leaf', path: EMPTY, value: value! }
    return this.joined(Uint8Array.of(only), children[only]!)
  }

  /** `child` under the path `prefix`: a leaf or an extension absorbs it, a branch gets an extension. */
  private async joined(prefix: Uint8Array, child: TrieNode): Promise<TrieNode> {
    const node = child.kind === 'stored' ? await this.load(child) : child
    if (node.kind === 'leaf') return { kind: 'leaf', path: concatPaths(prefix, node.path), value: node.value }
    if (node.kind === 'extension') return { kind: 'extension', path: concatPaths(prefix, node.path), child: node.child }
    return { kind: 'extension', path: prefix, child: node }
  }

  private async load(node: Stored): Promise<Loaded> {
    const bytes = await this.db.get(node.hash)
    if (!bytes) throw new Error(`the trie node ${bytesToHex(node.hash)} is not in the trie's database`)
    const decoded = decodeNode(bytes, 0)
    decoded.hash = node.hash
    return decoded
  }
}

/**
 * A node from its RLP, read in place (`rlpWalk`): its paths, values and references are views of
 * `bytes`, not copies. A child embedded in it (under 32 bytes encoded) is read too.
 */
function decodeNode(bytes: Uint8Array, offset: number): Loaded {
  const list = rlpItem(bytes, offset)
  if (!list.list) throw new Error('a trie node is an RLP list')
  const first = rlpItem(bytes, list.start)
  if (first.end === list.end) throw new Error('a trie node has 2 or 17 items, not 1')
  const second = rlpItem(bytes, first.end)
  if (second.end === list.end) {
    if (first.list) throw new Error("a trie node's path is a byte string")
    const { path, leaf } = fromHexPrefix(payload(bytes, first))
    if (leaf) {
      if (second.list) throw new Error("a trie leaf's value is a byte string")
      return { kind: 'leaf', path, value: payload(bytes, second) }
    }
    const child = childAt(bytes, second)
    if (!child) throw new Error('a trie extension has no child')
    return { kind: 'extension', path, child }
  }
  const children: (TrieNode | undefined)[] = new Array(16)
  children[0] = childAt(bytes, first)
  children[1] = childAt(bytes, second)
  let at = second.end
  for (let i = 2; i < 16; i++) {
    if (at >= list.end) throw new Error('a trie node has 2 or 17 items, fewer here')
    const item = rlpItem(bytes, at)
    children[i] = childAt(bytes, item)
    at = item.end
  }
  if (at >= list.end) throw new Error('a trie node has 2 or 17 items, not 16')
  const value = rlpItem(bytes, at)
  if (value.list || value.end !== list.end) throw new Error('a trie branch ends with its value, a byte string')
  return { kind: 'branch', children, value: value.end === value.start ? undefined : payload(bytes, value) }
}

function childAt(bytes: Uint8Array, item: RlpItem): TrieNode | undefined {
  if (item.list) return decodeNode(bytes, item.offset)
  const length = item.end - item.start
  if (length === 0) return undefined
  if (length !== 32) throw new Error(`a trie node's reference is 32 bytes or an embedded node, not ${length} bytes`)
  return { kind: 'stored', hash: payload(bytes, item) }
}

/** Encodes the changed nodes bottom-up, each once, and records those to write. */
class NodeEncoder {
  readonly written: [Uint8Array, Uint8Array][] = []

  constructor(private readonly hash: (bytes: Uint8Array) => Uint8Array) {}

  /** The root is always hashed and stored, even when its encoding is under 32 bytes. */
  root(node: TrieNode): Uint8Array {
    return this.write(rlpEncode(this.raw(node as Loaded)))
  }

  /** How a parent names `node`: by hash, or embedded when its encoding is under 32 bytes. */
  private reference(node: TrieNode): RlpValue {
    if (node.hash) return node.hash
    const raw = this.raw(node as Loaded)
    const encoded = rlpEncode(raw)
    return encoded.length < 32 ? raw : this.write(encoded)
  }

  private raw(node: Loaded): RlpValue {
    if (node.kind === 'leaf') return [hexPrefix(node.path, true), node.value]
    if (node.kind === 'extension') return [hexPrefix(node.path, false), this.reference(node.child)]
    const items: RlpValue[] = new Array(17)
    for (let i = 0; i < 16; i++) {
      const child = node.children[i]
      items[i] = child === undefined ? EMPTY : this.reference(child)
    }
    items[16] = node.value ?? EMPTY
    return items
  }

  private write(encoded: Uint8Array): Uint8Array {
    const key = this.hash(encoded)
    this.written.push([key, encoded])
    return key
  }
}
