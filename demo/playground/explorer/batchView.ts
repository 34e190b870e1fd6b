/** One L1 batch: ZKsync's details (status, L1 transactions, gas prices) and its L2 blocks. */
import type { Session } from '../session.ts'
import { h } from '../ui/dom.ts'
import { dateTime } from '../ui/format.ts'
import { explorerHref } from '../ui/links.ts'
import { batchBlockRange, batchDetails, latestBatchNumber } from './chain.ts'
import { count, facts, gasPrice } from './present.ts'

/** More blocks than this in one batch are shown as first/last links, not one link each. */
const BLOCK_LINKS_SHOWN = 50

export async function batchView(session: Session, number: number): Promise<HTMLElement> {
  const [details, range, latest] = await Promise.all([batchDetails(session, number), batchBlockRange(session, number), latestBatchNumber(session)])
  if (details === null) {
    return h('p', { class: 'error', role: 'alert', testid: 'not-found' }, `No L1 batch ${number}: the latest sealed batch is ${latest}.`)
  }
  const l1Step = (label: string, hash: string | null, at: string | null) => [label, hash === null ? 'not on L1 (a local node has no L1)' : `${hash}${at ? ` at ${at}` : ''}`] as [string, string]
  return h(
    'article',
    { class: 'explorer-view', testid: 'batch-view', dataset: { number: String(number) } },
    h('h3', {}, `L1 batch ${number}`),
    h(
      'nav',
      { class: 'explorer-steps', 'aria-label': 'Neighbouring batches' },
      number > 0 ? h('a', { href: explorerHref(`batch:${number - 1}`), rel: 'prev' }, `← batch ${number - 1}`) : undefined,
      number < latest ? h('a', { href: explorerHref(`batch:${number + 1}`), rel: 'next' }, `batch ${number + 1} →`) : h('span', { class: 'hint' }, 'the latest sealed batch'),
    ),
    h(
      'div',
      { class: 'card' },
      facts(
        [
          ['number', String(details.number)],
          ['status', details.status],
          ['time', `${dateTime(BigInt(details.timestamp))} (unix ${details.timestamp})`],
          ['blocks', range === null ? 'unknown' : range[0] === range[1] ? `block ${range[0]}` : `blocks ${range[0]}–${range[1]} (${count(range[1] - range[0] + 1n)})`],
          ['L2 transactions', String(details.l2TxCount)],
          ['L1 transactions', String(details.l1TxCount)],
          ['root hash', details.rootHash ?? 'none'],
          ['L1 gas price', gasPrice(BigInt(details.l1GasPrice))],
          ['L2 fair gas price', gasPrice(BigInt(details.l2FairGasPrice))],
          ['fair pubdata price', details.fairPubdataPrice === undefined ? undefined : gasPrice(BigInt(details.fairPubdataPrice))],
          l1Step('commit', details.commitTxHash, details.committedAt),
          l1Step('prove', details.proveTxHash, details.provenAt),
          l1Step('execute', details.executeTxHash, details.executedAt),
        ],
        'batch-facts',
      ),
    ),
    h('h4', {}, 'Its blocks'),
    range === null ? h('p', { class: 'hint' }, 'The node reports no block range for this batch.') : blockLinks(range),
  )
}

function blockLinks([first, last]: [bigint, bigint]): HTMLElement {
  const size = last - first + 1n
  const numbers = size <= BigInt(BLOCK_LINKS_SHOWN) ? Array.from({ length: Number(size) }, (_, i) => first + BigInt(i)) : [first, last]
  return h(
    'p',
    { class: 'block-links', testid: 'batch-blocks' },
    numbers.flatMap((n, i) => [i > 0 ? (size > BigInt(BLOCK_LINKS_SHOWN) ? ' … ' : ' ') : undefined, h('a', { href: explorerHref(n) }, `block ${n}`)]),
  )
}
