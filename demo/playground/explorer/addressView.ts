/**
 * One address: balance, nonce, code (a contract or not), and the transactions that touch it. The
 * node has no address index, so those are found by scanning recent blocks, a window at a time;
 * the view says which blocks were scanned.
 */
import type { Hex, Session } from '../session.ts'
import { abiForm } from '../decoding/abiForm.ts'
import { h } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import { etherAmount } from '../ui/amount.ts'
import { exactEther } from '../ui/format.ts'
import { explorerHref, explorerLink } from '../ui/links.ts'
import { blocksDescending, headNumber, receipt } from './chain.ts'
import { count, facts } from './present.ts'
import type { RpcTransaction } from './types.ts'

/** Blocks scanned per step: a window of blocks fetched side by side. */
export const SCAN_WINDOW = 100n

interface Touch {
  tx: RpcTransaction
  role: 'from' | 'to' | 'created'
}

export async function addressView(session: Session, address: Hex): Promise<HTMLElement> {
  const [balance, nonce, code, head] = await Promise.all([
    session.request<Hex>('eth_getBalance', [address, 'latest']),
    session.request<Hex>('eth_getTransactionCount', [address, 'latest']),
    session.request<Hex>('eth_getCode', [address, 'latest']),
    headNumber(session),
  ])
  const codeSize = (code.length - 2) / 2
  const scanned = h('p', { class: 'hint', testid: 'scan-range', 'aria-live': 'polite' })
  const rows = h('tbody', {})
  const table = h(
    'table',
    { testid: 'address-transactions', hidden: true },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Transaction'), h('th', { scope: 'col' }, 'Block'), h('th', { scope: 'col' }, 'Role'), h('th', { scope: 'col' }, 'Counterparty'), h('th', { scope: 'col', class: 'num' }, 'Value'))),
    rows,
  )
  const more = h('button', { type: 'button', class: 'secondary', testid: 'scan-more' }, `Scan ${SCAN_WINDOW} blocks further back`)
  const problem = h('div', {})
  let next = head
  let found = 0

  async function scan(): Promise<void> {
    const to = next
    const from = to - SCAN_WINDOW + 1n > 0n ? to - SCAN_WINDOW + 1n : 0n
    more.disabled = true
    problem.replaceChildren()
    try {
      const touches = await touchesIn(session, address, to, from)
      rows.append(...touches.map(row))
      found += touches.length
      next = from - 1n
      scanned.textContent = `${found === 0 ? 'No transactions' : `${count(found)} transaction${found === 1 ? '' : 's'}`} in blocks ${next + 1n}–${head} (scanned newest first; the node keeps no index by address).`
      table.hidden = found === 0
      more.hidden = next < 0n
    } catch (error) {
      problem.replaceChildren(failureView(error))
    } finally {
      more.disabled = false
    }
  }
  more.addEventListener('click', () => void scan())
  scanned.textContent = `Scanning blocks ${from(head)}–${head}…`
  void scan()

  return h(
    'article',
    { class: 'explorer-view', testid: 'address-view' },
    h('h3', {}, codeSize > 0 ? 'Contract ' : 'Account ', h('span', { class: 'hash' }, address)),
    h(
      'div',
      { class: 'card' },
      facts(
        [
          ['balance', `${exactEther(balance)} (${count(balance)} wei)`],
          ['nonce', `${BigInt(nonce)} (transactions sent${codeSize > 0 ? ', or contracts created' : ''})`],
          ['kind', codeSize > 0 ? 'contract (has code)' : 'externally owned account, or no code yet'],
          ['code size', `${count(codeSize)} bytes`],
        ],
        'address-facts',
      ),
    ),
    abiForm(address),
    h('h4', {}, 'Recent transactions'),
    scanned,
    table,
    problem,
    h('p', {}, more),
  )
}

const from = (head: bigint): bigint => (head - SCAN_WINDOW + 1n > 0n ? head - SCAN_WINDOW + 1n : 0n)

async function touchesIn(session: Session, address: Hex, to: bigint, from: bigint): Promise<Touch[]> {
  const blocks = await blocksDescending(session, to, from)
  const touches: Touch[] = []
  for (const block of blocks) {
    for (const tx of [...block.transactions].reverse()) {
      if (tx.from.toLowerCase() === address) touches.push({ tx, role: 'from' })
      else if (tx.to?.toLowerCase() === address) touches.push({ tx, role: 'to' })
      else if (tx.to === null && (await receipt(session, tx.hash))?.contractAddress?.toLowerCase() === address) touches.push({ tx, role: 'created' })
    }
  }
  return touches
}

function row({ tx, role }: Touch): HTMLTableRowElement {
  const block = tx.blockNumber === null ? undefined : BigInt(tx.blockNumber)
  const counterparty = role === 'from' ? tx.to : tx.from
  return h(
    'tr',
    { testid: 'transaction-row' },
    h('td', {}, explorerLink(tx.hash)),
    h('td', {}, block === undefined ? 'pending' : h('a', { href: explorerHref(block) }, String(block))),
    h('td', {}, role === 'from' ? 'sent' : role === 'to' ? 'received' : 'created by'),
    h('td', {}, counterparty ? explorerLink(counterparty) : h('em', {}, 'contract creation')),
    h('td', { class: 'num' }, etherAmount(tx.value)),
  )
}
