/**
 * Where a message stands, read from the node over JSON-RPC only: sent but not mined, mined in a
 * batch that is still open (no proof exists before the batch seals), or sealed, with the proof of
 * each of its L2→L1 logs and every log of its batch (to rebuild the batch root independently).
 */
import type { Hex } from 'viem'
import { decodeMessageSent, type RpcLog, type SentMessage } from './messenger.ts'
import type { ReceiptL2ToL1Log } from './proof.ts'

export type Request = <T>(method: string, params?: unknown[]) => Promise<T>

export interface ReceiptLog extends ReceiptL2ToL1Log {
  logIndex: Hex
  transactionLogIndex: Hex
  l1BatchNumber: Hex | null
}

export interface Receipt {
  transactionHash: Hex
  blockNumber: Hex
  blockHash: Hex
  from: Hex
  status: Hex
  l1BatchNumber: Hex | null
  l1BatchTxIndex: Hex | null
  logs: RpcLog[]
  l2ToL1Logs: ReceiptLog[]
}

export interface LogProof {
  proof: Hex[]
  id: number
  root: Hex
}

export interface BatchDetails {
  number: number
  status: string
  rootHash: Hex
  l2TxCount: number
  timestamp: number
}

/** One L2→L1 log of the transaction with its proof (null: the node has none for it). */
export interface ProvenLog {
  index: number
  log: ReceiptLog
  proof: LogProof | null
}

export type MessageState =
  | { stage: 'unknown'; hash: Hex }
  | { stage: 'pending'; hash: Hex; from: Hex }
  | { stage: 'mined'; hash: Hex; receipt: Receipt; messages: SentMessage[]; batch: number; sealed: false }
  | {
      stage: 'mined'
      hash: Hex
      receipt: Receipt
      messages: SentMessage[]
      batch: number
      sealed: true
      details: BatchDetails
      blocks: [bigint, bigint]
      proofs: ProvenLog[]
      /** Every L2→L1 log of the batch, in tree order (block by block, transaction by transaction). */
      batchLogs: ReceiptL2ToL1Log[]
    }

export async function messageState(request: Request, hash: Hex): Promise<MessageState> {
  const receipt = await request<Receipt | null>('eth_getTransactionReceipt', [hash])
  if (!receipt) {
    const tx = await request<{ from: Hex } | null>('eth_getTransactionByHash', [hash])
    return tx ? { stage: 'pending', hash, from: tx.from } : { stage: 'unknown', hash }
  }
  const messages = receipt.logs.map(decodeMessageSent).filter((m): m is SentMessage => m !== undefined)
  // A receipt names its batch only once the batch is sealed; the block always knows it.
  const sealedBatch = receipt.l1BatchNumber === null ? undefined : Number(BigInt(receipt.l1BatchNumber))
  if (sealedBatch === undefined) {
    const block = await request<{ l1BatchNumber: number } | null>('zks_getBlockDetails', [Number(BigInt(receipt.blockNumber))])
    return { stage: 'mined', hash, receipt, messages, batch: block?.l1BatchNumber ?? NaN, sealed: false }
  }
  const [details, range, proofs] = await Promise.all([
    request<BatchDetails | null>('zks_getL1BatchDetails', [sealedBatch]),
    request<[Hex, Hex] | null>('zks_getL1BatchBlockRange', [sealedBatch]),
    Promise.all(
      receipt.l2ToL1Logs.map(async (log, index) => ({ index, log, proof: await request<LogProof | null>('zks_getL2ToL1LogProof', [hash, index]) })),
    ),
  ])
  if (!details || !range) return { stage: 'mined', hash, receipt, messages, batch: sealedBatch, sealed: false }
  const blocks: [bigint, bigint] = [BigInt(range[0]), BigInt(range[1])]
  return { stage: 'mined', hash, receipt, messages, batch: sealedBatch, sealed: true, details, blocks, proofs, batchLogs: await batchLogs(request, blocks) }
}

/** The batch's L2→L1 logs from its blocks' receipts, in the order its tree holds them. */
async function batchLogs(request: Request, [first, last]: [bigint, bigint]): Promise<ReceiptL2ToL1Log[]> {
  const numbers: bigint[] = []
  for (let n = first; n <= last; n++) numbers.push(n)
  const receipts = await Promise.all(numbers.map((n) => request<Receipt[] | null>('eth_getBlockReceipts', [`0x${n.toString(16)}`])))
  return receipts.flatMap((list) => (list ?? []).flatMap((r) => r.l2ToL1Logs))
}

/** A message found in the messenger's logs. */
export interface PastMessage extends SentMessage {
  transactionHash: Hex
  blockNumber: bigint
}

/** eth_getLogs answers at most this many blocks per query (the node's maxLogBlockRange). */
export const LOG_RANGE = 10_000n

/** L1MessageSent events of the last LOG_RANGE blocks, newest first. */
export async function pastMessages(request: Request, head: bigint, topic: Hex, messenger: Hex): Promise<PastMessage[]> {
  const from = head >= LOG_RANGE ? head - LOG_RANGE + 1n : 0n
  const logs = await request<RpcLog[]>('eth_getLogs', [{ address: messenger, topics: [topic], fromBlock: `0x${from.toString(16)}`, toBlock: `0x${head.toString(16)}` }])
  return logs
    .flatMap((log) => {
      const sent = decodeMessageSent(log)
      return sent ? [{ ...sent, transactionHash: log.transactionHash, blockNumber: BigInt(log.blockNumber) }] : []
    })
    .reverse()
}
