/**
 * A callTracer result as a tree of <details>: each frame's summary line says what happened (type,
 * from → to, selector, value, gas, outcome), its body the full facts and the frames it called.
 * <details>/<summary> make it keyboard-operable with no script: Tab to a frame, Enter or Space to
 * fold it.
 */
import type { Hex } from '../session.ts'
import { h } from '../ui/dom.ts'
import { ether, shortHash } from '../ui/format.ts'
import { explorerLink } from '../ui/links.ts'
import { calldataView, selectorOf } from './calldata.ts'
import { decodeRevert, revertText, type Revert } from './revert.ts'
import { abiLibrary } from '../decoding/abiLibrary.ts'
import { decodeCall, decodeError } from '../decoding/decode.ts'

/**
 * One frame, in either of the node's shapes: ZKsync's DebugCall (lowercase type, `error` and
 * `revertReason` always present) or geth's callTracer (uppercase type, empty keys left out).
 */
export interface CallFrame {
  type: string
  from: Hex
  to?: Hex | null
  value?: Hex | null
  gas?: Hex
  gasUsed?: Hex
  input?: Hex
  output?: Hex | null
  error?: string | null
  revertReason?: string | null
  calls?: CallFrame[] | null
}

/** Frames deeper than this start folded, so a deep tree opens readable. */
const OPEN_DEPTH = 3

const grouped = new Intl.NumberFormat('en-US')
const gas = (hex: Hex | undefined): string => (hex === undefined ? '?' : grouped.format(BigInt(hex)))

const isCreation = (type: string): boolean => type.startsWith('CREATE')

/** Why a frame failed, as one line, or undefined when it did not. */
export function failureOf(frame: CallFrame): { error: string; revert?: Revert; reason?: string } | undefined {
  if (!frame.error) return undefined
  const revert = decodeRevert(frame.output)
  // The node decodes Error(string) itself; that is the fallback when the output does not decode.
  const reason = revert.kind === 'empty' || revert.kind === 'raw' ? (frame.revertReason ?? undefined) : customErrorText(revert, frame.to) ?? revertText(revert)
  return { error: frame.error, revert, reason }
}

/** A custom error named with its arguments, by an ABI the playground has (the reverting contract's first). */
function customErrorText(revert: Revert, address: string | null | undefined): string | undefined {
  return revert.kind === 'custom' ? decodeError(abiLibrary.abisFor(address), revert.data)?.text : undefined
}

export function countFrames(frame: CallFrame): { frames: number; depth: number } {
  const children = (frame.calls ?? []).map(countFrames)
  return { frames: 1 + children.reduce((sum, child) => sum + child.frames, 0), depth: 1 + Math.max(0, ...children.map((child) => child.depth)) }
}

export function callTree(frame: CallFrame, depth = 0): HTMLDetailsElement {
  const type = frame.type.toUpperCase()
  const failure = failureOf(frame)
  const selector = isCreation(type) || !frame.input ? undefined : selectorOf(frame.input)
  const value = frame.value ? BigInt(frame.value) : 0n
  const children = frame.calls ?? []
  const summary = h(
    'summary',
    {},
    h('span', { class: `frame-type type-${type.toLowerCase()}` }, type),
    ' ',
    h('span', { class: 'hash', title: frame.from }, shortHash(frame.from, 4)),
    ' → ',
    h('span', { class: 'hash', title: frame.to ?? '' }, frame.to ? shortHash(frame.to, 4) : '(no address)'),
    selector ? h('span', { class: 'frame-selector mono', title: `function selector ${selector}` }, decodeCall(abiLibrary.abisFor(frame.to), frame.input)?.name ?? selector) : undefined,
    value > 0n ? h('span', { class: 'frame-value' }, ether(value)) : undefined,
    h('span', { class: 'frame-gas' }, `gas ${gas(frame.gasUsed)} / ${gas(frame.gas)}`),
    children.length > 0 ? h('span', { class: 'frame-calls' }, `${children.length} call${children.length === 1 ? '' : 's'}`) : undefined,
    failure
      ? h('span', { class: 'frame-status failed', testid: 'frame-status' }, `✗ ${failure.error}${failure.reason ? `: ${failure.reason}` : ''}`)
      : h('span', { class: 'frame-status ok-text', testid: 'frame-status' }, '✓'),
  )
  const body = h(
    'div',
    { class: 'frame-body' },
    h(
      'dl',
      { class: 'facts' },
      fact('type', type),
      fact('from', explorerLink(frame.from, frame.from)),
      fact('to', frame.to ? explorerLink(frame.to, frame.to) : 'none'),
      fact('value', `${ether(value)} (${grouped.format(value)} wei)`),
      fact('gas', `${gas(frame.gasUsed)} used of ${gas(frame.gas)} given`),
      fact(isCreation(type) ? 'init code' : 'input', calldataView(frame.input ?? '0x', { creation: isCreation(type), to: frame.to })),
      fact(isCreation(type) && !failure ? 'deployed code' : 'output', outputView(frame.output, failure !== undefined)),
      failure ? fact('error', h('span', { class: 'error', testid: 'frame-error' }, failure.error)) : undefined,
      failure?.revert ? fact('revert reason', revertView(failure.revert, frame.revertReason, frame.to)) : undefined,
    ),
    children.length > 0 ? h('div', { class: 'frame-children', role: 'group', 'aria-label': `calls made by this ${type}` }, children.map((child) => callTree(child, depth + 1))) : undefined,
  )
  return h('details', { class: `frame${failure ? ' failed' : ''}`, open: depth < OPEN_DEPTH, testid: 'call-frame', dataset: { depth: String(depth), type, status: failure ? 'failed' : 'ok' } }, summary, body)
}

const fact = (label: string, value: Node | string): Node[] => [h('dt', {}, label), h('dd', {}, value)]

function outputView(output: Hex | null | undefined, failed: boolean): Node | string {
  if (!output || output === '0x') return h('span', { class: 'muted' }, 'none (0x)')
  return h('details', { class: 'calldata' }, h('summary', {}, `${(output.length - 2) / 2} bytes${failed ? ' of revert data' : ''}`), h('pre', { class: 'data mono' }, output))
}

function revertView(revert: Revert, nodeReason: string | null | undefined, address: string | null | undefined): HTMLElement {
  switch (revert.kind) {
    case 'error':
      return h('span', { testid: 'revert-reason', dataset: { kind: 'error' } }, 'Error(string): ', h('strong', {}, revert.message))
    case 'panic':
      return h('span', { testid: 'revert-reason', dataset: { kind: 'panic' } }, `Panic(uint256) code 0x${revert.code.toString(16).padStart(2, '0')}: `, h('strong', {}, revert.meaning))
    case 'custom': {
      const named = customErrorText(revert, address)
      if (named) return h('span', { testid: 'revert-reason', dataset: { kind: 'custom' }, title: `selector ${revert.selector}` }, 'custom error ', h('strong', {}, named))
      return h('span', { testid: 'revert-reason', dataset: { kind: 'custom' } }, 'custom error, selector ', h('code', {}, revert.selector), ' (no ABI the playground has names it: paste one for the contract in the explorer)')
    }
    case 'empty':
    case 'raw':
      return h('span', { testid: 'revert-reason', dataset: { kind: revert.kind } }, nodeReason ? nodeReason : revertText(revert))
  }
}
