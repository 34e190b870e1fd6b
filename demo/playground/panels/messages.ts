/**
 * L2→L1 messages: send one through ZKsync's L1Messenger (0x…8008 `sendToL1(bytes)`), then follow
 * it: the receipt's `l2ToL1Logs` and the L1MessageSent event, the batch it landed in (no proof
 * exists until that batch seals), the proof from zks_getL2ToL1LogProof and the root recomputed
 * here from the leaf and the path. `#messages/<tx hash>` opens a message; past ones are listed
 * from the messenger's logs.
 */
import type { Hex } from 'viem'
import type { Panel } from '../panel.ts'
import { field, h, uniqueId } from '../ui/dom.ts'
import { readAddress } from '../accounts/address.ts'
import { readEther } from '../send/amount.ts'
import { etherAmount } from '../ui/amount.ts'
import { failureView } from '../ui/errors.ts'
import { shortHash } from '../ui/format.ts'
import { explorerHref, explorerLink, messagesHref } from '../ui/links.ts'
import { L1_MESSAGE_SENT_TOPIC, L1_MESSENGER, messageBytes, messageText, sendToL1Data, type MessageKind, type SentMessage } from '../messages/messenger.ts'
import { provenLogView } from '../messages/proofView.ts'
import { messageState, pastMessages, type MessageState, type Request } from '../messages/status.ts'
import { decodeWithdrawal, L2_BASE_TOKEN, withdrawData } from '../messages/withdrawal.ts'
import './messages.css'

const TX_HASH = /^0x[0-9a-fA-F]{64}$/
/** While a message waits (to be mined, for its batch to seal), how often to look again. */
const WAIT_POLL_MS = 1_000

/** A message by what it says: a withdrawal decoded, else its text when printable, else its bytes. */
function messageView(message: Hex, sender: Hex): HTMLElement {
  const withdrawal = decodeWithdrawal(message, sender)
  if (withdrawal) {
    return h(
      'span',
      { testid: 'withdrawal' },
      'withdrawal of ',
      etherAmount(withdrawal.amount),
      ' to ',
      h('span', { class: 'hash' }, withdrawal.l1Receiver),
      withdrawal.sender ? [' from ', h('span', { class: 'hash' }, withdrawal.sender), ` with ${(withdrawal.data!.length - 2) / 2} bytes of data`] : [],
      ' ',
      h(
        'span',
        { class: 'hint hash', title: message },
        `(finalizeEthWithdrawal ${withdrawal.selector} · receiver ${withdrawal.l1Receiver} · amount ${withdrawal.amount} wei)`,
      ),
    )
  }
  const text = messageText(message)
  return text === undefined ? h('span', { class: 'hash' }, message) : h('span', {}, h('q', {}, text), ' ', h('span', { class: 'hint hash' }, message))
}

function facts(rows: [string, Node | string][]): HTMLDListElement {
  return h('dl', { class: 'facts' }, ...rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]))
}

function eventView(message: SentMessage, index: number): HTMLElement {
  return h(
    'div',
    { class: 'card', testid: 'message-event' },
    h('h4', {}, `L1MessageSent event ${index}`),
    facts([
      ['address', h('span', { class: 'hash' }, L1_MESSENGER)],
      ['topic 0', h('span', { class: 'hash' }, `${L1_MESSAGE_SENT_TOPIC} (L1MessageSent(address,bytes32,bytes))`)],
      ['_sender', h('span', { class: 'hash' }, message.sender)],
      ['_hash', h('span', { class: 'hash' }, message.hash)],
      ['_message', messageView(message.message, message.sender)],
      ['keccak256(_message) = _hash', message.hashMatches ? h('span', { class: 'ok-text' }, 'yes ✓') : h('span', { class: 'error' }, 'no ✗')],
    ]),
  )
}

/** The mounted panel's handler for `#messages/<tx hash>` (set by mount). */
let showMessage: ((argument: string | undefined) => void) | undefined

