/** A labelled choice of the node's dev accounts (the node signs eth_sendTransaction for them). */
import type { Hex, Session } from '../session.ts'
import { field, h } from '../ui/dom.ts'
import { shortHash } from '../ui/format.ts'

export function accountSelect(session: Session, label: string, selected?: Hex): { field: HTMLDivElement; select: HTMLSelectElement } {
  const select = h(
    'select',
    { name: 'from', class: 'mono' },
    session.accounts.map((account, index) => h('option', { value: account, selected: account.toLowerCase() === selected?.toLowerCase() }, `account ${index} · ${shortHash(account, 4)}`)),
  )
  return { field: field(label, select), select }
}
