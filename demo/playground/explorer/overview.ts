/**
 * The explorer's front page: the latest blocks, L1 batches and transactions, rebuilt on every
 * new head while it is on screen.
 */
import type { Session } from '../session.ts'
import { h } from '../ui/dom.ts'
import { etherAmount } from '../ui/amount.ts'
import { dateTime, shortHash } from '../ui/format.ts'
import { explorerHref, explorerLink } from '../ui/links.ts'
import { batchBlockRange, batchDetails, blocksDescending, headNumber, latestBatchNumber } from './chain.ts'
import { age, count } from './present.ts'
import type { FullBlock, RpcTransaction } from './types.ts'

const BLOCKS_SHOWN = 10
const BATCHES_SHOWN = 5
const TRANSACTIONS_SHOWN = 10

export async function overviewView(session: Session): Promise<HTMLElement> {
  const head = await headNumber(session)
  const [blocks, batches] = await Promise.all([blocksDescending(session, head, head - BigInt(BLOCKS_SHOWN - 1)), latestBatches(session)])
  const transactions = blocks.flatMap((block) => [...block.transactions].reverse()).slice(0, TRANSACTIONS_SHOWN)
  return h(
    'div',
    { class: 'explorer-overview' },
    h('section', { class: 'card', 'aria-labelledby': 'explorer-latest-blocks' }, h('h3', { id: 'explorer-latest-blocks' }, 'Latest blocks'), blockTable(blocks)),
    h(
      'div',
      { class: 'explorer-columns' },
      h('section', { class: 'card', 'aria-labelledby': 'explorer-latest-transactions' }, h('h3', { id: 'explorer-latest-transactions' }, 'Latest transactions'), transactionTable(transactions, blocks.length)),
      h('section', { class: 'card', 'aria-labelledby': 'explorer-latest-batches' }, h('h3', { id: 'explorer-latest-batches' }, 'Latest L1 batches'), batchTable(batches)),
    ),
  )
}

function blockTable(blocks: FullBlock[]): HTMLElement {
  return h(
    'table',
    { testid: 'latest-blocks' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Block'), h('th', { scope: 'col' }, 'Hash'), h('th', { scope: 'col' }, 'Time'), h('th', { scope: 'col', class: 'num' }, 'Txs'), h('th', { scope: 'col', class: 'num wide-only' }, 'Gas used'), h('th', { scope: 'col' }, 'L1 batch'))),
    h(
      'tbody',
      {},
      blocks.map((block) => {
        const number = BigInt(block.number)
        const batch = block.l1BatchNumber ? Number(BigInt(block.l1BatchNumber)) : undefined
        return h(
          'tr',
          { testid: 'block-row', dataset: { number: String(number) } },
          h('td', {}, h('a', { href: explorerHref(number), testid: 'block-link' }, String(number))),
          h('td', {}, explorerLink(block.hash)),
          h('td', { title: dateTime(block.timestamp) }, age(BigInt(block.timestamp))),
          h('td', { class: 'num' }, block.transactions.length),
          h('td', { class: 'num wide-only' }, count(block.gasUsed)),
          h('td', {}, batch === undefined ? '—' : h('a', { href: explorerHref(`batch:${batch}`) }, String(batch))),
        )
      }),
    ),
  )
}

function transactionTable(transactions: RpcTransaction[], blocksScanned: number): HTMLElement {
  if (transactions.length === 0) return h('p', { class: 'hint', testid: 'latest-transactions' }, `No transactions in the last ${blocksScanned} blocks.`)
  return h(
    'table',
    { testid: 'latest-transactions' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Hash'), h('th', { scope: 'col' }, 'Block'), h('th', { scope: 'col' }, 'From → to'), h('th', { scope: 'col', class: 'num' }, 'Value'))),
    h(
      'tbody',
      {},
      transactions.map((tx) =>
        h(
          'tr',
          { testid: 'transaction-row' },
          h('td', {}, explorerLink(tx.hash)),
          h('td', {}, tx.blockNumber ? h('a', { href: explorerHref(BigInt(tx.blockNumber)) }, String(BigInt(tx.blockNumber))) : 'pending'),
          h('td', {}, explorerLink(tx.from, shortHash(tx.from, 4)), ' → ', tx.to ? explorerLink(tx.to, shortHash(tx.to, 4)) : h('em', {}, 'contract creation')),
          h('td', { class: 'num' }, etherAmount(tx.value)),
        ),
      ),
    ),
  )
}

interface BatchRow {
  number: number
  status: string
  timestamp: number
  transactions: number
  range: [bigint, bigint] | null
}

async function latestBatches(session: Session): Promise<BatchRow[]> {
  const latest = await latestBatchNumber(session)
  const numbers = Array.from({ length: Math.min(BATCHES_SHOWN, latest + 1) }, (_, i) => latest - i)
  const rows = await Promise.all(
    numbers.map(async (number) => {
      const [details, range] = await Promise.all([batchDetails(session, number), batchBlockRange(session, number)])
      return details === null ? undefined : { number, status: details.status, timestamp: details.timestamp, transactions: details.l1TxCount + details.l2TxCount, range }
    }),
  )
  return rows.filter((row): row is BatchRow => row !== undefined)
}

function batchTable(batches: BatchRow[]): HTMLElement {
  return h(
    'table',
    { testid: 'latest-batches' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Batch'), h('th', { scope: 'col' }, 'Blocks'), h('th', { scope: 'col', class: 'num' }, 'Txs'), h('th', { scope: 'col' }, 'Status'), h('th', { scope: 'col' }, 'Time'))),
    h(
      'tbody',
      {},
      batches.map((batch) =>
        h(
          'tr',
          { testid: 'batch-row' },
          h('td', {}, h('a', { href: explorerHref(`batch:${batch.number}`) }, String(batch.number))),
          h('td', {}, batch.range === null ? '—' : batch.range[0] === batch.range[1] ? String(batch.range[0]) : `${batch.range[0]}–${batch.range[1]}`),
          h('td', { class: 'num' }, batch.transactions),
          h('td', {}, batch.status),
          h('td', { title: dateTime(BigInt(batch.timestamp)) }, age(BigInt(batch.timestamp))),
        ),
      ),
    ),
  )
}
