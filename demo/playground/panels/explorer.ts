/**
 * Explorer: the latest blocks, L1 batches and transactions (live), and a view for each block,
 * batch, transaction and address. The search box and the URL hash (`#explorer/<query>`) take the
 * same queries, so every view can be linked to from other panels, and Back returns to the last.
 */
import { addressView } from '../explorer/addressView.ts'
import { batchView } from '../explorer/batchView.ts'
import { blockView } from '../explorer/blockView.ts'
import { blockByHash, blockByNumber, headNumber, transaction } from '../explorer/chain.ts'
import { logsForm } from '../explorer/logsForm.ts'
import { overviewView } from '../explorer/overview.ts'
import { parseQuery, queryText, SEARCH_HINT, type Query } from '../explorer/query.ts'
import { transactionView } from '../explorer/transactionView.ts'
import type { Panel } from '../panel.ts'
import type { Session } from '../session.ts'
import { field, h } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import './explorer.css'

/** What a query resolved to: the element to show, and whether it follows new blocks. */
interface Rendered {
  element: HTMLElement
  live: boolean
}

const notFound = (text: string): Rendered => ({ element: h('p', { class: 'error', role: 'alert', testid: 'not-found' }, text), live: false })

async function resolve(session: Session, query: Query): Promise<Rendered> {
  switch (query.kind) {
    case 'overview':
      return { element: await overviewView(session), live: true }
    case 'invalid':
      return notFound(query.message)
    case 'block': {
      const block = await blockByNumber(session, query.number)
      if (block === null) return notFound(`No block ${query.number}: the latest block is ${await headNumber(session)}.`)
      return { element: await blockView(session, block), live: false }
    }
    case 'hash': {
      // 32 bytes name a transaction or a block; transactions are what people paste most.
      const tx = await transaction(session, query.hash)
      if (tx !== null) return { element: await transactionView(session, tx), live: tx.blockNumber === null }
      const block = await blockByHash(session, query.hash)
      if (block !== null) return { element: await blockView(session, block), live: false }
      return notFound(`No transaction or block has the hash ${query.hash} on this chain.`)
    }
    case 'address':
      return { element: await addressView(session, query.address), live: false }
    case 'batch':
      return { element: await batchView(session, query.number), live: false }
  }
}

export const explorerPanel: Panel = (() => {
  let session: Session | undefined
  let root: HTMLElement | undefined
  let query: Query = { kind: 'overview' }
  let live = false
  /** Counts renders, so a slow answer for an older query never replaces a newer view. */
  let generation = 0
  /** A render is under way; a head heard meanwhile may have come after it read the chain. */
  let rendering = false
  let headWhileRendering = false
  const searchInput = h('input', { type: 'search', name: 'query', testid: 'explorer-search', autocomplete: 'off', spellcheck: 'false', placeholder: '12 · 0x…hash · 0x…address · batch:3' })
  const searchProblem = h('p', { class: 'error', role: 'alert', testid: 'search-problem', hidden: true })
  const view = h('div', { class: 'explorer-main', testid: 'explorer-view' })
  let logs: HTMLElement | undefined

  async function render(quiet: boolean): Promise<void> {
    if (!session) return
    const mine = ++generation
    if (!quiet) view.replaceChildren(h('p', { class: 'hint', role: 'status' }, 'Loading…'))
    view.setAttribute('aria-busy', 'true')
    rendering = true
    headWhileRendering = false
    let rendered: Rendered
    try {
      rendered = await resolve(session, query)
    } catch (error) {
      rendered = { element: failureView(error, 'explorer-error'), live: false }
    }
    if (mine !== generation) return
    rendering = false
    live = rendered.live
    view.removeAttribute('aria-busy')
    view.replaceChildren(rendered.element)
    if (logs) logs.hidden = query.kind !== 'overview'
    // A block mined while the view was being read may be missing from it: read it again.
    if (live && headWhileRendering) void render(true)
  }

  function search(event: Event): void {
    event.preventDefault()
    const parsed = parseQuery(searchInput.value)
    if (parsed.kind === 'invalid') {
      searchProblem.textContent = parsed.message
      searchProblem.hidden = false
      searchInput.setAttribute('aria-invalid', 'true')
      return
    }
    clearProblem()
    // Through the URL hash, so the view can be linked to and Back returns here.
    navigatorRef?.open('explorer', parsed.kind === 'overview' ? undefined : queryText(parsed))
  }

  function clearProblem(): void {
    searchProblem.hidden = true
    searchInput.removeAttribute('aria-invalid')
  }

  let navigatorRef: { open(panel: string, argument?: string): void } | undefined

  return {
    id: 'explorer',
    title: 'Explorer',
    mount(panelRoot, started, navigator) {
      session = started
      root = panelRoot
      navigatorRef = navigator
      logs = logsForm(started)
      logs.hidden = true
      const searchField = field('Search the chain', searchInput, SEARCH_HINT)
      searchProblem.id = 'explorer-search-problem'
      searchInput.setAttribute('aria-describedby', `${searchInput.getAttribute('aria-describedby') ?? ''} ${searchProblem.id}`.trim())
      panelRoot.append(
        h('h2', {}, 'Explorer'),
        h(
          'form',
          { class: 'explorer-search', role: 'search', onsubmit: search },
          h(
            'div',
            { class: 'row' },
            searchField,
            h(
              'div',
              { class: 'field buttons' },
              h('button', { type: 'submit', testid: 'explorer-search-submit' }, 'Search'),
              h('button', { type: 'button', class: 'secondary', testid: 'explorer-latest', onclick: () => navigator.open('explorer') }, 'Latest'),
            ),
          ),
          searchProblem,
        ),
        view,
        // Outside the live view, so a new block never rebuilds the form being typed into.
        logs,
      )
      started.onHead(() => {
        if (rendering) headWhileRendering = true
        // A rebuild would take the keyboard focus away from a link being tabbed through; the next
        // head after focus leaves (or showing the panel again) brings the view up to date.
        if (live && root && !root.hidden && !view.contains(document.activeElement)) void render(true)
      })
    },
    show(argument) {
      query = parseQuery(argument)
      searchInput.value = argument ?? ''
      clearProblem()
      void render(false)
    },
  }
})()
