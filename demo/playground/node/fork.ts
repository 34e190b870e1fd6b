/**
 * Fork: which chain and block this node forked (anvil_nodeInfo's forkConfig), and a form that
 * forks a live chain from its URL (anvil_reset with `forking`): the chain starts again, on that
 * upstream's state at that block (its head when none is given), dev accounts funded on top. The
 * node worker fetches the upstream as the chain needs it and keeps what it fetched in IndexedDB,
 * so the upstream must allow this page's origin (CORS), and the fork keeps working offline for
 * what it touched.
 */
import type { Session } from '../session.ts'
import { h } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import { runAction } from './action.ts'

/** anvil_nodeInfo's forkConfig. */
export interface ForkConfig {
  forkUrl: string | null
  forkBlockNumber: number | string | null
}

export interface ForkSection {
  element: HTMLElement
  /** Re-reads what the node forked (after a reset, a reload, a fork from the console). */
  refresh(): Promise<void>
}

/** The form's fields as anvil_reset's params, or what is wrong with them. */
export function parseForkForm(url: string, block: string): { params: [{ forking: { jsonRpcUrl: string; blockNumber?: number } }] } | { error: string } {
  const trimmed = url.trim()
  let protocol: string | undefined
  try {
    protocol = new URL(trimmed).protocol
  } catch {
    protocol = undefined
  }
  if (protocol !== 'http:' && protocol !== 'https:') return { error: 'The upstream must be an http:// or https:// URL, e.g. https://rpc.example.org.' }
  const number = block.trim()
  if (number === '') return { params: [{ forking: { jsonRpcUrl: trimmed } }] }
  if (!/^(0|[1-9][0-9]*)$/.test(number) || !Number.isSafeInteger(Number(number))) return { error: `The block must be a block number (decimal), not "${number}".` }
  return { params: [{ forking: { jsonRpcUrl: trimmed, blockNumber: Number(number) } }] }
}

/** What the section says the node forked: the upstream's host (never the rest of its URL: a key) and block. */
export function describeFork(config: ForkConfig | undefined): string {
  if (!config?.forkUrl) return 'Not a fork: this chain started from its own genesis.'
  let host: string
  try {
    host = new URL(config.forkUrl).host
  } catch {
    host = 'an upstream'
  }
  return `A fork of ${host} at block ${BigInt(config.forkBlockNumber ?? 0)}.`
}

export function forkSection(session: Session, afterFork: () => void): ForkSection {
  const current = h('p', { testid: 'fork-current' }, '…')
  const url = h('input', { type: 'url', id: 'fork-url', placeholder: 'https://rpc.example.org', testid: 'fork-url', autocomplete: 'off' })
  const block = h('input', { type: 'text', id: 'fork-block', inputmode: 'numeric', placeholder: 'its head', testid: 'fork-block', autocomplete: 'off' })
  const start = h('button', { type: 'submit', class: 'danger', testid: 'fork-start' }, 'Fork it (this chain starts again)')
  const note = h('p', { 'aria-live': 'polite', testid: 'fork-note' })
  const problem = h('div', {})

  const refresh = () =>
    session.request<{ forkConfig?: ForkConfig }>('anvil_nodeInfo').then(
      (info) => void (current.textContent = describeFork(info.forkConfig)),
      () => {},
    )
  const form = h(
    'form',
    { testid: 'fork-form', novalidate: true },
    h('label', { for: 'fork-url' }, 'Upstream JSON-RPC URL'),
    url,
    h('label', { for: 'fork-block' }, 'Block (optional)'),
    block,
    start,
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    note.textContent = ''
    const parsed = parseForkForm(url.value, block.value)
    if ('error' in parsed) {
      problem.replaceChildren(failureView(new Error(parsed.error), 'fork-error'))
      return
    }
    void runAction(start, problem, 'fork-error', async () => {
      await session.request('anvil_reset', parsed.params)
      await refresh()
      note.textContent = `Forked. ${current.textContent ?? ''} What the chain reads from it is kept in this browser.`
      afterFork()
      await session.announceHead()
    })
  })
  void refresh()
  return {
    element: h(
      'div',
      { class: 'card', testid: 'fork-section' },
      h('h3', {}, 'Fork'),
      current,
      h('p', { class: 'hint' }, 'anvil_reset with forking: a copy of a live chain, its state fetched from the URL (which must allow this origin: CORS) as it is used, kept in IndexedDB.'),
      form,
      note,
      problem,
    ),
    refresh,
  }
}
