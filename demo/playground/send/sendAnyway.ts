/**
 * "Send anyway": a transaction whose gas estimate reverts is refused before it is sent (the node
 * estimates a gas limit for eth_sendTransaction, and the estimate runs it). With a gas limit of
 * its own the node skips the estimate, so the transaction is mined, fails in its block, and can be
 * looked up and traced like any other — what a developer most wants to inspect.
 */
import { field, h } from '../ui/dom.ts'
import { isBusy, setBusy } from '../ui/busy.ts'

/** The default limit offered: room for most contract calls and deployments, under the block's limit. */
export const SEND_ANYWAY_GAS = 3_000_000n

/** JSON-RPC's "execution reverted": the estimate (or call) ran the transaction and it reverted. */
export function revertedEstimate(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 3
}

/**
 * The offer under a refused send: a gas limit field and a button that sends with it. `sendWith`
 * sends and shows the outcome (the caller's own view); the offer stays busy until it settles.
 */
export function sendAnywayOffer(sendWith: (gas: bigint) => Promise<unknown>): HTMLElement {
  const gas = h('input', { name: 'gas', testid: 'send-anyway-gas', inputmode: 'numeric', autocomplete: 'off', value: SEND_ANYWAY_GAS.toString() })
  const button = h('button', { type: 'button', class: 'secondary', testid: 'send-anyway' }, 'Send anyway')
  const problem = h('p', { class: 'error', role: 'alert', testid: 'send-anyway-problem', hidden: true })
  // Not a form: it shows inside the form whose send was refused, and forms do not nest.
  const group = h(
    'div',
    { class: 'send-anyway row', role: 'group', testid: 'send-anyway-form', 'aria-label': 'Send anyway with a gas limit' },
    field('Gas limit', gas, 'It will revert: sent with this limit, it is mined as a failed transaction you can open and trace.'),
    h('div', { class: 'field' }, button),
    problem,
  )
  gas.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return
    // Enter would submit the form around the offer: here it sends anyway.
    event.preventDefault()
    button.click()
  })
  button.addEventListener('click', () => {
    if (isBusy(button)) return
    const text = gas.value.trim().replaceAll(/[,_\s]/g, '')
    const limit = /^\d+$/.test(text) ? BigInt(text) : undefined
    const ok = limit !== undefined && limit >= 21_000n
    gas.setAttribute('aria-invalid', String(!ok))
    problem.hidden = ok
    problem.textContent = ok ? '' : 'Gas limit: a whole number, at least 21000.'
    if (!ok) return
    setBusy(button, true)
    void sendWith(limit).finally(() => setBusy(button, false))
  })
  return group
}
