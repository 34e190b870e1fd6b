import { setLengthLeft, hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import type { Chain } from '../chain/chain.ts'
import { batchL2ToL1Logs } from './l2ToL1Logs.ts'
import { l2ToL1LogProof, type L2ToL1LogProof } from './logProof.ts'

/**
 * zks_getL2ToL1LogProof: the `index`-th L2→L1 log of a transaction (counting its own logs),
 * proven against its batch. null while the transaction is unknown, its batch open (era answers
 * nothing before the batch executes on L1), or it has no such log.
 */
export function proofForTransactionLog(chain: Chain, txHash: PrefixedHexString, index: number): L2ToL1LogProof | null {
  const tx = chain.transaction(txHash)
  if (!tx) return null
  const block = chain.byNumber(tx.blockNumber)!
  // Sealed as readers see it: once the block that seals the batch is stored.
  const batch = chain.sealedBatch(block.l1BatchNumber)
  if (!batch) return null
  const logs = batchL2ToL1Logs(chain.batchBlocks(batch))
  const ids = logs.flatMap((entry, id) => (entry.tx === tx ? [id] : []))
  return index < ids.length ? l2ToL1LogProof(logs, ids[index]) : null
}

/**
 * zks_getL2ToL1MsgProof (era before May 2025): the log of a message `sender` sent in the batch of
 * `blockNumber` with keccak256(message) = `messageHash`. Among identical messages,
 * `eventLogIndex` picks one by the block-level logIndex of its L1MessageSent event in that block
 * (era's l2_log_position); without it, the first.
 */
export function proofForMessage(
  chain: Chain,
  blockNumber: bigint,
  sender: PrefixedHexString,
  messageHash: PrefixedHexString,
  eventLogIndex: number | undefined,
): L2ToL1LogProof | null {
  const block = chain.byNumber(blockNumber)
  if (!block) return null
  // Sealed as readers see it: once the block that seals the batch is stored.
  const batch = chain.sealedBatch(block.l1BatchNumber)
  if (!batch) return null
  const key = bytesToHex(setLengthLeft(hexToBytes(sender), 32))
  const logs = batchL2ToL1Logs(chain.batchBlocks(batch))
  const matching = logs.flatMap((entry, id) => (entry.log.key === key && entry.log.value === messageHash ? [{ entry, id }] : []))
  let position = 0
  if (eventLogIndex !== undefined) {
    // Era counts the identical messages of the batch up to this block to find the one named.
    position = matching.findIndex(({ entry }) => entry.block.number === blockNumber && entry.log.event.logIndex === eventLogIndex)
    if (position < 0) return null
  }
  return position < matching.length ? l2ToL1LogProof(logs, matching[position].id) : null
}
