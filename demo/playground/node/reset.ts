/**
 * Reset (anvil_reset): a fresh genesis, every block, balance change, snapshot and impersonation
 * gone. It cannot be undone, so it asks first; the confirmation takes focus on Cancel.
 */
import type { Session } from '../session.ts'
import { h } from '../ui/dom.ts'
import { runAction } from './action.ts'

export function resetSection(session: Session, afterReset: () => void): HTMLElement {
  const start = h('button', { type: 'button', class: 'danger', testid: 'reset' }, 'Reset the chain…')
  const confirm = h('button', { type: 'button', class: 'danger', testid: 'confirm-reset' }, 'Yes, reset to block 0')
  const cancel = h('button', { type: 'button', class: 'secondary', testid: 'cancel-reset' }, 'Cancel')
  const question = h(
    'div',
    { class: 'confirm', role: 'group', 'aria-labelledby': 'reset-question', hidden: true, testid: 'reset-confirm' },
    h('p', { id: 'reset-question' }, 'Delete every block, transaction and state change, and start again from a fresh genesis? Snapshots and impersonations go too. This cannot be undone.'),
    h('div', { class: 'row' }, confirm, cancel),
  )
  const note = h('p', { 'aria-live': 'polite', testid: 'reset-note' })
  const problem = h('div', {})

  const ask = (open: boolean) => {
    question.hidden = !open
    start.hidden = open
    ;(open ? cancel : start).focus()
  }
  start.addEventListener('click', () => {
    note.textContent = ''
    ask(true)
  })
  cancel.addEventListener('click', () => ask(false))
  question.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') ask(false)
  })
  confirm.addEventListener('click', () =>
    void runAction(confirm, problem, 'reset-error', async () => {
      await session.request('anvil_reset', [])
      ask(false)
      note.textContent = 'The chain was reset: block 0, dev accounts funded again.'
      afterReset()
      await session.announceHead()
    }),
  )

  return h(
    'div',
    { class: 'card', testid: 'reset-section' },
    h('h3', {}, 'Reset'),
    h('p', { class: 'hint' }, 'anvil_reset: back to a fresh genesis in this browser’s storage too. The mining mode stays as it is.'),
    start,
    question,
    note,
    problem,
  )
}
