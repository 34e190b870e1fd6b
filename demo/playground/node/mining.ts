/**
 * Mining mode, one at a time as the node has it: automine (evm_setAutomine true: a block per
 * transaction), an interval (evm_setIntervalMining, in seconds), or manual (automine off: blocks
 * only on evm_mine). Beside it, what waits in the pool (txpool_status) and a button to mine.
 */
import type { Session } from '../session.ts'
import { field, h, uniqueId } from '../ui/dom.ts'
import { runAction } from './action.ts'
import { readDevSettings, type MiningMode as Mode } from './devSettings.ts'

export interface MiningSection {
  element: HTMLElement
  /**
   * Re-reads the mode, the interval and the pool (after a new head, on the panel's timer). The
   * node keeps its mode with the chain, so this is also what a reload shows: the page keeps no
   * copy of its own to give back (it would undo a mode set from the console or another tab).
   */
  refresh(): Promise<void>
}

export function miningSection(session: Session): MiningSection {
  const name = uniqueId('mining-mode')
  const radio = (mode: Mode, label: string, hint: string) => {
    const input = h('input', { type: 'radio', name, value: mode, id: `${name}-${mode}`, testid: `mining-${mode}` })
    return { input, element: h('div', { class: 'choice' }, input, h('label', { for: input.id }, label, ' ', h('span', { class: 'hint' }, hint))) }
  }
  const auto = radio('auto', 'Automine', 'a block for each transaction, at once')
  const interval = radio('interval', 'Interval', 'a block (possibly empty) every few seconds')
  const manual = radio('manual', 'Manual', 'transactions wait in the pool until you mine a block')
  const seconds = h('input', { type: 'number', min: '1', step: '1', value: '5', name: 'interval-seconds', testid: 'interval-seconds', inputmode: 'numeric' })
  const pool = h('p', { testid: 'pool-status', 'aria-live': 'polite' }, 'Pool: …')
  const mineButton = h('button', { type: 'button', testid: 'mine' }, 'Mine a block now')
  const problem = h('div', {})
  const radios = { auto, interval, manual }
  let shown: Mode | undefined

  const check = (mode: Mode) => {
    shown = mode
    radios[mode].input.checked = true
  }

  const apply = async (mode: Mode) => {
    const previous = shown
    // The mine button is disabled meanwhile, so a mine does not race the switch.
    await runAction(mineButton, problem, 'mining-error', async () => {
      if (mode === 'auto') await session.request('evm_setAutomine', [true])
      else if (mode === 'manual') {
        // Off an interval too: 0 stops interval mining; then automine off leaves manual.
        await session.request('evm_setIntervalMining', [0])
        await session.request('evm_setAutomine', [false])
      } else {
        const value = Number(seconds.value)
        if (!Number.isSafeInteger(value) || value < 1) throw new Error('the interval is a whole number of seconds, 1 or more')
        await session.request('evm_setIntervalMining', [value])
      }
      check(mode)
    })
    if (shown !== mode && previous !== undefined) check(previous)
    await refresh()
  }
  for (const [mode, { input }] of Object.entries(radios) as [Mode, { input: HTMLInputElement }][]) input.addEventListener('change', () => void apply(mode))
  seconds.addEventListener('change', () => {
    if (interval.input.checked) void apply('interval')
  })
  mineButton.addEventListener('click', () => void runAction(mineButton, problem, 'mine-error', () => session.request('evm_mine', [])))

  async function refresh(): Promise<void> {
    try {
      const [{ mining }, status] = await Promise.all([readDevSettings(session), session.request<{ pending: string; queued: string }>('txpool_status')])
      // Another tab (or the console) may have switched the mode: show what the node says.
      if (mining.mode !== shown) check(mining.mode)
      // The interval the node runs, unless the person is typing another one.
      if (mining.intervalSeconds !== undefined && document.activeElement !== seconds) seconds.value = String(mining.intervalSeconds)
      const pending = Number(BigInt(status.pending))
      const queued = Number(BigInt(status.queued))
      pool.dataset.pending = String(pending)
      pool.textContent = `Pool: ${pending} pending ${pending === 1 ? 'transaction' : 'transactions'}${queued > 0 ? `, ${queued} queued (waiting for a nonce gap to fill)` : ''}`
    } catch (error) {
      pool.textContent = `Pool: unknown (${error instanceof Error ? error.message : String(error)})`
    }
  }

  const element = h(
    'div',
    { class: 'card', testid: 'mining' },
    h('h3', {}, 'Mining'),
    h(
      'fieldset',
      { class: 'modes' },
      h('legend', { class: 'visually-hidden' }, 'Mining mode'),
      auto.element,
      h('div', { class: 'choice-with-input' }, interval.element, field('Interval (seconds)', seconds)),
      manual.element,
    ),
    h('div', { class: 'row pool-row' }, pool, mineButton),
    problem,
  )
  return { element, refresh }
}
