import { bigIntToHex, type PrefixedHexString } from '@ethereumjs/util'
import type { BlockRef } from '../../chain/chain.ts'
import type { BlockRecord, TransactionRecord } from '../../chain/records.ts'
import { InternalError, ServerError } from '../../errors.ts'
import type { Node } from '../../node.ts'
import { addressIndexOf, type Posting } from '../../trace/addressIndex.ts'
import { CallTreeView, FailureOutput, internalOperations, otsTraceEntries } from '../../trace/otterscan.ts'
import { traceTransaction } from '../../trace/replay.ts'
import type { Tracer } from '../../trace/tracer.ts'
import { formatBlock } from '../format/block.ts'
import { formatReceipt } from '../format/receipt.ts'
import { formatMinedTransaction } from '../format/transaction.ts'
import { method, type MethodTable } from '../method.ts'
import { address, blockRef, custom, hash, parseBlockRef, parseNumberish, quantity } from '../params.ts'

/** Re-executes a mined transaction under `tracer` (trace/replay.ts), within eth_call's time limit. */
function replayed(node: Node, tx: TransactionRecord, tracer: Tracer): Promise<unknown> {
  return traceTransaction(node, tx, tracer, node.config.limits.evmTimeoutMs)
}

/** Otterscan needs at least this level (its params.ts); anvil answers it too. */
const API_LEVEL = 8

/** A block as Otterscan's calls name it: a JSON number (what Otterscan sends), hex, or a tag. */
const otsBlock = (name: string) =>
  custom(name, (value): BlockRef => (typeof value === 'number' ? { kind: 'number', number: parseNumberish(value) } : parseBlockRef(value)))

/** A block number, page or page size: a JSON number, as Otterscan sends it (or hex). */
const count = (name: string) => custom(name, (value) => Number(parseNumberish(value)))

/** anvil's "block not found" for an unknown block (-32001, Resource not found). */
function blockOrNotFound(node: Node, ref: BlockRef): BlockRecord {
  const block = node.chain.find(ref)
  if (!block) throw new ServerError('block not found')
  return block
}

function minedOrUnavailable(node: Node, txHash: PrefixedHexString): TransactionRecord {
  const tx = node.chain.transaction(txHash)
  if (!tx) throw new ServerError(`transaction ${txHash} not found`)
  return tx
}

/** A receipt with its block's timestamp, as Otterscan's lists carry it. */
function receiptWithTimestamp(tx: TransactionRecord, block: BlockRecord) {
  return { ...formatReceipt(tx, block), timestamp: bigIntToHex(block.header.timestamp) }
}

