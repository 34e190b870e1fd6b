/**
 * Time travel: the latest block's time, evm_increaseTime (moves the node's clock forward by
 * seconds; every later block is that much later) and evm_setNextBlockTimestamp (unix seconds,
 * for the next block only). Both take effect when the next block is mined.
 */
import type { Session } from '../session.ts'
import { field, h } from '../ui/dom.ts'
import { dateTime } from '../ui/format.ts'
import { runAction } from './action.ts'

export interface TimeSection {
  element: HTMLElement
  /** A new head: show its time. */
  showHead(number: bigint, timestamp: bigint): void
  /** The node's clock offset (pagenode_devSettings): kept with the chain, so shown after a reload too. */
  showOffset(seconds: number): void
}

export function timeSection(session: Session, mine: () => Promise<void>): TimeSection {
  const latest = h('dd', { testid: 'latest-block-time' }, '…')
  const latestNumber = h('dd', { testid: 'latest-block-number' }, '…')
  const offsetFact = h('dd', { testid: 'clock-offset' }, '…')
  const note = h('p', { 'aria-live': 'polite', testid: 'time-note' })
  const problem = h('div', {})

  // Time travel shows only once a block is mined: offer it right where the change was made.
  const mineButton = h('button', { type: 'button', class: 'secondary', testid: 'time-mine' }, 'Mine it now')
  mineButton.addEventListener('click', () => void runAction(mineButton, problem, 'time-error', mine))

  const seconds = h('input', { type: 'number', min: '1', step: '1', value: '3600', name: 'increase-seconds', testid: 'increase-seconds', inputmode: 'numeric' })
  const increase = h('button', { type: 'submit', testid: 'increase-time' }, 'Move the clock forward')
  const increaseForm = h('form', { class: 'row', novalidate: true }, field('Seconds', seconds, '3600 = an hour, 86400 = a day'), h('div', { class: 'field' }, increase))
  increaseForm.addEventListener('submit', (event) => {
    event.preventDefault()
    void runAction(increase, problem, 'time-error', async () => {
      const value = wholeNumber(seconds.value, 'the seconds to add')
      const offset = await session.request<number>('evm_increaseTime', [value])
      note.textContent = `Clock moved forward ${value} s (offset now ${offset} s): the next block is stamped that much later.`
      showOffset(Number(offset))
    })
  })

  const timestamp = h('input', { type: 'number', min: '0', step: '1', name: 'next-timestamp', testid: 'next-timestamp', inputmode: 'numeric' })
  const timestampHint = h('span', {}, '')
  const setNext = h('button', { type: 'submit', testid: 'set-next-timestamp' }, 'Set')
  const nextField = field('Next block’s timestamp (unix seconds)', timestamp, ' ')
  nextField.querySelector('.hint')!.replaceChildren(timestampHint)
  const showTimestampHint = () => {
    const value = Number(timestamp.value)
    timestampHint.textContent = timestamp.value !== '' && Number.isSafeInteger(value) && value >= 0 ? dateTime(BigInt(value)) : 'must be later than the latest block'
  }
  timestamp.addEventListener('input', () => {
    timestamp.dataset.suggested = 'false'
    showTimestampHint()
  })
  const nextForm = h('form', { class: 'row', novalidate: true }, nextField, h('div', { class: 'field' }, setNext))
  nextForm.addEventListener('submit', (event) => {
    event.preventDefault()
    void runAction(setNext, problem, 'time-error', async () => {
      const value = wholeNumber(timestamp.value, 'the timestamp')
      await session.request('evm_setNextBlockTimestamp', [value])
      note.replaceChildren(`The next block will be stamped ${value} (${dateTime(BigInt(value))}). `, mineButton)
    })
  })

  function showOffset(seconds: number): void {
    offsetFact.dataset.seconds = String(seconds)
    offsetFact.textContent = seconds === 0 ? 'none: blocks follow the wall clock' : `${seconds > 0 ? '+' : ''}${seconds.toLocaleString('en-US')} s`
  }

  return {
    element: h(
      'div',
      { class: 'card', testid: 'time' },
      h('h3', {}, 'Time travel'),
      h('dl', { class: 'facts' }, h('dt', {}, 'Latest block'), latestNumber, h('dt', {}, 'Its time'), latest, h('dt', {}, 'Clock offset'), offsetFact),
      increaseForm,
      nextForm,
      note,
      problem,
    ),
    showOffset,
    showHead(number, time) {
      latestNumber.textContent = number.toString()
      latest.textContent = `${dateTime(time)} (${time})`
      latest.dataset.timestamp = time.toString()
      // Suggest an hour after the latest block until the person types their own.
      if (document.activeElement !== timestamp && (timestamp.value === '' || timestamp.dataset.suggested === 'true')) {
        timestamp.value = (time + 3600n).toString()
        timestamp.dataset.suggested = 'true'
        showTimestampHint()
      }
    },
  }
}

function wholeNumber(text: string, what: string): number {
  const value = Number(text)
  if (text.trim() === '' || !Number.isSafeInteger(value) || value < 0) throw new Error(`${what} must be a whole number of seconds`)
  return value
}
