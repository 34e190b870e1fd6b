/**
 * What became of a sent transaction: its hash (to the explorer and its trace), then, once it is in
 * a block, status, block, gas used and fee, and what it printed with console.log. Under manual or interval mining the receipt comes
 * later, so the view waits for new heads until the transaction is mined.
 */
import { formatEther } from 'viem'
import type { Hex, Session } from '../session.ts'
import { h } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import { explorerHref, traceHref } from '../ui/links.ts'
import { failureReason } from '../traces/failureReason.ts'
import { transactionLines } from '../consoleLog/printed.ts'
import { consoleLogView } from '../consoleLog/view.ts'

interface Receipt {
  status: Hex
  blockNumber: Hex
  gasUsed: Hex
  effectiveGasPrice: Hex
  contractAddress: Hex | null
}

export interface Outcome {
  readonly element: HTMLElement
  /** Stops waiting for the receipt (the view is being replaced). */
  dispose(): void
}

export function transactionOutcome(session: Session, hash: Hex, testid = 'tx-outcome'): Outcome {
  const status = h('dd', { testid: 'tx-status' }, 'pending: in the pool, waiting for a block')
  const block = h('dd', { testid: 'tx-block' }, '—')
  const gasUsed = h('dd', { testid: 'tx-gas-used' }, '—')
  const fee = h('dd', { testid: 'tx-fee' }, '—')
  const problem = h('div', {})
  const element = h(
    'div',
    { class: 'card outcome', testid, dataset: { status: 'pending', hash }, 'aria-live': 'polite' },
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Transaction'),
      h(
        'dd',
        {},
        h('a', { href: explorerHref(hash), class: 'hash', testid: 'tx-hash' }, hash),
        ' ',
        h('a', { href: traceHref(hash), class: 'button-link', testid: 'tx-trace' }, 'Trace'),
      ),
      h('dt', {}, 'Status'),
      status,
      h('dt', {}, 'Block'),
      block,
      h('dt', {}, 'Gas used'),
      gasUsed,
      h('dt', {}, 'Fee'),
      fee,
    ),
    problem,
  )

  let done = false
  let stopListening = () => {}
  const check = async () => {
    if (done) return
    try {
      const receipt = await session.request<Receipt | null>('eth_getTransactionReceipt', [hash])
      problem.replaceChildren()
      if (receipt === null || done) return
      done = true
      stopListening()
      const ok = receipt.status === '0x1'
      element.dataset.status = ok ? 'success' : 'reverted'
      status.replaceChildren(h('span', { class: ok ? 'ok-text' : 'error' }, ok ? 'success' : 'reverted'))
      const number = BigInt(receipt.blockNumber)
      block.replaceChildren(h('a', { href: explorerHref(number), testid: 'tx-block-link' }, number.toString()))
      const used = BigInt(receipt.gasUsed)
      gasUsed.textContent = used.toLocaleString('en-US')
      // Exact, not ether()'s 6 decimals: an L2 fee is often below a millionth of an ether.
      fee.textContent = `${formatEther(used * BigInt(receipt.effectiveGasPrice))} ETH (${used} gas × ${BigInt(receipt.effectiveGasPrice)} wei)`
      if (!ok) {
        const reason = await failureReason(session, hash).catch(() => undefined)
        status.append(reason === undefined ? ' (see the trace for why)' : h('span', { testid: 'tx-revert-reason' }, `: ${reason}`))
      }
      // A transfer to a contract can print too (its receive or fallback function).
      const printed = consoleLogView(await transactionLines(session, hash))
      if (printed) element.insertBefore(printed, problem)
    } catch (error) {
      problem.replaceChildren(failureView(error, 'tx-receipt-error'))
    }
  }
  stopListening = session.onHead(() => void check())
  void check()
  return {
    element,
    dispose() {
      done = true
      stopListening()
    },
  }
}
