/**
 * Accounts, the first tab a newcomer sees: what this page is and where to point a dApp, the dev
 * accounts with live balances and nonces, impersonation of any address, and setting a balance.
 */
import { readAddress } from '../accounts/address.ts'
import { impersonation } from '../accounts/impersonation.ts'
import type { Panel } from '../panel.ts'
import type { Hex, Session } from '../session.ts'
import { readEther } from '../send/amount.ts'
import { copyButton } from '../ui/copyButton.ts'
import { field, h } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import { etherAmount } from '../ui/amount.ts'
import { exactEther } from '../ui/format.ts'
import { explorerLink } from '../ui/links.ts'
import './accounts.css'

/** Balances can change without a block (anvil_setBalance from the console): re-read on show. */
let refreshAccounts: (() => void) | undefined

export const accountsPanel: Panel = {
  id: 'accounts',
  title: 'Accounts',
  mount(root, session) {
    const impersonated = impersonation(session)
    const devTable = new AccountTable('dev-accounts', 'Dev accounts')
    const impersonatedTable = new AccountTable('impersonated-accounts', 'Impersonated accounts', (address) =>
      impersonated.stop(address),
    )
    const refreshError = h('div', { testid: 'accounts-refresh-error' })

    // A generation number: a slow refresh finishing after a newer one must not overwrite it.
    let generation = 0
    const refresh = async () => {
      const mine = ++generation
      try {
        const [dev, imp] = await Promise.all([readAccounts(session, session.accounts), readAccounts(session, impersonated.list)])
        if (mine !== generation) return
        devTable.show(dev)
        impersonatedTable.show(imp)
        refreshError.replaceChildren()
      } catch (error) {
        if (mine === generation) refreshError.replaceChildren(failureView(error, 'accounts-error'))
      }
    }
    devTable.show(session.accounts.map((address) => ({ address })))
    impersonatedTable.show(impersonated.list.map((address) => ({ address })))
    refreshAccounts = () => void refresh()
    session.onHead(() => void refresh())
    impersonated.onChange(() => void refresh())

    root.append(
      h('h2', {}, 'Accounts'),
      welcome(session),
      h('h3', {}, 'Dev accounts'),
      h(
        'p',
        { class: 'hint' },
        `Funded at genesis; the node holds their keys, so it signs eth_sendTransaction for them. Their keys come from the public “test … junk” mnemonic: a dev chain only.`,
      ),
      refreshError,
      devTable.element,
      h('h3', {}, 'Impersonate an address'),
      h('p', { class: 'hint' }, 'anvil_impersonateAccount: the node then sends eth_sendTransaction from that address without its key (use it as the sender in Send). It lasts until a reset or until the node restarts.'),
      impersonateForm(session),
      impersonatedTable.element,
      h('h3', {}, 'Set a balance'),
      setBalanceForm(session, () => void refresh()),
    )
    void refresh()
  },
  show() {
    refreshAccounts?.()
  },
}

/** One line on what this page is, and the endpoint a dApp on this site can use. */
function welcome(session: Session): HTMLElement {
  const urls = session.node.baseUrls
  const endpoint =
    session.endpointProblem !== undefined ? h('p', { testid: 'welcome-endpoint', class: 'endpoint' }, `No HTTP endpoint in this browser (${session.endpointProblem}); scripts in this page use window.pagenode.provider.`)
    : urls.length === 0 ? undefined
    : h(
        'p',
        { testid: 'welcome-endpoint', class: 'endpoint' },
        'Point a dApp or script on this site at ',
        h('code', { testid: 'welcome-url' }, urls[0]),
        ' ',
        copyButton(urls[0], 'the endpoint URL'),
        ` (chain id ${session.chainId})`,
        urls.includes('http://localhost:8011') ? ['; viem’s zksyncInMemoryNode (', h('code', {}, 'http://localhost:8011'), ') works as is'] : [],
        '. A service worker answers: requests never leave the browser.',
      )
  return h(
    'div',
    { class: 'card welcome', testid: 'welcome' },
    h(
      'p',
      { class: 'lead' },
      'An Ethereum JSON-RPC node (ZKsync-flavoured) is running in this page: nothing to install, no server. Its chain stays in this browser across reloads.',
    ),
    endpoint,
  )
}

interface AccountState {
  address: Hex
  /** Undefined until first read: the row is there from the start, so the page does not move when the values come. */
  balance?: bigint
  nonce?: bigint
}

function readAccounts(session: Session, addresses: readonly Hex[]): Promise<AccountState[]> {
  return Promise.all(
    addresses.map(async (address) => {
      const [balance, nonce] = await Promise.all([
        session.request<string>('eth_getBalance', [address, 'latest']),
        session.request<string>('eth_getTransactionCount', [address, 'latest']),
      ])
      return { address, balance: BigInt(balance), nonce: BigInt(nonce) }
    }),
  )
}

/** A table of accounts: address (to the explorer, copyable), balance, nonce, send from it. */
class AccountTable {
  readonly element: HTMLElement
  private readonly body = h('tbody', {})
  private readonly empty: HTMLElement | undefined
  private readonly problem = h('div', {})

