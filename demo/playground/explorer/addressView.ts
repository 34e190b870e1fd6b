/**
 * One address: balance, nonce, code (a contract or not), an ABI to paste for it, and its
 * transactions, a page at a time from the node's address index (addressHistory.ts).
 */
import type { Hex, Session } from '../session.ts'
import { abiForm } from '../decoding/abiForm.ts'
import { h } from '../ui/dom.ts'
import { exactEther } from '../ui/format.ts'
import { addressHistory } from './addressHistory.ts'
import { count, facts } from './present.ts'

export async function addressView(session: Session, address: Hex): Promise<HTMLElement> {
  const [balance, nonce, code] = await Promise.all([
    session.request<Hex>('eth_getBalance', [address, 'latest']),
    session.request<Hex>('eth_getTransactionCount', [address, 'latest']),
    session.request<Hex>('eth_getCode', [address, 'latest']),
  ])
  const codeSize = (code.length - 2) / 2

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
    addressHistory(session, address),
  )
}
