/**
 * Checking an L2→L1 log proof in the page, with nothing from the node but its answers: the leaf is
 * rebuilt from the receipt's log, walked up the proof's Merkle path to a root, and that root is
 * compared with the one the node claims (docs/zksync.md, "L2→L1 messages and proofs"). Pure
 * functions over hex, so the panel can show every intermediate value.
 */
import { concat, keccak256, numberToHex, type Hex } from 'viem'

/** A receipt's `l2ToL1Logs` entry: the fields the leaf commits to (hex quantities as sent). */
export interface ReceiptL2ToL1Log {
  shardId: Hex
  isService: boolean
  txIndexInL1Batch: Hex | null
  sender: Hex
  key: Hex
  value: Hex
}

/** Leaves of a batch's log tree (2^14 since protocol v23). */
export const LOGS_TREE_DEPTH = 14

/** An unused leaf: the hash of 88 zero bytes (era's L2_L1_LOGS_TREE_DEFAULT_LEAF_HASH). */
export const EMPTY_LEAF: Hex = keccak256(new Uint8Array(88))

const hashPair = (left: Hex, right: Hex): Hex => keccak256(concat([left, right]))

/**
 * The 88 bytes a log commits to: shard (1), isService (1), the transaction's index in its batch
 * (u16, big-endian), sender (20), key (32), value (32).
 */
export function serializeLog(log: ReceiptL2ToL1Log): Hex {
  if (log.txIndexInL1Batch === null) throw new Error('the log has no index in a batch yet (its batch is open)')
  return concat([
    numberToHex(BigInt(log.shardId), { size: 1 }),
    log.isService ? '0x01' : '0x00',
    numberToHex(BigInt(log.txIndexInL1Batch), { size: 2 }),
    log.sender,
    log.key,
    log.value,
  ])
}

export const leafHash = (log: ReceiptL2ToL1Log): Hex => keccak256(serializeLog(log))

/** What the first proof element says, when it is the protocol ≥ 26 metadata word. */
export interface ProofLayout {
  /** 'metadata': proof[0] describes the rest; 'plain': the whole array is the log's path (before v26). */
  format: 'metadata' | 'plain'
  version?: number
  /** The log's path to the batch root: 14 siblings, plus the aggregated root in the metadata format. */
  logPath: Hex[]
  /** Elements after the log path that lead a Gateway-settled batch to its chain root. */
  batchPath: Hex[]
  /** The batch settles on L1 itself (nothing above it to prove). */
  final: boolean
}

/**
 * Splits a proof as L1's MessageHashing.parseProofMetadata does: if the low 28 bytes of proof[0]
 * are zero it is the metadata word (version, log path length, batch path length, final flag).
 */
export function proofLayout(proof: readonly Hex[]): ProofLayout {
  const first = proof[0]
  if (first !== undefined && /^0x[0-9a-f]{8}0{56}$/i.test(first)) {
    const byte = (i: number) => parseInt(first.slice(2 + i * 2, 4 + i * 2), 16)
    const logLength = byte(1)
    const batchLength = byte(2)
    return {
      format: 'metadata',
      version: byte(0),
      logPath: proof.slice(1, 1 + logLength),
      batchPath: proof.slice(1 + logLength, 1 + logLength + batchLength),
      final: byte(3) === 1,
    }
  }
  return { format: 'plain', logPath: [...proof], batchPath: [], final: true }
}

/** One step up the tree: the node so far sits left or right of the sibling. */
export interface PathStep {
  sibling: Hex
  /** Where the node so far sits: left means hash(node ‖ sibling). */
  side: 'left' | 'right'
  result: Hex
}

/** L1's Merkle.calculateRoot: from the leaf, hash with each sibling in turn by the index's bits. */
export function walkPath(leaf: Hex, path: readonly Hex[], index: number): { root: Hex; steps: PathStep[] } {
  let node = leaf
  let position = index
  const steps: PathStep[] = []
  for (const sibling of path) {
    const side = position % 2 === 0 ? 'left' : 'right'
    node = side === 'left' ? hashPair(node, sibling) : hashPair(sibling, node)
    steps.push({ sibling, side, result: node })
    position = Math.floor(position / 2)
  }
  return { root: node, steps }
}

/** The root of a batch's log tree over all its leaves, unused leaves empty (era's MiniMerkleTree). */
export function logsTreeRoot(leaves: readonly Hex[]): Hex {
  if (leaves.length > 2 ** LOGS_TREE_DEPTH) throw new RangeError(`a batch holds at most ${2 ** LOGS_TREE_DEPTH} L2→L1 logs`)
  let level = [...leaves]
  let empty = EMPTY_LEAF
  for (let depth = 0; depth < LOGS_TREE_DEPTH; depth++) {
    const next: Hex[] = []
    for (let i = 0; i < level.length; i += 2) next.push(hashPair(level[i], level[i + 1] ?? empty))
    level = next
    empty = hashPair(empty, empty)
  }
  return level[0] ?? empty
}

/**
 * The batch root from every log of the batch: the local tree root, and in the metadata format
 * (15-element log path) hashed with the aggregated root the proof carries last, as L1 does.
 */
export function batchRootFromLeaves(leaves: readonly Hex[], layout: ProofLayout): Hex {
  const local = logsTreeRoot(leaves)
  const aggregated = layout.logPath.length > LOGS_TREE_DEPTH ? layout.logPath[LOGS_TREE_DEPTH] : undefined
  return aggregated === undefined ? local : hashPair(local, aggregated)
}

export const sameHash = (a: Hex, b: Hex): boolean => a.toLowerCase() === b.toLowerCase()
