/**
 * A deployed contract as a card of forms, one per ABI function: views and pure functions are
 * called (eth_call) and show their decoded result; the others send a transaction from the chosen
 * account and show its hash, status, gas and events; payable ones get a value field. With a
 * paymaster's address given, writes are 0x71 transactions whose fee that paymaster pays.
 */
import { encodeFunctionData, decodeFunctionResult, toFunctionSignature, type AbiFunction } from 'viem'
import type { Hex, Session } from '../session.ts'
import { isBusy, setBusy } from '../ui/busy.ts'
import { field, h, uniqueId } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import { explorerLink } from '../ui/links.ts'
import { namedOutputs } from './abiOutput.ts'
import { argumentFields } from './argumentFields.ts'
import type { Deployment } from './deployments.ts'
import { failureWithReason, followTransaction, valuesView } from './outcome.ts'
import { send } from './transactions.ts'
import { sendWithPaymaster } from './paymasterWrite.ts'
import { readAddress } from '../accounts/address.ts'
import { accountSelect } from './accountSelect.ts'
import { callWithLines } from '../consoleLog/printed.ts'
import { consoleLogView } from '../consoleLog/view.ts'

export function deployedView(session: Session, deployment: Deployment, onForget: () => void): HTMLElement {
  const from = accountSelect(session, 'Send from', deployment.deployer)
  const paymaster = h('input', { name: 'paymaster', class: 'mono', placeholder: '0x… (none: the sender pays)', autocomplete: 'off', spellcheck: 'false' })
  const functions = deployment.abi.filter((item): item is AbiFunction => item.type === 'function')
  // Reads first (what one usually tries first), each group in the ABI's (alphabetical) order.
  const reads = functions.filter(isRead)
  const writes = functions.filter((fn) => !isRead(fn))
  const headingId = uniqueId('deployment')
  return h(
    'article',
    { class: 'card deployment', testid: 'deployment', dataset: { address: deployment.address.toLowerCase(), name: deployment.name }, 'aria-labelledby': headingId, tabindex: '-1' },
    h(
      'header',
      { class: 'deployment-head' },
      h('h4', { id: headingId }, deployment.name, ' ', h('span', { class: 'hint' }, 'at '), explorerLink(deployment.address, deployment.address)),
      h('button', { type: 'button', class: 'secondary small', onclick: onForget, 'aria-label': `Forget ${deployment.name} at ${deployment.address}` }, 'Forget'),
    ),
    h(
      'div',
      { class: 'row' },
      from.field,
      field('Paid by paymaster at (optional)', paymaster, 'Writes become 0x71 transactions with paymasterParams (general flow), signed in this page with the dev account’s key: the paymaster pays the fee, so the sender needs no ETH.'),
    ),
    functions.length === 0 ? h('p', { class: 'hint' }, 'This contract has no functions.') : undefined,
    reads.length > 0 ? h('h5', {}, 'Read') : undefined,
    reads.map((fn) => functionForm(session, deployment, fn, from.select)),
    writes.length > 0 ? h('h5', {}, 'Write') : undefined,
    writes.map((fn) => functionForm(session, deployment, fn, from.select, paymaster)),
  )
}

const isRead = (fn: AbiFunction): boolean => fn.stateMutability === 'view' || fn.stateMutability === 'pure'

function functionForm(session: Session, deployment: Deployment, fn: AbiFunction, from: HTMLSelectElement, paymaster?: HTMLInputElement): HTMLFormElement {
  const read = isRead(fn)
  const fields = argumentFields(fn.inputs, fn.stateMutability === 'payable')
  const result = h('div', { class: 'result', testid: 'result', 'aria-live': 'polite' })
  const signature = toFunctionSignature(fn)
  const button = h('button', { type: 'submit', class: read ? 'secondary' : undefined }, read ? 'Call' : 'Send')
  const returns = fn.outputs.length > 0 ? ` → ${fn.outputs.map((o) => o.type).join(', ')}` : ''
  // The button ends the fields' row (a function without parameters: one line with its name).
  fields.element.append(h('div', { class: 'actions' }, button))
  const compact = fn.inputs.length === 0 && fn.stateMutability !== 'payable'
  const form = h(
    'form',
    { class: ['function', compact && 'compact', read ? 'read' : 'write'].filter(Boolean).join(' '), testid: `fn-${fn.name}`, dataset: { signature }, 'aria-label': signature, novalidate: true },
    h('p', { class: 'signature mono' }, h('strong', {}, fn.name), `(${fn.inputs.map((i) => `${i.type}${i.name ? ` ${i.name}` : ''}`).join(', ')})`, h('span', { class: 'hint' }, ` ${fn.stateMutability}${returns}`)),
    fields.element,
    result,
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    if (isBusy(button)) return
    const values = fields.read()
    if (!values) {
      result.replaceChildren()
      return
    }
    let data: Hex
    try {
      data = encodeFunctionData({ abi: [fn], functionName: fn.name, args: values.args })
    } catch (error) {
      result.replaceChildren(failureView(error))
      return
    }
    setBusy(button, true)
    result.replaceChildren(h('p', { class: 'hint' }, read ? 'Calling…' : 'Sending…'))
    const done = () => setBusy(button, false)
    const sender = from.value as Hex
    if (read) {
      // What the call printed with console.log goes under its result (or its revert).
      void callWithLines(session, () => session.request<Hex>('eth_call', [{ from: sender, to: deployment.address, data }, 'latest']))
        .then(({ outcome, lines }) => {
          const printed = consoleLogView(lines)
          const show = (shown: HTMLElement) => result.replaceChildren(...(printed ? [shown, printed] : [shown]))
          if (outcome.status === 'rejected') return show(failureWithReason(deployment.abi, outcome.reason))
          try {
            show(valuesView(namedOutputs(fn.outputs, decodeFunctionResult({ abi: [fn], functionName: fn.name, data: outcome.value }))))
          } catch (error) {
            show(failureView(error))
          }
        })
        .finally(done)
    } else if (paymaster && paymaster.value.trim() !== '') {
      const address = readAddress(paymaster.value)
      paymaster.setAttribute('aria-invalid', String(!address.ok))
      if (!address.ok) {
        result.replaceChildren(h('p', { class: 'error', role: 'alert' }, `Paid by paymaster at: ${address.problem}`))
        done()
        return
      }
      void sendWithPaymaster(session, { from: sender, to: deployment.address, data, value: values.value, paymaster: address.address })
        .then((hash) => followTransaction(result, session, deployment.abi, hash, fn))
        .catch((error: unknown) => result.replaceChildren(failureWithReason(deployment.abi, error)))
        .finally(done)
    } else {
      paymaster?.removeAttribute('aria-invalid')
      const transact = (gas?: bigint): Promise<unknown> =>
        send(session, { from: sender, to: deployment.address, data, value: values.value, gas })
          .then((hash) => followTransaction(result, session, deployment.abi, hash, fn))
          .catch((error: unknown) => result.replaceChildren(failureWithReason(deployment.abi, error, gas === undefined ? transact : undefined)))
      void transact().finally(done)
    }
  })
  return form
}