  constructor(
    testid: string,
    caption: string,
    private readonly stop?: (address: Hex) => Promise<void>,
  ) {
    const isDev = stop === undefined
    this.empty = isDev ? undefined : h('p', { class: 'hint', testid: `${testid}-empty` }, 'No address impersonated yet.')
    this.element = h(
      'div',
      { class: 'table-scroll' },
      this.problem,
      h(
        'table',
        { testid, class: 'accounts' },
        h('caption', { class: 'visually-hidden' }, caption),
        h(
          'thead',
          {},
          h('tr', {}, isDev ? h('th', { class: 'num index', scope: 'col' }, '#') : undefined, h('th', { scope: 'col' }, 'Address'), h('th', { class: 'num', scope: 'col' }, 'Balance'), h('th', { class: 'num', scope: 'col' }, 'Nonce'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions'))),
        ),
        this.body,
      ),
      this.empty,
    )
  }

  show(accounts: AccountState[]): void {
    const isDev = this.stop === undefined
    this.body.replaceChildren(
      ...accounts.map((account, index) =>
        h(
          'tr',
          { testid: `account-${account.address}`, dataset: { address: account.address } },
          isDev ? h('td', { class: 'num index' }, index) : undefined,
          h('td', {}, explorerLink(account.address, account.address), ' ', copyButton(account.address, `address ${account.address}`)),
          h('td', { class: 'num', testid: 'balance' }, account.balance === undefined ? '…' : etherAmount(account.balance)),
          h('td', { class: 'num', testid: 'nonce' }, account.nonce === undefined ? '…' : account.nonce.toString()),
          h(
            'td',
            { class: 'actions' },
            h('a', { href: `#send/${account.address}`, class: 'button-link', 'aria-label': `Send from ${account.address}` }, 'Send from'),
            this.stop === undefined ? undefined : this.stopButton(account.address),
          ),
        ),
      ),
    )
    this.element.querySelector('table')!.hidden = accounts.length === 0
    if (this.empty) this.empty.hidden = accounts.length > 0
  }

  private stopButton(address: Hex): HTMLButtonElement {
    const button = h('button', { type: 'button', class: 'secondary', 'aria-label': `Stop impersonating ${address}` }, 'Stop')
    button.addEventListener('click', () => {
      button.disabled = true
      this.stop!(address).then(
        () => this.problem.replaceChildren(),
        (error: unknown) => {
          button.disabled = false
          this.problem.replaceChildren(failureView(error, 'stop-impersonating-error'))
        },
      )
    })
    return button
  }
}

function impersonateForm(session: Session): HTMLElement {
  const input = h('input', { name: 'impersonate', testid: 'impersonate-address', placeholder: '0x…', autocomplete: 'off', spellcheck: 'false', required: true })
  const outcome = h('div', { 'aria-live': 'polite' })
  const button = h('button', { type: 'submit', testid: 'impersonate' }, 'Impersonate')
  const form = h('form', { class: 'row', testid: 'impersonate-form', novalidate: true }, field('Address to impersonate', input), h('div', { class: 'field' }, button))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const read = readAddress(input.value)
    input.setAttribute('aria-invalid', String(!read.ok))
    if (!read.ok) {
      outcome.replaceChildren(h('p', { class: 'error', role: 'alert', testid: 'impersonate-problem' }, read.problem))
      return
    }
    button.disabled = true
    impersonation(session)
      .start(read.address)
      .then(
        () => {
          input.value = ''
          outcome.replaceChildren(h('p', { class: 'ok-text', testid: 'impersonate-ok' }, `Impersonating ${read.address}: it is now a sender in Send.`))
        },
        (error: unknown) => outcome.replaceChildren(failureView(error, 'impersonate-error')),
      )
      .finally(() => (button.disabled = false))
  })
  return h('div', {}, form, outcome)
}

function setBalanceForm(session: Session, refresh: () => void): HTMLElement {
  const known = h('datalist', { id: 'balance-known-addresses' })
  const fillKnown = () => known.replaceChildren(...[...session.accounts, ...impersonation(session).list].map((address) => h('option', { value: address })))
  fillKnown()
  impersonation(session).onChange(fillKnown)
  const address = h('input', { name: 'balance-address', testid: 'balance-address', placeholder: '0x…', list: known.id, autocomplete: 'off', spellcheck: 'false', required: true })
  const amount = h('input', { name: 'balance-amount', testid: 'balance-amount', inputmode: 'decimal', placeholder: '100', autocomplete: 'off', required: true })
  const button = h('button', { type: 'submit', testid: 'set-balance' }, 'Set balance')
  const outcome = h('div', { 'aria-live': 'polite' })
  const form = h(
    'form',
    { class: 'row', testid: 'set-balance-form', novalidate: true },
    field('Address', address),
    field('New balance (ETH)', amount),
    h('div', { class: 'field' }, button),
    known,
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const who = readAddress(address.value)
    const value = readEther(amount.value)
    address.setAttribute('aria-invalid', String(!who.ok))
    amount.setAttribute('aria-invalid', String(!value.ok))
    if (!who.ok || !value.ok) {
      const problems = [!who.ok ? `Address: ${who.problem}` : undefined, !value.ok ? `Balance: ${value.problem}` : undefined]
      outcome.replaceChildren(h('p', { class: 'error', role: 'alert', testid: 'set-balance-problem' }, problems.filter(Boolean).join(' ')))
      return
    }
    button.disabled = true
    session
      .request('anvil_setBalance', [who.address, `0x${value.wei.toString(16)}`])
      .then(
        () => {
          outcome.replaceChildren(h('p', { class: 'ok-text', testid: 'set-balance-ok' }, `${who.address} now holds ${exactEther(value.wei)} (anvil_setBalance; no block is mined).`))
          refresh()
        },
        (error: unknown) => outcome.replaceChildren(failureView(error, 'set-balance-error')),
      )
      .finally(() => (button.disabled = false))
  })
  return h('div', {}, h('p', { class: 'hint' }, 'anvil_setBalance: writes the balance of any address at once, without a transaction.'), form, outcome)
}