/** ots_getBlockDetails: the block without its transactions, their count, its fees; no issuance on this chain. */
function blockDetails(block: BlockRecord) {
  const { transactions: _omitted, ...header } = formatBlock(block, false)
  const totalFees = block.transactions.reduce((sum, tx) => sum + tx.receipt.gasUsed * tx.receipt.effectiveGasPrice, 0n)
  return {
    block: { ...header, transactionCount: block.transactions.length },
    issuance: { blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' },
    totalFees: bigIntToHex(totalFees),
  }
}

/**
 * Whole blocks of postings, newest first, until there are `pageSize` transactions (a block is
 * never split, as anvil pages); `more` says whether postings are left beyond the page.
 */
function pageOf(postings: readonly Posting[], pageSize: number): { page: Posting[]; more: boolean } {
  const page: Posting[] = []
  let i = 0
  while (i < postings.length && page.length < pageSize) {
    const block = postings[i].block
    while (i < postings.length && postings[i].block === block) page.push(postings[i++])
  }
  return { page, more: i < postings.length }
}

function searchResult(node: Node, page: readonly Posting[], firstPage: boolean, lastPage: boolean) {
  const txs: unknown[] = []
  const receipts: unknown[] = []
  for (const { block: number, index } of page) {
    const block = node.chain.byNumber(number)
    const tx = block?.transactions[index]
    if (!block || !tx) throw new InternalError(`the address index names transaction ${index} of block ${number}, which the chain does not hold`)
    txs.push(formatMinedTransaction(tx, block))
    receipts.push(receiptWithTimestamp(tx, block))
  }
  return { txs, receipts, firstPage, lastPage }
}

/**
 * Otterscan's ots_ methods (API level 8) in anvil's shapes, so Otterscan can browse the chain;
 * erigon_getHeaderByNumber, which Otterscan calls too. Traces are replays (trace/replay.ts);
 * the searches read the address index (trace/addressIndex.ts). Loaded on the first call of one
 * of them (onDemand.ts): a page that never serves Otterscan never downloads them.
 */
export const otsMethods = {
  ots_getApiLevel: method([], () => API_LEVEL),

  erigon_getHeaderByNumber: method([otsBlock('block')], (node, [ref]) => {
    const block = node.chain.find(ref)
    return block ? formatBlock(block, false) : null
  }),

  ots_hasCode: method([address('address'), blockRef('block')], async (node, [who, ref]) => {
    const account = await node.account(who, node.block(ref))
    return account?.isContract() ?? false
  }),

  ots_getInternalOperations: method([hash('transactionHash')], (node, [txHash]) => {
    const tx = minedOrUnavailable(node, txHash)
    return replayed(node, tx, new CallTreeView(internalOperations))
  }),

  // anvil: [] for an unknown transaction.
  ots_traceTransaction: method([hash('transactionHash')], (node, [txHash]) => {
    const tx = node.chain.transaction(txHash)
    if (!tx) return []
    return replayed(node, tx, new CallTreeView(otsTraceEntries))
  }),

  // The revert data of a failed transaction (re-executed: receipts do not keep it); "0x" otherwise.
  ots_getTransactionError: method([hash('transactionHash')], (node, [txHash]) => {
    const tx = node.chain.transaction(txHash)
    if (!tx || tx.receipt.status === 1) return '0x'
    return replayed(node, tx, new FailureOutput())
  }),

  ots_getBlockDetails: method([otsBlock('block')], (node, [ref]) => blockDetails(blockOrNotFound(node, ref))),

  ots_getBlockDetailsByHash: method([hash('blockHash')], (node, [blockHash]) =>
    blockDetails(blockOrNotFound(node, { kind: 'hash', hash: blockHash, requireCanonical: false })),
  ),

  // One page of the block's transactions with their receipts. transactionCount is the block's
  // (anvil counts the page's), which Otterscan pages by.
  ots_getBlockTransactions: method([otsBlock('block'), count('page'), count('pageSize')], (node, [ref, page, pageSize]) => {
    const block = blockOrNotFound(node, ref)
    const slice = block.transactions.slice(page * pageSize, (page + 1) * pageSize)
    const full = formatBlock(block, true)
    return {
      fullblock: { ...full, transactions: slice.map((tx) => formatMinedTransaction(tx, block)), transactionCount: block.transactions.length },
      receipts: slice.map((tx) => receiptWithTimestamp(tx, block)),
    }
  }),

  // Transactions of `address` in blocks before `block` (0: from the head), newest first.
  ots_searchTransactionsBefore: method([address('address'), count('block'), count('pageSize')], async (node, [who, before, pageSize]) => {
    const postings = await (await addressIndexOf(node)).of(who)
    const older = postings.filter((posting) => before === 0 || posting.block < BigInt(before)).reverse()
    const { page, more } = pageOf(older, pageSize)
    return searchResult(node, page, before === 0 || BigInt(before) > node.chain.head.number, !more)
  }),

  // Transactions of `address` in blocks after `block` (0: from the start), newest first.
  ots_searchTransactionsAfter: method([address('address'), count('block'), count('pageSize')], async (node, [who, after, pageSize]) => {
    const postings = await (await addressIndexOf(node)).of(who)
    const newer = postings.filter((posting) => posting.block > BigInt(after))
    const { page, more } = pageOf(newer, pageSize)
    return searchResult(node, page.reverse(), !more, after === 0)
  }),

  ots_getTransactionBySenderAndNonce: method([address('sender'), quantity('nonce')], (node, [sender, nonce]) =>
    node.chain.transactionBySenderAndNonce(sender, nonce)?.hash ?? null,
  ),

  ots_getContractCreator: method([address('address')], async (node, [who]) => (await (await addressIndexOf(node)).creatorOf(who)) ?? null),
} satisfies MethodTable
