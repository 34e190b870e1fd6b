/**
 * Send: a transfer from a dev or impersonated account (eth_sendTransaction: the node signs), and
 * a pasted signed transaction (eth_sendRawTransaction), decoded before it is sent. Each shows its
 * outcome (hash, status, block, gas, fee) or the JSON-RPC error under its own form.
 */
import { readAddress } from '../accounts/address.ts'
import { impersonation } from '../accounts/impersonation.ts'
import type { Panel } from '../panel.ts'
import type { Hex, Session } from '../session.ts'
import { readEther } from '../send/amount.ts'
import { revertedEstimate, sendAnywayOffer } from '../send/sendAnyway.ts'
import { transactionOutcome, type Outcome } from '../send/outcome.ts'
import { decodeRawTransaction, type DecodedTransaction } from '../send/rawTransaction.ts'
import { isBusy, setBusy } from '../ui/busy.ts'
import { field, h } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import { etherAmount } from '../ui/amount.ts'
import { explorerLink } from '../ui/links.ts'
import './send.css'

let selectSender: ((address: string) => void) | undefined
/** The sender's balance can change without a block (anvil_setBalance): re-read on show. */
let refreshSender: (() => void) | undefined

export const sendPanel: Panel = {
  id: 'send',
  title: 'Send',
  mount(root, session) {
    const transfer = transferForm(session)
    selectSender = transfer.selectSender
    refreshSender = transfer.refresh
    root.append(
      h('h2', {}, 'Send'),
      h('h3', {}, 'Transfer'),
      h('p', { class: 'hint' }, 'eth_sendTransaction: the node signs for its dev accounts and for impersonated addresses (impersonate one in Accounts).'),
      transfer.element,
      h('h3', {}, 'Send a signed transaction'),
      h('p', { class: 'hint' }, 'eth_sendRawTransaction: paste a transaction signed elsewhere (a wallet, viem’s signTransaction, cast mktx); it is decoded here first.'),
      rawForm(session),
    )
  },
  /** `#send/<address>` preselects that sender (Accounts links here). */
  show(argument) {
    if (argument !== undefined) selectSender?.(argument)
    else refreshSender?.()
  },
}

/** The outcome area under a form: one transaction's outcome or one error at a time. */
function outcomeArea(testid: string) {
  const element = h('div', { testid })
  let current: Outcome | undefined
  return {
    element,
    clear() {
      current?.dispose()
      current = undefined
      element.replaceChildren()
    },
    show(content: Outcome | HTMLElement) {
      this.clear()
      if (content instanceof HTMLElement) element.replaceChildren(content)
      else {
        current = content
        element.replaceChildren(content.element)
      }
    },
  }
}

function transferForm(session: Session) {
  const impersonated = impersonation(session)
  const from = h('select', { name: 'from', testid: 'send-from' })
  // The sender's balance is the field's hint (so the select is described by it), kept current.
  const fromField = field('From', from, '…')
  const fromBalance = fromField.querySelector<HTMLElement>('.hint')!
  fromBalance.dataset.testid = 'send-from-balance'
  const fillSenders = () => {
    const chosen = from.value
    const groups = [h('optgroup', { label: 'Dev accounts' }, ...session.accounts.map((address, i) => h('option', { value: address }, `${address} (dev #${i})`)))]
    if (impersonated.list.length > 0) groups.push(h('optgroup', { label: 'Impersonated' }, ...impersonated.list.map((address) => h('option', { value: address }, `${address} (impersonated)`))))
    from.replaceChildren(...groups)
    if ([...from.options].some((option) => option.value === chosen)) from.value = chosen
  }
  const showBalance = async () => {
    const address = from.value
    try {
      const balance = await session.request<string>('eth_getBalance', [address, 'latest'])
      if (from.value === address) fromBalance.replaceChildren('Balance: ', etherAmount(balance))
    } catch {
      fromBalance.textContent = ''
    }
  }
  fillSenders()
  impersonated.onChange(() => {
    fillSenders()
    void showBalance()
  })
  from.addEventListener('change', () => void showBalance())
  session.onHead(() => void showBalance())
  void showBalance()

  const known = h('datalist', { id: 'send-known-addresses' }, ...session.accounts.map((address) => h('option', { value: address })))
  const to = h('input', { name: 'to', testid: 'send-to', placeholder: '0x…', list: known.id, autocomplete: 'off', spellcheck: 'false', required: true })
  const amount = h('input', { name: 'amount', testid: 'send-amount', inputmode: 'decimal', placeholder: '1.5', value: '1', autocomplete: 'off', required: true })
  const data = h('textarea', { name: 'data', testid: 'send-data', rows: '2', placeholder: '0x (none)', spellcheck: 'false' })
  const problems = h('div', { 'aria-live': 'polite' })
  const button = h('button', { type: 'submit', testid: 'send-transfer' }, 'Send transfer')
  const outcome = outcomeArea('send-outcome')
  const form = h(
    'form',
    { testid: 'transfer-form', novalidate: true },
    h('div', { class: 'row' }, fromField, field('To', to)),
    h('div', { class: 'row' }, field('Amount (ETH)', amount), field('Data (optional)', data, 'Calldata as 0x hex, e.g. a function call.')),
    known,
    problems,
    button,
  )

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    if (isBusy(button)) return
    const recipient = readAddress(to.value)
    const value = readEther(amount.value)
    const input = data.value.trim() === '' ? '0x' : data.value.trim()
    const dataOk = /^0x([0-9a-fA-F]{2})*$/.test(input)
    to.setAttribute('aria-invalid', String(!recipient.ok))
    amount.setAttribute('aria-invalid', String(!value.ok))
    data.setAttribute('aria-invalid', String(!dataOk))
    const found = [
      recipient.ok ? undefined : `To: ${recipient.problem}`,
      value.ok ? undefined : `Amount: ${value.problem}`,
      dataOk ? undefined : 'Data: 0x followed by an even number of hex digits (whole bytes).',
    ].filter((problem) => problem !== undefined)
    problems.replaceChildren(...found.map((problem) => h('p', { class: 'error', role: 'alert', testid: 'send-problem' }, problem)))
    // A refused input leaves no earlier outcome on screen, as if it belonged to this input.
    outcome.clear()
    if (!recipient.ok || !value.ok || !dataOk) return
    setBusy(button, true)
    const transaction = { from: from.value, to: recipient.address, value: `0x${value.wei.toString(16)}`, ...(input === '0x' ? {} : { data: input }) }
    const transfer = (gas?: bigint): Promise<unknown> =>
      session.request<Hex>('eth_sendTransaction', [{ ...transaction, ...(gas === undefined ? {} : { gas: `0x${gas.toString(16)}` }) }]).then(
        (hash) => outcome.show(transactionOutcome(session, hash)),
        (error: unknown) => {
          const failure = failureView(error, 'send-error')
          // A revert in the estimate: offer to send it with a gas limit, to see it fail on chain.
          if (gas === undefined && revertedEstimate(error)) failure.append(sendAnywayOffer(transfer))
          outcome.show(failure)
        },
      )
    void transfer().finally(() => setBusy(button, false))
  })

  session.onRewind(() => outcome.clear())

  return {
    element: h('div', {}, form, outcome.element),
    refresh: () => void showBalance(),
    selectSender(address: string) {
      const wanted = address.toLowerCase()
      if ([...from.options].some((option) => option.value === wanted)) {
        from.value = wanted
        problems.replaceChildren()
        void showBalance()
      } else {
        problems.replaceChildren(h('p', { class: 'error', role: 'alert', testid: 'send-problem' }, `${address} is neither a dev account nor impersonated: impersonate it in Accounts to send from it.`))
      }
    },
  }
}

