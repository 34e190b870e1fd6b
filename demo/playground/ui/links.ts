/**
 * Links between panels are plain hash links (`#explorer/0xabc…`), so they open in a new tab,
 * can be bookmarked and work with the keyboard like any link.
 */
import { h } from './dom.ts'
import { shortHash } from './format.ts'

/**
 * The explorer's search: a block number, a block or transaction hash, an address, or
 * `batch:<n>` for an L1 batch.
 */
export const explorerHref = (query: string | bigint | number): string => `#explorer/${String(query)}`
export const traceHref = (transactionHash: string): string => `#traces/${transactionHash}`
/** A transaction's L2→L1 messages, their proofs and the recomputed root. */
export const messagesHref = (transactionHash: string): string => `#messages/${transactionHash}`

/** A hash or address shortened, linking to the explorer, with the full value as its title. */
export function explorerLink(value: string, text = shortHash(value)): HTMLAnchorElement {
  return h('a', { href: explorerHref(value), class: 'hash', title: value }, text)
}
