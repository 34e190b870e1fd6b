import { concatBytes, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { BatchL2ToL1Log } from './l2ToL1Logs.ts'
import { l2ToL1LogLeaf } from './l2ToL1Logs.ts'
import { logsTreePath, logsTreeRoot } from './logsMerkleTree.ts'

/** `zks_getL2ToL1LogProof` / `zks_getL2ToL1MsgProof`: a log's path to its batch's root. */
export interface L2ToL1LogProof {
  proof: PrefixedHexString[]
  /** The log's position among its batch's L2→L1 logs (a JSON number). */
  id: number
  root: PrefixedHexString
}

/**
 * The root a batch commits its local logs root under since protocol v26: interop (the shared
 * message root) is not a thing on a chain without a settlement layer, so it is a fixed zero
 * value, as anvil-zksync uses for its batches. Any fixed value is internally consistent; no L1
 * checks these proofs.
 */
export const AGGREGATED_ROOT = new Uint8Array(32)

/**
 * The proof's first element in the protocol ≥ 26 format (era `get_l2_to_l1_log_proof_inner`):
 * version 0x01, 15 elements in the log's own path (14 siblings and the aggregated root), no
 * batch-to-chain path, and this batch is the final node (it settles on L1).
 */
const LOG_LEAF_PROOF_LENGTH = 15
const METADATA = (() => {
  const metadata = new Uint8Array(32)
  metadata.set([0x01, LOG_LEAF_PROOF_LENGTH, 0x00, 0x01])
  return metadata
})()

/** The root a batch's proofs lead to: keccak(local logs root ‖ aggregated root). */
export function batchLogsRoot(logs: readonly BatchL2ToL1Log[]): Uint8Array {
  return keccak_256(concatBytes(logsTreeRoot(logs.map(l2ToL1LogLeaf)), AGGREGATED_ROOT))
}

/** The proof for the `id`-th L2→L1 log of a batch whose logs are `logs`. */
export function l2ToL1LogProof(logs: readonly BatchL2ToL1Log[], id: number): L2ToL1LogProof {
  const { root: localRoot, path } = logsTreePath(logs.map(l2ToL1LogLeaf), id)
  return {
    proof: [METADATA, ...path, AGGREGATED_ROOT].map((node) => bytesToHex(node)),
    id,
    // The 15th path element sits right of the local root: id < 2^14, so bit 14 of the index is 0.
    root: bytesToHex(keccak_256(concatBytes(localRoot, AGGREGATED_ROOT))),
  }
}
