/**
 * What a call or a transaction did, shown where it was made: decoded return values, a
 * transaction's hash (to the explorer and its trace), status, gas, decoded events, console.log
 * lines, and for a revert its decoded reason beside the JSON-RPC error and code.
 */
import { decodeFunctionResult, type Abi, type AbiFunction, type Hex } from 'viem'
import type { Session } from '../session.ts'
import { h } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import { explorerHref, explorerLink, messagesHref, traceHref } from '../ui/links.ts'
import { decodeLog, namedOutputs, revertReason, type NamedValue } from './abiOutput.ts'
import { revertedEstimate, sendAnywayOffer } from '../send/sendAnyway.ts'
import { waitForReceipt, type Receipt } from './transactions.ts'
import { transactionLines } from '../consoleLog/printed.ts'
import { consoleLogView } from '../consoleLog/view.ts'

/** The values a call returned, one line each: `balance (uint256) 1000`. */
export function valuesView(values: NamedValue[], testid = 'returned'): HTMLElement {
  if (values.length === 0) return h('p', { class: 'hint', testid }, 'Returned nothing.')
  return h(
    'dl',
    { class: 'facts values', testid },
    values.flatMap((value) => [h('dt', {}, `${value.name ? `${value.name} ` : ''}(${value.type})`), h('dd', { class: 'mono', testid: 'value' }, value.value)]),
  )
}

/**
 * A failed request: the decoded revert reason (when there is revert data) above the RPC error.
 * `anyway`, for a send whose gas estimate reverted: the offer to send it with a gas limit of its
 * own, so that it is mined as a failed transaction.
 */
export function failureWithReason(abi: Abi, error: unknown, anyway?: (gas: bigint) => Promise<unknown>): HTMLElement {
  const data = typeof error === 'object' && error !== null ? (error as { data?: unknown }).data : undefined
  const reason = revertReason(abi, data)
  return h(
    'div',
    { class: 'outcome failed' },
    reason === undefined ? undefined : h('p', { class: 'revert', testid: 'revert-reason' }, h('strong', {}, 'Reverted: '), reason),
    failureView(error),
    anyway && revertedEstimate(error) ? sendAnywayOffer(anyway) : undefined,
  )
}

/**
 * Follows a sent transaction into `container`: pending until mined, then its receipt. Resolves
 * with the receipt (the caller reads contractAddress from it).
 */
export async function followTransaction(container: HTMLElement, session: Session, abi: Abi, hash: Hex, fn?: AbiFunction): Promise<Receipt | undefined> {
  const status = h('dd', { testid: 'tx-status', dataset: { status: 'pending' } }, 'pending: waiting for a block')
  const facts = h(
    'dl',
    { class: 'facts' },
    h('dt', {}, 'Transaction'),
    h('dd', {}, explorerLink(hash), ' · ', h('a', { href: traceHref(hash), testid: 'trace-link' }, 'call trace')),
    h('dt', {}, 'Status'),
    status,
  )
  container.replaceChildren(h('div', { class: 'outcome', testid: 'tx' }, facts))
  let receipt: Receipt
  try {
    receipt = await waitForReceipt(session, hash)
  } catch (error) {
    container.append(failureView(error))
    return undefined
  }
  const succeeded = receipt.status === '0x1'
  status.textContent = succeeded ? 'success' : 'reverted'
  status.dataset.status = succeeded ? 'success' : 'reverted'
  status.className = succeeded ? 'ok-text' : 'error'
  const block = BigInt(receipt.blockNumber)
  facts.append(
    h('dt', {}, 'Block'),
    h('dd', {}, h('a', { href: explorerHref(block) }, `#${block}`), receipt.l1BatchNumber ? ` · L1 batch ${BigInt(receipt.l1BatchNumber)}` : ''),
    h('dt', {}, 'Gas used'),
    h('dd', { testid: 'gas-used' }, BigInt(receipt.gasUsed).toLocaleString('en-US')),
  )
  if (receipt.contractAddress) facts.append(h('dt', {}, 'Contract'), h('dd', { testid: 'contract-address' }, explorerLink(receipt.contractAddress, receipt.contractAddress)))

  // What the call returned, or why it reverted: from the node's call trace (best effort).
  const trace = fn || !succeeded ? await callTrace(session, hash) : undefined
  if (succeeded && fn && fn.outputs.length > 0 && trace?.output) {
    try {
      const decoded = decodeFunctionResult({ abi: [fn], functionName: fn.name, data: trace.output })
      facts.append(h('dt', {}, 'Returned'), h('dd', {}, valuesView(namedOutputs(fn.outputs, decoded))))
    } catch {
      // an output the ABI does not describe: leave it out
    }
  }
  if (!succeeded) {
    const reason = revertReason(abi, trace?.output) ?? trace?.revertReason ?? trace?.error
    if (reason) facts.append(h('dt', {}, 'Reason'), h('dd', { testid: 'revert-reason' }, reason))
  }

  const events = receipt.logs.map((log) => decodeLog(abi, log))
  facts.append(
    h('dt', {}, `Events (${events.length})`),
    h(
      'dd',
      {},
      events.length === 0
        ? 'none'
        : h(
            'ul',
            { class: 'events', testid: 'events' },
            events.map((event) => h('li', { class: 'mono' }, event.text ?? `unknown event, topic ${event.topics[0] ?? '(none)'}`, ' ', h('span', { class: 'hint' }, 'from '), explorerLink(event.address))),
          ),
    ),
  )
  const printed = consoleLogView(await transactionLines(session, hash))
  if (printed) facts.append(h('dt', {}, 'console.log'), h('dd', {}, printed))
  const l2ToL1 = receipt.l2ToL1Logs?.length ?? 0
  if (l2ToL1 > 0) facts.append(h('dt', {}, 'L2→L1 logs'), h('dd', { testid: 'l2-to-l1' }, `${l2ToL1} · `, h('a', { href: messagesHref(hash) }, 'its proof and the recomputed root')))
  return receipt
}

interface CallFrame {
  output?: Hex
  error?: string
  revertReason?: string
}

async function callTrace(session: Session, hash: Hex): Promise<CallFrame | undefined> {
  try {
    return await session.request<CallFrame>('debug_traceTransaction', [hash, { tracer: 'callTracer' }])
  } catch {
    return undefined
  }
}
