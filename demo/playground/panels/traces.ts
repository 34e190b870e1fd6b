/**
 * Traces: the call tree of a transaction (debug_traceTransaction with the callTracer), each frame
 * foldable, reverts decoded. `#traces/<hash>` opens one; recent transactions are listed to pick.
 */
import { blocksDescending, headNumber } from '../explorer/chain.ts'
import type { Panel } from '../panel.ts'
import type { Hex, Session } from '../session.ts'
import { callTree, countFrames, failureOf, type CallFrame } from '../traces/callTree.ts'
import { field, h } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import { shortHash } from '../ui/format.ts'
import { explorerLink, traceHref } from '../ui/links.ts'
import './traces.css'

const HASH = /^0x[0-9a-fA-F]{64}$/
/** How far back the recent-transactions list looks, and how many it shows. */
const RECENT_BLOCKS = 50n
const RECENT_SHOWN = 10

export const tracesPanel: Panel = (() => {
  let session: Session | undefined
  let root: HTMLElement | undefined
  let generation = 0
  /** Like `generation`, for the recent list: an older refresh never overwrites a newer one. */
  let recentGeneration = 0
  const hashInput = h('input', { name: 'hash', testid: 'trace-hash', autocomplete: 'off', spellcheck: 'false', placeholder: '0x… (32 bytes)' })
  const problem = h('p', { class: 'error', role: 'alert', testid: 'trace-problem', id: 'trace-hash-problem', hidden: true })
  const result = h('div', { class: 'trace-result', testid: 'trace-result' }, h('p', { class: 'hint' }, 'Enter a transaction hash, or pick a recent transaction.'))
  const recent = h('div', { testid: 'recent-transactions' })
  let navigate: (hash: string) => void = () => {}

  async function trace(hash: Hex): Promise<void> {
    if (!session) return
    const mine = ++generation
    result.replaceChildren(h('p', { class: 'hint', role: 'status' }, `Tracing ${shortHash(hash)}…`))
    let shown: HTMLElement
    try {
      const frame = await session.request<CallFrame | null>('debug_traceTransaction', [hash, { tracer: 'callTracer' }])
      shown = frame === null ? h('p', { class: 'error', role: 'alert', testid: 'trace-not-found' }, `No transaction ${hash} on this chain (or it is not mined yet).`) : traceView(hash, frame)
    } catch (error) {
      shown = failureView(error, 'trace-error')
    }
    if (mine === generation) result.replaceChildren(shown)
  }

  async function refreshRecent(): Promise<void> {
    if (!session) return
    const mine = ++recentGeneration
    try {
      const head = await headNumber(session)
      const blocks = await blocksDescending(session, head, head - RECENT_BLOCKS + 1n)
      if (mine !== recentGeneration) return
      const transactions = blocks.flatMap((block) => [...block.transactions].reverse()).slice(0, RECENT_SHOWN)
      recent.replaceChildren(
        transactions.length === 0
          ? h('p', { class: 'hint' }, `No transactions in the last ${blocks.length} blocks yet: send one, and it appears here.`)
          : h(
              'ul',
              { class: 'recent-list' },
              transactions.map((tx) =>
                h(
                  'li',
                  {},
                  h('a', { href: traceHref(tx.hash), class: 'hash', title: tx.hash, testid: 'recent-trace-link' }, shortHash(tx.hash)),
                  h('span', { class: 'hint' }, ` block ${BigInt(tx.blockNumber ?? '0x0')} · ${shortHash(tx.from, 4)} → ${tx.to ? shortHash(tx.to, 4) : 'new contract'}${tx.input.length >= 10 && tx.to ? ` · ${tx.input.slice(0, 10)}` : ''}`),
                ),
              ),
            ),
      )
    } catch (error) {
      if (mine === recentGeneration) recent.replaceChildren(failureView(error))
    }
  }

  function submit(event: Event): void {
    event.preventDefault()
    const hash = hashInput.value.trim()
    if (!HASH.test(hash)) {
      problem.textContent = hash === '' ? 'Enter a transaction hash.' : `"${hash}" is not a transaction hash (0x and 64 hex digits).`
      problem.hidden = false
      hashInput.setAttribute('aria-invalid', 'true')
      return
    }
    navigate(hash.toLowerCase())
  }

  return {
    id: 'traces',
    title: 'Traces',
    mount(panelRoot, started, navigator) {
      session = started
      root = panelRoot
      navigate = (hash) => navigator.open('traces', hash)
      const hashField = field('Transaction hash', hashInput, 'debug_traceTransaction with { tracer: "callTracer" }: every call, create and revert it made.')
      hashInput.setAttribute('aria-describedby', `${hashInput.getAttribute('aria-describedby') ?? ''} ${problem.id}`.trim())
      panelRoot.append(
        h('h2', {}, 'Traces'),
        h('form', { class: 'trace-form', onsubmit: submit }, h('div', { class: 'row' }, hashField, h('div', { class: 'field buttons' }, h('button', { type: 'submit', testid: 'trace-submit' }, 'Trace'))), problem),
        h('details', { class: 'card recent', open: true }, h('summary', {}, h('strong', {}, 'Recent transactions')), recent),
        result,
      )
      started.onHead(() => {
        // Not under the keyboard focus: rebuilding the list would drop it.
        if (root && !root.hidden && !recent.contains(document.activeElement)) void refreshRecent()
      })
    },
    show(argument) {
      void refreshRecent()
      if (argument === undefined) return
      problem.hidden = true
      hashInput.removeAttribute('aria-invalid')
      hashInput.value = argument
      if (HASH.test(argument)) void trace(argument.toLowerCase() as Hex)
      else result.replaceChildren(h('p', { class: 'error', role: 'alert', testid: 'trace-problem' }, `"${argument}" is not a transaction hash (0x and 64 hex digits).`))
    },
  }
})()

function traceView(hash: Hex, frame: CallFrame): HTMLElement {
  const { frames, depth } = countFrames(frame)
  const failure = failureOf(frame)
  const tree = h('div', { class: 'call-tree', testid: 'call-tree' }, callTree(frame))
  const setAll = (open: boolean) => () => tree.querySelectorAll('details.frame').forEach((details) => ((details as HTMLDetailsElement).open = open))
  return h(
    'section',
    { 'aria-label': 'Call trace' },
    h('h3', {}, 'Trace of ', explorerLink(hash, hash)),
    h(
      'p',
      { class: 'trace-summary', testid: 'trace-summary' },
      `${frames} frame${frames === 1 ? '' : 's'}, ${depth} deep · `,
      failure ? h('span', { class: 'error' }, `reverted: ${failure.reason ?? failure.error}`) : h('span', { class: 'ok-text' }, 'succeeded'),
    ),
    h(
      'p',
      { class: 'trace-tools' },
      h('button', { type: 'button', class: 'secondary', testid: 'expand-all', onclick: setAll(true) }, 'Expand all'),
      ' ',
      h('button', { type: 'button', class: 'secondary', testid: 'collapse-all', onclick: setAll(false) }, 'Collapse all'),
    ),
    tree,
  )
}
