/**
 * What this node is: its role among the tabs (the leader runs the chain in its worker; followers
 * forward to it, and one takes over when the leader's tab closes), chain id, client version and
 * the HTTP endpoint's URLs.
 */
import type { Session } from '../session.ts'
import { copyButton } from '../ui/copyButton.ts'
import { h } from '../ui/dom.ts'
import { failureText } from '../ui/errors.ts'

export interface AboutSection {
  element: HTMLElement
  /** Re-reads the role (it changes when another tab takes over or hands over). */
  refresh(): void
}

const ROLE_TEXT = {
  leader: 'leader: this tab runs the node, in its Web Worker',
  follower: 'follower: another tab runs the node; this one forwards to it and takes over if that tab closes',
} as const

export function aboutSection(session: Session): AboutSection {
  const role = h('dd', { testid: 'node-role' })
  const client = h('dd', { testid: 'client-version' }, '…')
  session.request<string>('web3_clientVersion').then(
    (version) => (client.textContent = version),
    (error: unknown) => (client.textContent = failureText(error)),
  )
  const urls = session.node.baseUrls
  const endpoints = h(
    'dd',
    { testid: 'node-endpoints' },
    session.endpointProblem !== undefined ? `none: ${session.endpointProblem}`
    : urls.length === 0 ? 'none (provider only)'
    : h('ul', { class: 'plain' }, ...urls.map((url) => h('li', {}, h('code', {}, url), ' ', copyButton(url, `endpoint ${url}`)))),
  )
  const refresh = () => {
    const current = session.node.role
    role.dataset.role = current
    role.textContent = ROLE_TEXT[current] ?? current
  }
  refresh()
  return {
    element: h(
      'div',
      { class: 'card', testid: 'about' },
      h('h3', {}, 'This node'),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Role'),
        role,
        h('dt', {}, 'Chain id'),
        h('dd', { testid: 'node-chain-id' }, `${session.chainId} (0x${session.chainId.toString(16)})`),
        h('dt', {}, 'Client'),
        client,
        h('dt', {}, 'HTTP endpoint'),
        endpoints,
      ),
    ),
    refresh,
  }
}
