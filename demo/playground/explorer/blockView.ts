/** One block: its header facts, neighbours, and its transactions. */
import type { Session } from '../session.ts'
import { h } from '../ui/dom.ts'
import { etherAmount } from '../ui/amount.ts'
import { dateTime } from '../ui/format.ts'
import { explorerHref, explorerLink } from '../ui/links.ts'
import { headNumber } from './chain.ts'
import { count, facts, gasPrice, plural } from './present.ts'
import type { FullBlock } from './types.ts'

export async function blockView(session: Session, block: FullBlock): Promise<HTMLElement> {
  const number = BigInt(block.number)
  const head = await headNumber(session)
  const batch = block.l1BatchNumber ? Number(BigInt(block.l1BatchNumber)) : undefined
  return h(
    'article',
    { class: 'explorer-view', testid: 'block-view', dataset: { number: String(number) } },
    h('h3', {}, `Block ${number}`),
    h(
      'nav',
      { class: 'explorer-steps', 'aria-label': 'Neighbouring blocks' },
      number > 0n ? h('a', { href: explorerHref(number - 1n), rel: 'prev' }, `← block ${number - 1n}`) : undefined,
      number < head ? h('a', { href: explorerHref(number + 1n), rel: 'next' }, `block ${number + 1n} →`) : h('span', { class: 'hint' }, 'the latest block'),
    ),
    h(
      'div',
      { class: 'card' },
      facts(
        [
          ['number', String(number)],
          ['hash', h('span', { class: 'hash' }, block.hash)],
          ['parent', number > 0n ? explorerLink(block.parentHash, block.parentHash) : `${block.parentHash} (genesis)`],
          ['time', `${dateTime(block.timestamp)} (unix ${BigInt(block.timestamp)})`],
          ['L1 batch', batch === undefined ? undefined : h('a', { href: explorerHref(`batch:${batch}`) }, `batch ${batch}`)],
          ['transactions', String(block.transactions.length)],
          ['gas used', `${count(block.gasUsed)} of ${count(block.gasLimit)}`],
          ['base fee', block.baseFeePerGas ? gasPrice(block.baseFeePerGas) : undefined],
          ['fee recipient', block.miner],
          ['state root', block.stateRoot],
          ['transactions root', block.transactionsRoot],
          ['receipts root', block.receiptsRoot],
          ['size', `${count(block.size)} bytes`],
        ],
        'block-facts',
      ),
    ),
    h('h4', {}, plural(block.transactions.length, 'transaction')),
    block.transactions.length === 0
      ? h('p', { class: 'hint' }, 'An empty block.')
      : h(
          'table',
          { testid: 'block-transactions' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'num' }, '#'), h('th', { scope: 'col' }, 'Hash'), h('th', { scope: 'col' }, 'From'), h('th', { scope: 'col' }, 'To'), h('th', { scope: 'col', class: 'num' }, 'Value'))),
          h(
            'tbody',
            {},
            block.transactions.map((tx, i) =>
              h(
                'tr',
                { testid: 'transaction-row' },
                h('td', { class: 'num' }, i),
                h('td', {}, explorerLink(tx.hash)),
                h('td', {}, explorerLink(tx.from)),
                h('td', {}, tx.to ? explorerLink(tx.to) : h('em', {}, 'contract creation')),
                h('td', { class: 'num' }, etherAmount(tx.value)),
              ),
            ),
          ),
        ),
  )
}
