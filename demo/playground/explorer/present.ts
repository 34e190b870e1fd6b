/** Small pieces the explorer's views share: fact lists, counts, gas prices, address links. */
import { formatGwei } from 'viem'
import { h } from '../ui/dom.ts'
import { explorerLink } from '../ui/links.ts'

type FactValue = Node | string | number | undefined | null

/** A definition list of facts; rows whose value is undefined are left out. */
export function facts(rows: [label: string, value: FactValue][], testid?: string): HTMLDListElement {
  return h(
    'dl',
    { class: 'facts', testid },
    rows.flatMap(([label, value]) => (value === undefined || value === null ? [] : [h('dt', {}, label), h('dd', { dataset: { fact: label } }, typeof value === 'number' ? String(value) : value)])),
  )
}

const grouped = new Intl.NumberFormat('en-US')

/** A quantity with thousands separators: gas, counts. */
export const count = (value: string | bigint | number): string => grouped.format(typeof value === 'string' ? BigInt(value) : value)

/** A gas price in gwei with the wei value beside it (the node's fixed price is a fraction of a gwei). */
export const gasPrice = (wei: string | bigint): string => {
  const value = typeof wei === 'string' ? BigInt(wei) : wei
  return `${formatGwei(value)} gwei (${count(value)} wei)`
}

/** An address link, or a note when there is none (a contract creation's `to`). */
export const addressOrNone = (address: string | null | undefined, none: string): Node | string => (address ? explorerLink(address, address) : none)

/** "3 transactions", "1 transaction". */
export const plural = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? '' : 's'}`

/** "12 s ago" style age of a unix timestamp, for the overview's tables. */
export function age(timestampSeconds: bigint, nowMs = Date.now()): string {
  const seconds = Math.round(nowMs / 1000 - Number(timestampSeconds))
  if (seconds < 0) return `in ${-seconds} s`
  if (seconds < 60) return `${seconds} s ago`
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`
  return `${Math.floor(seconds / 86_400)} d ago`
}
