/**
 * An ether amount on screen: the compact form (`ether`) as text, the exact value (`exactEther`,
 * and the wei) on hover, and the exact value again when the amount is selected and copied, so a
 * value copied from a table is never the shortened one.
 */
import { h } from './dom.ts'
import { ether, exactEther } from './format.ts'

const grouped = new Intl.NumberFormat('en-US')

export function etherAmount(wei: bigint | string, attributes: Record<string, string> = {}): HTMLSpanElement {
  const value = typeof wei === 'string' ? BigInt(wei) : wei
  const exact = exactEther(value)
  return h('span', { ...attributes, class: 'amount', title: `${exact} (${grouped.format(value)} wei)`, dataset: { exact } }, ether(value))
}

// A copy whose selection lies inside one amount copies its exact value instead of the text shown.
document.addEventListener('copy', (event) => {
  const selection = document.getSelection()
  if (!selection || selection.isCollapsed || !event.clipboardData) return
  const amountOf = (node: Node | null) => (node instanceof Element ? node : node?.parentElement)?.closest<HTMLElement>('.amount')
  const amount = amountOf(selection.anchorNode)
  if (!amount || amount !== amountOf(selection.focusNode) || amount.dataset.exact === undefined) return
  event.clipboardData.setData('text/plain', amount.dataset.exact)
  event.preventDefault()
})
