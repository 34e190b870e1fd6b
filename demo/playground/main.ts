/**
 * The playground: starts the node (in its worker, chain in IndexedDB, HTTP endpoint through the
 * service worker), then mounts the panels as tabs. The URL hash names the open panel (and its
 * argument: `#traces/0xabc…`), so every view can be linked to, reloaded and navigated back to.
 */
import type { PageNode } from '../../src/client/index.ts'
import { byId, h } from './ui/dom.ts'
import { failureText } from './ui/errors.ts'
import { PANELS } from './panels/index.ts'
import type { Navigator, Panel } from './panel.ts'
import { Session } from './session.ts'
import { abiLibrary } from './decoding/abiLibrary.ts'

declare global {
  interface Window {
    /** The page's node, for poking at it from the devtools console (and for the e2e suite). */
    pagenode?: PageNode
  }
}


const tabList = byId<HTMLDivElement>('tabs')
const panelsRoot = byId<HTMLElement>('panels')
const statusLine = byId<HTMLParagraphElement>('status')
const endpointLine = byId<HTMLParagraphElement>('endpoint')
const endpointUrls = byId<HTMLSpanElement>('endpoint-urls')

interface Mounted {
  panel: Panel
  tab: HTMLButtonElement
  section: HTMLElement
}

const mounted = new Map<string, Mounted>()
let session: Session | undefined

for (const panel of PANELS) {
  const tab = h(
    'button',
    { type: 'button', role: 'tab', id: `tab-${panel.id}`, testid: `tab-${panel.id}`, 'aria-controls': `panel-${panel.id}`, 'aria-selected': 'false', tabindex: '-1' },
    panel.title,
  )
  tab.addEventListener('click', () => navigator.open(panel.id))
  const section = h('section', { role: 'tabpanel', id: `panel-${panel.id}`, testid: `panel-${panel.id}`, 'aria-labelledby': `tab-${panel.id}`, hidden: true })
  section.append(h('p', { class: 'hint' }, 'Starting the node…'))
  tabList.append(tab)
  panelsRoot.append(section)
  mounted.set(panel.id, { panel, tab, section })
}

// Arrow keys move between tabs (the WAI-ARIA tabs pattern); Tab leaves the tab list.
tabList.addEventListener('keydown', (event) => {
  const tabs = [...mounted.values()].map((m) => m.tab)
  const current = tabs.indexOf(document.activeElement as HTMLButtonElement)
  if (current < 0) return
  const next =
    event.key === 'ArrowRight' ? (current + 1) % tabs.length
    : event.key === 'ArrowLeft' ? (current - 1 + tabs.length) % tabs.length
    : event.key === 'Home' ? 0
    : event.key === 'End' ? tabs.length - 1
    : undefined
  if (next === undefined) return
  event.preventDefault()
  tabs[next].focus()
  tabs[next].click()
})

function parseHash(): { id: string; argument?: string } {
  const [id, ...rest] = decodeURIComponent(location.hash.slice(1)).split('/')
  const known = mounted.has(id) ? id : PANELS[0].id
  return { id: known, argument: rest.length > 0 && rest.join('/') !== '' ? rest.join('/') : undefined }
}

function select(id: string, argument: string | undefined): void {
  for (const m of mounted.values()) {
    const selected = m.panel.id === id
    m.tab.setAttribute('aria-selected', String(selected))
    m.tab.tabIndex = selected ? 0 : -1
    m.section.hidden = !selected
  }
  if (session) mounted.get(id)?.panel.show?.(argument)
}

const navigator: Navigator = {
  open(id, argument) {
    const hash = `#${id}${argument === undefined ? '' : `/${argument}`}`
    // Setting the hash fires hashchange, which selects; an unchanged hash must still refresh.
    if (location.hash === hash) select(id, argument)
    else location.hash = hash
  },
}

window.addEventListener('hashchange', () => {
  const { id, argument } = parseHash()
  select(id, argument)
})

function showStatus(text: string, state: 'starting' | 'ready' | 'failed'): void {
  statusLine.textContent = text
  statusLine.dataset.state = state
}

async function refreshStatus(): Promise<void> {
  if (!session) return
  try {
    const block = await session.request<string>('eth_blockNumber')
    showStatus(`node ready · chain ${session.chainId} · block ${Number(BigInt(block))} · ${session.node.role}`, 'ready')
  } catch (error) {
    showStatus(`node ready · chain ${session.chainId} · block ? (${failureText(error)})`, 'ready')
  }
}

function showEndpoint(started: Session): void {
  if (started.endpointProblem !== undefined) {
    endpointLine.dataset.state = 'failed'
    endpointLine.textContent = `HTTP endpoint unavailable: ${started.endpointProblem}`
    return
  }
  const urls = started.node.baseUrls
  endpointUrls.replaceChildren(...(urls.length === 0 ? ['none (provider only)'] : urls.flatMap((url, i) => (i === 0 ? [h('code', {}, url)] : [' · ', h('code', {}, url)]))))
  endpointLine.dataset.state = 'ready'
}

async function start(): Promise<void> {
  const initial = parseHash()
  select(initial.id, undefined)
  try {
    session = await Session.start()
  } catch (error) {
    showStatus(`node failed to start: ${failureText(error)}`, 'failed')
    endpointLine.hidden = true
    console.error(error)
    return
  }
  window.pagenode = session.node
  showEndpoint(session)
  session.onHead(() => void refreshStatus())
  // A follower that took over says so at once, not at the next block.
  session.onRole(() => void refreshStatus())
  // The ABIs kept from earlier visits, before any panel decodes with them.
  await Promise.all([refreshStatus(), abiLibrary.load()])
  for (const m of mounted.values()) {
    m.section.replaceChildren()
    try {
      m.panel.mount(m.section, session, navigator)
    } catch (error) {
      console.error(error)
      m.section.replaceChildren(h('p', { class: 'error', role: 'alert' }, `this panel failed: ${failureText(error)}`))
    }
  }
  const { id, argument } = parseHash()
  select(id, argument)
}

void start()
