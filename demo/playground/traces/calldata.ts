/**
 * Call data at a glance: its 4-byte function selector (what a call is asking for), how many
 * bytes of arguments follow, and the raw hex folded away (init code can be kilobytes).
 */
import { abiLibrary } from '../decoding/abiLibrary.ts'
import { decodeCall } from '../decoding/decode.ts'
import { h } from '../ui/dom.ts'
import './calldata.css'

/** The function selector of call data, when it has one. */
export const selectorOf = (input: string): string | undefined => (input.length >= 10 ? input.slice(0, 10).toLowerCase() : undefined)

export const byteLength = (hex: string): number => Math.max(0, (hex.length - 2) / 2)

/**
 * Call data (or init code, for a creation) shown decoded when an ABI the playground has knows it
 * (`to`'s own, any compiled one, the well-known signatures), else as selector + size; the raw
 * bytes expandable.
 */
export function calldataView(input: string, options: { creation?: boolean; testid?: string; to?: string | null } = {}): HTMLElement {
  const size = byteLength(input)
  if (size === 0) return h('span', { class: 'muted', testid: options.testid }, 'none (0x)')
  const selector = options.creation ? undefined : selectorOf(input)
  const decoded = selector === undefined ? undefined : decodeCall(abiLibrary.abisFor(options.to), input)
  const summary = options.creation
    ? `init code, ${size} bytes`
    : decoded !== undefined
      ? h('span', { class: 'decoded', testid: 'decoded-call', title: `selector ${selector}, decoded with ${decoded.source}` }, decoded.text)
      : selector === undefined
        ? `${size} bytes (no selector)`
        : `selector ${selector} · ${size - 4} bytes of arguments`
  return h(
    'details',
    { class: 'calldata', testid: options.testid },
    h('summary', {}, summary),
    h('pre', { class: 'data mono' }, input),
  )
}
