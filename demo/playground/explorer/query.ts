/**
 * What the explorer's search box (and the `#explorer/<argument>` hash) can ask for. Parsing is
 * pure: a 32-byte hash stays ambiguous here (a transaction or a block) and is resolved against the
 * node by the panel, transaction first.
 */
import type { Hex } from '../session.ts'

export type Query =
  | { kind: 'overview' }
  | { kind: 'block'; number: bigint | 'latest' }
  | { kind: 'hash'; hash: Hex }
  | { kind: 'address'; address: Hex }
  | { kind: 'batch'; number: number }
  | { kind: 'invalid'; message: string }

const HASH = /^0x[0-9a-fA-F]{64}$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const DECIMAL = /^\d+$/
/** Block numbers in hex: short enough not to be mistaken for an address or hash. */
const HEX_NUMBER = /^0x[0-9a-fA-F]{1,16}$/
const BATCH = /^batch:\s*(\d+|0x[0-9a-fA-F]{1,16})$/i

export const SEARCH_HINT = 'A block number, block or transaction hash, address, or batch:N (an L1 batch).'

export function parseQuery(input: string | undefined): Query {
  const text = (input ?? '').trim()
  if (text === '') return { kind: 'overview' }
  if (text.toLowerCase() === 'latest') return { kind: 'block', number: 'latest' }
  const batch = BATCH.exec(text)
  if (batch) {
    const number = Number(BigInt(batch[1]))
    return Number.isSafeInteger(number) ? { kind: 'batch', number } : { kind: 'invalid', message: `Batch number ${batch[1]} is too large.` }
  }
  if (HASH.test(text)) return { kind: 'hash', hash: text.toLowerCase() as Hex }
  if (ADDRESS.test(text)) return { kind: 'address', address: text.toLowerCase() as Hex }
  if (DECIMAL.test(text) || HEX_NUMBER.test(text)) return { kind: 'block', number: BigInt(text) }
  if (/^0x[0-9a-fA-F]*$/.test(text)) {
    const digits = text.length - 2
    return { kind: 'invalid', message: `"${text}" has ${digits} hex digits: an address has 40, a block or transaction hash 64.` }
  }
  return { kind: 'invalid', message: `"${text}" is not something the explorer can look up. ${SEARCH_HINT}` }
}

/** The canonical text of a query, as put in the URL hash and the search box. */
export function queryText(query: Query): string {
  switch (query.kind) {
    case 'overview':
    case 'invalid':
      return ''
    case 'block':
      return String(query.number)
    case 'hash':
      return query.hash
    case 'address':
      return query.address
    case 'batch':
      return `batch:${query.number}`
  }
}
