/**
 * An address's transactions, a page at a time, from the node's address index (Otterscan's
 * `ots_searchTransactionsBefore`/`After`, docs/methods.md): those it sent, received or created,
 * and those that reached it anywhere in their call tree. Pages hold whole blocks, newest first;
 * Older asks for the blocks before the page's oldest, Newer for those after its newest.
 */
import type { Hex, Session } from '../session.ts'
import { etherAmount } from '../ui/amount.ts'
import { h } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import { explorerHref, explorerLink } from '../ui/links.ts'
import { count } from './present.ts'
import type { RpcReceipt, RpcTransaction } from './types.ts'

/** Transactions asked for per page (a page ends at a block's end, so it may hold a few more). */
export const PAGE_SIZE = 25

interface SearchPage {
  txs: RpcTransaction[]
  receipts: RpcReceipt[]
  /** Nothing newer is left. */
  firstPage: boolean
  /** Nothing older is left. */
  lastPage: boolean
}

type Role = 'sent' | 'received' | 'created' | 'in its calls'

export function addressHistory(session: Session, address: Hex): HTMLElement {
  const summary = h('p', { class: 'hint', testid: 'history-range', 'aria-live': 'polite' }, 'Reading the address index…')
  const rows = h('tbody', {})
  const table = h(
    'table',
    { testid: 'address-transactions', hidden: true },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Transaction'), h('th', { scope: 'col' }, 'Block'), h('th', { scope: 'col' }, 'Role'), h('th', { scope: 'col' }, 'Counterparty'), h('th', { scope: 'col', class: 'num' }, 'Value'))),
    rows,
  )
  // aria-disabled rather than disabled: the button keeps the focus on the first or last page.
  const button = (label: string, testid: string, go: () => void) => {
    const element = h('button', { type: 'button', class: 'secondary', testid }, label)
    element.addEventListener('click', () => {
      if (element.getAttribute('aria-disabled') !== 'true') go()
    })
    return element
  }
  const newest = button('Newest', 'history-newest', () => void load('ots_searchTransactionsBefore', 0n, 1))
  const newer = button('← Newer', 'history-newer', () => void load('ots_searchTransactionsAfter', shown!.newestBlock, page - 1))
  const older = button('Older →', 'history-older', () => void load('ots_searchTransactionsBefore', shown!.oldestBlock, page + 1))
  const problem = h('div', {})
  let page = 1
  let shown: { newestBlock: bigint; oldestBlock: bigint } | undefined
  let loading = false

  const enable = (element: HTMLButtonElement, enabled: boolean) => element.setAttribute('aria-disabled', String(!enabled))

  async function load(method: 'ots_searchTransactionsBefore' | 'ots_searchTransactionsAfter', block: bigint, pageNumber: number): Promise<void> {
    if (loading) return
    loading = true
    problem.replaceChildren()
    try {
      const result = await session.request<SearchPage>(method, [address, Number(block), PAGE_SIZE])
      const created = new Map(result.receipts.map((receipt) => [receipt.transactionHash, receipt.contractAddress?.toLowerCase()]))
      rows.replaceChildren(...result.txs.map((tx) => row(tx, role(tx, address, created.get(tx.hash)))))
      table.hidden = result.txs.length === 0
      const blocks = result.txs.map((tx) => BigInt(tx.blockNumber ?? 0))
      page = result.firstPage ? 1 : pageNumber
      if (blocks.length === 0) {
        shown = undefined
        summary.textContent = 'No transactions with this address (the node indexes every mined block).'
      } else {
        shown = { newestBlock: blocks[0], oldestBlock: blocks[blocks.length - 1] }
        const range = shown.newestBlock === shown.oldestBlock ? `block ${shown.oldestBlock}` : `blocks ${shown.newestBlock}–${shown.oldestBlock}`
        summary.textContent = `Page ${page}: ${count(blocks.length)} transaction${blocks.length === 1 ? '' : 's'} in ${range}, newest first${result.lastPage ? '; nothing older' : ''}.`
      }
      enable(newest, shown !== undefined && !result.firstPage)
      enable(newer, shown !== undefined && !result.firstPage)
      enable(older, shown !== undefined && !result.lastPage)
    } catch (error) {
      problem.replaceChildren(failureView(error))
    } finally {
      loading = false
    }
  }
  void load('ots_searchTransactionsBefore', 0n, 1)

  return h('section', { 'aria-label': 'Transactions', testid: 'address-history' }, h('h4', {}, 'Transactions'), summary, table, problem, h('p', { class: 'row' }, newest, newer, older))
}

function role(tx: RpcTransaction, address: Hex, created: string | undefined): Role {
  if (tx.from.toLowerCase() === address) return 'sent'
  if (tx.to?.toLowerCase() === address) return 'received'
  if (created === address) return 'created'
  return 'in its calls'
}

function row(tx: RpcTransaction, role: Role): HTMLTableRowElement {
  const block = tx.blockNumber === null ? undefined : BigInt(tx.blockNumber)
  const counterparty = role === 'sent' ? tx.to : tx.from
  return h(
    'tr',
    { testid: 'transaction-row', dataset: { role } },
    h('td', {}, explorerLink(tx.hash)),
    h('td', {}, block === undefined ? 'pending' : h('a', { href: explorerHref(block) }, String(block))),
    h('td', {}, role === 'created' ? 'created by' : role),
    h('td', {}, counterparty ? explorerLink(counterparty) : h('em', {}, 'contract creation')),
    h('td', { class: 'num' }, etherAmount(tx.value)),
  )
}