export const messagesPanel: Panel = {
  id: 'messages',
  title: 'L2→L1 messages',
  mount(root, session, navigator) {
    const request: Request = (method, params) => session.request(method, params)

    // --- Sending ---------------------------------------------------------------------------
    const fromSelect = h('select', { name: 'from', testid: 'message-from' }, ...session.accounts.map((account, i) => h('option', { value: account }, `${i} · ${account}`)))
    const kindName = uniqueId('message-kind')
    const kindRadio = (kind: MessageKind, label: string) => {
      const input = h('input', { type: 'radio', name: kindName, value: kind, id: uniqueId('kind'), checked: kind === 'text' })
      return h('label', { class: 'inline', for: input.id }, input, ` ${label}`)
    }
    const kindFieldset = h('fieldset', { class: 'field kind' }, h('legend', {}, 'Message is'), kindRadio('text', 'text (UTF-8)'), kindRadio('hex', 'hex bytes'))
    const messageInput = h('textarea', { name: 'message', testid: 'message-input', rows: '3', spellcheck: 'false', required: true }, 'Hello from L2')
    const inputError = h('p', { class: 'error', role: 'alert', testid: 'message-input-error', id: uniqueId('message-error'), hidden: true })
    const sendButton = h('button', { type: 'submit', testid: 'send-message' }, 'Send to L1')
    const sendOutcome = h('div', { testid: 'send-outcome', 'aria-live': 'polite' })
    const kind = (): MessageKind => (kindFieldset.querySelector<HTMLInputElement>('input:checked')?.value as MessageKind) ?? 'text'

    const form = h(
      'form',
      { class: 'card', 'aria-label': 'Send an L2→L1 message' },
      h('h3', {}, 'Send a message'),
      h('div', { class: 'row' }, field('From (a dev account; the node signs)', fromSelect), kindFieldset),
      field('Message', messageInput, 'Sent as eth_sendTransaction to 0x…8008 with sendToL1(bytes). L1 would receive its keccak256 hash as the log value.'),
      inputError,
      h('div', { class: 'row' }, sendButton),
      sendOutcome,
    )
    messageInput.setAttribute('aria-describedby', `${messageInput.getAttribute('aria-describedby') ?? ''} ${inputError.id}`.trim())

    /** Sends a transaction from a dev account, then follows it here to its message and proof. */
    async function sendAndFollow(transaction: Record<string, string>, button: HTMLButtonElement, outcome: HTMLElement, errorId: string): Promise<void> {
      button.disabled = true
      outcome.replaceChildren(h('p', { class: 'hint' }, 'Sending…'))
      try {
        const hash = await session.request<Hex>('eth_sendTransaction', [transaction])
        outcome.replaceChildren(h('p', { class: 'hint' }, 'Sent: ', h('a', { href: messagesHref(hash), class: 'hash' }, shortHash(hash))))
        navigator.open('messages', hash)
      } catch (error) {
        outcome.replaceChildren(failureView(error, errorId))
      } finally {
        button.disabled = false
      }
    }

    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      let message: Hex
      try {
        message = messageBytes(messageInput.value, kind())
      } catch (error) {
        inputError.textContent = (error as Error).message
        inputError.hidden = false
        messageInput.setAttribute('aria-invalid', 'true')
        messageInput.focus()
        return
      }
      inputError.hidden = true
      messageInput.removeAttribute('aria-invalid')
      await sendAndFollow({ from: fromSelect.value, to: L1_MESSENGER, data: sendToL1Data(message) }, sendButton, sendOutcome, 'send-error')
    })

    // --- Withdrawing ETH: L2BaseToken's withdraw(l1Receiver) sends the message L1 finalizes --------
    const withdrawFrom = h('select', { name: 'withdraw-from', testid: 'withdraw-from' }, ...session.accounts.map((account, i) => h('option', { value: account }, `${i} · ${account}`)))
    const withdrawAmount = h('input', { name: 'withdraw-amount', testid: 'withdraw-amount', inputmode: 'decimal', placeholder: '0.5', value: '1', autocomplete: 'off', required: true })
    const withdrawReceiver = h('input', { name: 'l1-receiver', testid: 'withdraw-receiver', placeholder: '0x…', value: session.accounts[0] ?? '', autocomplete: 'off', spellcheck: 'false', required: true })
    const withdrawProblems = h('div', { 'aria-live': 'polite' })
    const withdrawButton = h('button', { type: 'submit', testid: 'withdraw' }, 'Withdraw')
    const withdrawOutcome = h('div', { testid: 'withdraw-outcome', 'aria-live': 'polite' })
    const withdrawForm = h(
      'form',
      { class: 'card', 'aria-label': 'Withdraw ETH to L1', novalidate: true },
      h('h3', {}, 'Withdraw ETH to L1'),
      h('div', { class: 'row' }, field('From (a dev account; the node signs)', withdrawFrom), field('Amount (ETH)', withdrawAmount)),
      field('L1 receiver', withdrawReceiver, 'Sent as eth_sendTransaction to L2BaseToken (0x…800a) with withdraw(l1Receiver) and the amount as value: the ETH is burnt on L2 and the message L1’s finalizeEthWithdrawal reads is sent to L1.'),
      withdrawProblems,
      h('div', { class: 'row' }, withdrawButton),
      withdrawOutcome,
    )

    withdrawForm.addEventListener('submit', async (event) => {
      event.preventDefault()
      const amount = readEther(withdrawAmount.value)
      const receiver = readAddress(withdrawReceiver.value)
      withdrawAmount.setAttribute('aria-invalid', String(!amount.ok))
      withdrawReceiver.setAttribute('aria-invalid', String(!receiver.ok))
      const found = [amount.ok ? undefined : `Amount: ${amount.problem}`, receiver.ok ? undefined : `L1 receiver: ${receiver.problem}`].filter((problem) => problem !== undefined)
      withdrawProblems.replaceChildren(...found.map((problem) => h('p', { class: 'error', role: 'alert', testid: 'withdraw-problem' }, problem)))
      withdrawOutcome.replaceChildren()
      if (!amount.ok || !receiver.ok) return
      await sendAndFollow(
        { from: withdrawFrom.value, to: L2_BASE_TOKEN, value: `0x${amount.wei.toString(16)}`, data: withdrawData(receiver.address) },
        withdrawButton,
        withdrawOutcome,
        'withdraw-error',
      )
    })

    // --- One message, followed to its proof --------------------------------------------------
    const detail = h('section', { class: 'message-detail', testid: 'message-detail', 'aria-live': 'polite', 'aria-label': 'Selected message' })
    let current: Hex | undefined
    let generation = 0
    let shownKey = ''
    let waitTimer: ReturnType<typeof setTimeout> | undefined

    const mineButton = (label: string) => {
      const button = h('button', { type: 'button', class: 'secondary', testid: 'mine-now' }, label)
      const outcome = h('div', { 'aria-live': 'polite' })
      button.addEventListener('click', async () => {
        button.disabled = true
        try {
          await session.request('evm_mine')
          outcome.replaceChildren()
          if (current) void load(current)
        } catch (error) {
          outcome.replaceChildren(failureView(error, 'mine-error'))
        } finally {
          button.disabled = false
        }
      })
      return [button, outcome]
    }

    function stage(state: string, ...children: (Node | string)[]): HTMLElement {
      return h('div', { class: `message-stage stage-${state}`, testid: 'message-stage', dataset: { stage: state } }, ...children)
    }

    function render(state: MessageState): void {
      const heading = h('h3', {}, 'Message in transaction ', h('a', { href: explorerHref(state.hash), class: 'hash', title: state.hash }, shortHash(state.hash)))
      if (state.stage === 'unknown') {
        detail.replaceChildren(heading, stage('unknown', h('p', { class: 'error', role: 'alert' }, 'This chain has no such transaction (a reset or a revert may have removed it).')))
        return
      }
      if (state.stage === 'pending') {
        detail.replaceChildren(
          heading,
          stage('pending', h('p', {}, 'Waiting for the transaction to be mined: it is in the pool, and mining is not automatic right now.'), h('div', { class: 'row' }, ...mineButton('Mine a block now (evm_mine)'))),
        )
        return
      }
      const { receipt, messages } = state
      const block = BigInt(receipt.blockNumber)
      const overview = facts([
        ['transaction', explorerLink(state.hash, state.hash)],
        ['status', receipt.status === '0x1' ? 'success' : 'reverted: no message was sent'],
        ['block', h('a', { href: explorerHref(block) }, String(block))],
        ['L1 batch', Number.isNaN(state.batch) ? '?' : h('a', { href: explorerHref(`batch:${state.batch}`), testid: 'message-batch' }, String(state.batch))],
        ['message', messages.length === 0 ? '—' : h('span', { testid: 'message-text' }, ...messages.map((m) => messageView(m.message, m.sender)))],
      ])
      const parts: (Node | string)[] = [heading, overview]
      parts.push(h('h4', {}, 'Receipt: l2ToL1Logs'), h('pre', { class: 'json', testid: 'l2tol1-logs' }, JSON.stringify(receipt.l2ToL1Logs, null, 2)))
      parts.push(...messages.map(eventView))
      if (!state.sealed) {
        parts.push(
          stage(
            'batch-open',
            h('p', { testid: 'waiting-batch' }, `Waiting for batch ${Number.isNaN(state.batch) ? '?' : state.batch} to seal: a batch’s logs can be proven only once it is sealed.`),
            h('p', { class: 'hint' }, 'A batch seals once it holds its maximum number of blocks or reaches its maximum age. Mining a block adds one to it.'),
            h('div', { class: 'row' }, ...mineButton('Mine a block (evm_mine)')),
          ),
        )
      } else {
        parts.push(
          stage(
            'sealed',
            h('h4', {}, `Batch ${state.batch}`),
            facts([
              ['status (zks_getL1BatchDetails)', state.details.status],
              ['blocks', `${state.blocks[0]} – ${state.blocks[1]}`],
              ['L2 transactions', String(state.details.l2TxCount)],
              ['rootHash (its state root)', h('span', { class: 'hash' }, state.details.rootHash)],
            ]),
            h('p', { class: 'hint' }, 'The L2→L1 logs root is not in the batch details: it is rebuilt here from the batch’s logs and compared with the proof’s root.'),
            ...(state.proofs.length === 0 ? [h('p', {}, 'This transaction sent no L2→L1 log.')] : state.proofs.map((proven) => provenLogView(proven, state.batch, state.batchLogs))),
          ),
        )
      }
      detail.replaceChildren(...parts)
    }

    const keyOf = (state: MessageState) =>
      state.stage === 'mined' ? `mined:${state.receipt.blockHash}:${state.sealed}:${state.batch}` : `${state.stage}:${state.hash}`

    async function load(hash: Hex): Promise<void> {
      const mine = ++generation
      clearTimeout(waitTimer)
      let state: MessageState
      try {
        state = await messageState(request, hash)
      } catch (error) {
        if (mine === generation) detail.replaceChildren(failureView(error, 'message-error'))
        return
      }
      if (mine !== generation || current !== hash) return
      // Re-render only when something changed, so polling does not steal focus from a button.
      const key = keyOf(state)
      if (key !== shownKey) {
        shownKey = key
        render(state)
      }
      const waiting = state.stage === 'pending' || (state.stage === 'mined' && !state.sealed)
      if (waiting) waitTimer = setTimeout(() => void load(hash), WAIT_POLL_MS)
    }

    function select(hash: Hex): void {
      current = hash
      shownKey = ''
      detail.replaceChildren(h('p', { class: 'hint' }, `Loading ${shortHash(hash)}…`))
      void load(hash)
    }

    // --- Past messages ----------------------------------------------------------------------
    const historyBody = h('tbody', {})
    const historyNote = h('p', { class: 'hint', testid: 'message-history-note' })
    const history = h(
      'section',
      { 'aria-label': 'Messages sent on this chain' },
      h('h3', {}, 'Messages sent on this chain'),
      h(
        'table',
        { testid: 'message-history' },
        h('thead', {}, h('tr', {}, h('th', { class: 'num' }, 'block'), h('th', {}, 'sender'), h('th', {}, 'message'), h('th', {}, 'transaction'))),
        historyBody,
      ),
      historyNote,
    )
    let refreshing: Promise<void> | undefined
    let again = false

    async function refreshHistory(): Promise<void> {
      if (refreshing) {
        again = true
        return refreshing
      }
      refreshing = (async () => {
        try {
          const head = BigInt(await session.request<Hex>('eth_blockNumber'))
          const messages = await pastMessages(request, head, L1_MESSAGE_SENT_TOPIC, L1_MESSENGER)
          historyBody.replaceChildren(
            ...messages.map((m) =>
              h(
                'tr',
                { dataset: { tx: m.transactionHash } },
                h('td', { class: 'num' }, h('a', { href: explorerHref(m.blockNumber) }, String(m.blockNumber))),
                h('td', {}, explorerLink(m.sender)),
                h('td', {}, messageView(m.message, m.sender)),
                h('td', {}, h('a', { href: messagesHref(m.transactionHash), class: 'hash', title: `Follow ${m.transactionHash} to its proof` }, shortHash(m.transactionHash))),
              ),
            ),
          )
          const span = head >= 10_000n ? `the last 10,000 blocks` : 'all blocks'
          historyNote.textContent = messages.length === 0 ? `No message sent yet (searched ${span}).` : `${messages.length} L1MessageSent event${messages.length === 1 ? '' : 's'} in ${span}, newest first.`
        } catch (error) {
          historyNote.replaceChildren(failureView(error, 'history-error'))
        }
      })()
      await refreshing
      refreshing = undefined
      if (again) {
        again = false
        await refreshHistory()
      }
    }

    session.onHead(() => {
      void refreshHistory()
      if (current) void load(current)
    })

    root.append(
      h('h2', {}, 'L2→L1 messages'),
      h('p', { class: 'hint' }, 'A contract or account on L2 sends a message to L1 through the L1Messenger system contract. Once the message’s batch is sealed, zks_getL2ToL1LogProof proves its log against the batch root, and this page checks that proof itself.'),
      form,
      withdrawForm,
      detail,
      history,
    )
    void refreshHistory()

    showMessage = (argument) => {
      if (argument !== undefined && TX_HASH.test(argument) && argument.toLowerCase() !== current?.toLowerCase()) select(argument.toLowerCase() as Hex)
      else if (argument === undefined && current === undefined) detail.replaceChildren(h('p', { class: 'hint' }, 'Send a message, or pick one below, to follow it to its proof.'))
    }
  },
  show(argument) {
    showMessage?.(argument)
  },
}
