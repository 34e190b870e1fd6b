/**
 * One transaction with its receipt: outcome, gas and fee, sender and recipient (or the contract
 * it created), its input, its logs, what it printed with console.log, ZKsync's details, and a
 * link to its call trace.
 */
import { transactionLines } from '../consoleLog/printed.ts'
import { consoleLogView } from '../consoleLog/view.ts'
import type { Session } from '../session.ts'
import { calldataView } from '../traces/calldata.ts'
import { failureReason } from '../traces/failureReason.ts'
import { h } from '../ui/dom.ts'
import { exactEther } from '../ui/format.ts'
import { explorerHref, explorerLink, traceHref } from '../ui/links.ts'
import { receipt as fetchReceipt, transactionDetails } from './chain.ts'
import { logList } from './logList.ts'
import { addressOrNone, count, facts, gasPrice, plural } from './present.ts'
import type { RpcReceipt, RpcTransaction, TransactionDetails } from './types.ts'

const TYPES: Record<string, string> = { '0x0': 'legacy (0)', '0x1': 'EIP-2930 (1)', '0x2': 'EIP-1559 (2)', '0x3': 'EIP-4844 (3)', '0x4': 'EIP-7702 (4)', '0x71': 'ZKsync EIP-712 (0x71)', '0xff': 'L1 priority (0xff)' }

export async function transactionView(session: Session, tx: RpcTransaction): Promise<HTMLElement> {
  const [receipt, details, printed] = await Promise.all([fetchReceipt(session, tx.hash), transactionDetails(session, tx.hash), transactionLines(session, tx.hash)])
  // A failed transaction's reason is not in its receipt: replayed (best effort; the trace panel says more).
  const reason = receipt?.status === '0x0' ? await failureReason(session, tx.hash).catch(() => undefined) : undefined
  const creation = tx.to === null
  return h(
    'article',
    { class: 'explorer-view', testid: 'transaction-view' },
    h('h3', {}, 'Transaction ', h('span', { class: 'hash' }, tx.hash)),
    h('p', { class: 'explorer-steps' }, receipt ? h('a', { href: traceHref(tx.hash), testid: 'trace-link' }, 'View its call trace') : h('span', { class: 'hint' }, 'Not mined yet: no trace.')),
    h('div', { class: 'card' }, facts([...outcomeFacts(receipt, reason), ...transactionFacts(tx, receipt, creation)], 'transaction-facts')),
    details ? h('section', { 'aria-label': 'ZKsync details' }, h('h4', {}, 'ZKsync details (zks_getTransactionDetails)'), h('div', { class: 'card' }, detailsFacts(details))) : undefined,
    // Kept by the node in memory only: after a reload, what it mined before shows none.
    printed.length > 0 ? h('section', { 'aria-label': 'console.log' }, h('h4', {}, 'console.log output'), h('div', { class: 'card' }, consoleLogView(printed, 'transaction-console-log'))) : undefined,
    receipt
      ? h('section', { 'aria-label': 'Logs' }, h('h4', {}, plural(receipt.logs.length, 'log')), logList(receipt.logs, { testid: 'transaction-logs' }))
      : undefined,
  )
}

function outcomeFacts(receipt: RpcReceipt | null, reason: string | undefined): [string, Node | string | undefined][] {
  if (receipt === null) return [['status', h('span', { testid: 'transaction-status', dataset: { status: 'pending' } }, 'pending (in the pool, not in a block)')]]
  const ok = receipt.status === '0x1'
  const block = BigInt(receipt.blockNumber)
  const batch = receipt.l1BatchNumber ? Number(BigInt(receipt.l1BatchNumber)) : undefined
  const fee = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice)
  return [
    ['status', h('span', { class: ok ? 'ok-text' : 'error', testid: 'transaction-status', dataset: { status: ok ? 'success' : 'failed' } }, ok ? 'success' : 'failed (reverted)')],
    ['revert reason', reason === undefined ? undefined : h('span', { class: 'error', testid: 'transaction-revert-reason' }, reason)],
    ['block', h('a', { href: explorerHref(block) }, `block ${block}`)],
    ['L1 batch', batch === undefined ? undefined : h('a', { href: explorerHref(`batch:${batch}`) }, `batch ${batch}`)],
    ['gas used', count(receipt.gasUsed)],
    ['gas price paid', gasPrice(receipt.effectiveGasPrice)],
    ['fee', `${exactEther(fee)} (${count(fee)} wei)`],
  ]
}

function transactionFacts(tx: RpcTransaction, receipt: RpcReceipt | null, creation: boolean): [string, Node | string | undefined][] {
  const created = receipt?.contractAddress ?? undefined
  return [
    ['from', explorerLink(tx.from, tx.from)],
    ['to', addressOrNone(tx.to, 'none: a contract creation')],
    ['contract created', creation && created ? h('span', {}, explorerLink(created, created), receipt?.status === '0x1' ? '' : ' (creation failed: no code there)') : undefined],
    ['value', `${exactEther(tx.value)} (${count(tx.value)} wei)`],
    ['nonce', String(BigInt(tx.nonce))],
    ['position', tx.transactionIndex === null ? undefined : `index ${BigInt(tx.transactionIndex)} in its block`],
    ['gas limit', count(tx.gas)],
    ['max fee per gas', tx.maxFeePerGas ? gasPrice(tx.maxFeePerGas) : undefined],
    ['type', TYPES[tx.type] ?? tx.type],
    ['input', calldataView(tx.input, { creation, testid: 'transaction-input', to: tx.to })],
  ]
}

function detailsFacts(details: TransactionDetails): HTMLElement {
  return facts(
    [
      ['status', details.status],
      ['initiator', explorerLink(details.initiatorAddress, details.initiatorAddress)],
      ['L1-originated', details.isL1Originated ? 'yes (a priority transaction)' : 'no'],
      ['fee', `${exactEther(details.fee)} (${count(details.fee)} wei)`],
      ['gas per pubdata byte', count(details.gasPerPubdata)],
      ['received at', details.receivedAt],
      ['L1 commit / prove / execute', [details.ethCommitTxHash, details.ethProveTxHash, details.ethExecuteTxHash].every((hash) => hash === null) ? 'none (a local node has no L1)' : [details.ethCommitTxHash, details.ethProveTxHash, details.ethExecuteTxHash].map((hash) => hash ?? '—').join(' / ')],
    ],
    'transaction-details',
  )
}