function rawForm(session: Session): HTMLElement {
  const raw = h('textarea', { name: 'raw', testid: 'raw-transaction', rows: '4', placeholder: '0x02f8…', spellcheck: 'false', required: true })
  const decodedView = h('div', { testid: 'raw-decoded', 'aria-live': 'polite' })
  const button = h('button', { type: 'submit', testid: 'send-raw', disabled: true }, 'Send raw transaction')
  const outcome = outcomeArea('raw-outcome')
  let decoded: { raw: Hex } | undefined
  // Decoding recovers the sender (async): only the latest paste's answer is shown.
  let generation = 0
  const decode = async () => {
    const mine = ++generation
    const result = await decodeRawTransaction(raw.value)
    if (mine !== generation) return
    decoded = result.ok ? { raw: result.raw } : undefined
    button.disabled = !result.ok
    raw.setAttribute('aria-invalid', String(!result.ok && raw.value.trim() !== ''))
    decodedView.replaceChildren(
      result.ok ? decodedFacts(result.decoded, session.chainId)
      : raw.value.trim() === '' ? ''
      : h('p', { class: 'error', role: 'alert', testid: 'raw-problem' }, result.problem),
    )
  }
  raw.addEventListener('input', () => void decode())
  const form = h('form', { testid: 'raw-form', novalidate: true }, field('Signed transaction (hex)', raw), decodedView, button)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    if (!decoded) return
    button.disabled = true
    outcome.clear()
    session
      .request<Hex>('eth_sendRawTransaction', [decoded.raw])
      .then(
        (hash) => outcome.show(transactionOutcome(session, hash, 'raw-tx-outcome')),
        (error: unknown) => outcome.show(failureView(error, 'raw-error')),
      )
      .finally(() => (button.disabled = decoded === undefined))
  })
  session.onRewind(() => outcome.clear())
  return h('div', {}, form, outcome.element)
}

function decodedFacts(tx: DecodedTransaction, chainId: number): HTMLElement {
  const wrongChain = tx.chainId !== undefined && tx.chainId !== chainId
  const dataBytes = (tx.data.length - 2) / 2
  return h(
    'dl',
    { class: 'facts decoded' },
    h('dt', {}, 'Type'),
    h('dd', {}, tx.type),
    h('dt', {}, 'Chain'),
    h('dd', { class: wrongChain ? 'error' : undefined }, tx.chainId === undefined ? 'none (pre-EIP-155: valid on any chain)' : String(tx.chainId), wrongChain ? ` — this node is chain ${chainId}; it will refuse it` : ''),
    h('dt', {}, 'From'),
    h('dd', { testid: 'raw-from' }, tx.from ?? '?'),
    h('dt', {}, 'To'),
    h('dd', { testid: 'raw-to' }, tx.to === undefined ? 'nobody: contract creation' : explorerLink(tx.to, tx.to)),
    h('dt', {}, 'Value'),
    h('dd', { testid: 'raw-value' }, etherAmount(tx.value)),
    h('dt', {}, 'Nonce'),
    h('dd', { testid: 'raw-nonce' }, tx.nonce === undefined ? '?' : String(tx.nonce)),
    h('dt', {}, 'Gas limit'),
    h('dd', {}, tx.gas === undefined ? '?' : tx.gas.toString()),
    h('dt', {}, 'Fee cap'),
    h('dd', {}, tx.feeCap === undefined ? '?' : `${tx.feeCap} wei per gas`),
    h('dt', {}, 'Data'),
    h('dd', {}, dataBytes === 0 ? 'none' : `${dataBytes} bytes${dataBytes >= 4 ? `, selector ${tx.data.slice(0, 10)}` : ''}`),
  )
}
