/**
 * Snapshots: evm_snapshot saves the whole chain (head, state, pool, clock); evm_revert goes back
 * to one. The node cannot list them, so the page keeps what it took, with the block each was
 * taken at. As in anvil, reverting consumes the snapshot and every later one.
 */
import type { Hex, Session } from '../session.ts'
import { h } from '../ui/dom.ts'
import { explorerHref } from '../ui/links.ts'
import { runAction } from './action.ts'

interface Snapshot {
  id: Hex
  block: bigint
  takenAt: Date
}

export interface SnapshotsSection {
  element: HTMLElement
  /** The node dropped every snapshot (anvil_reset). */
  forgetAll(): void
}

export function snapshotsSection(session: Session): SnapshotsSection {
  const snapshots: Snapshot[] = []
  const take = h('button', { type: 'button', testid: 'take-snapshot' }, 'Take a snapshot')
  const body = h('tbody', {})
  const table = h(
    'table',
    { testid: 'snapshots', hidden: true },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Snapshot'), h('th', { class: 'num', scope: 'col' }, 'Block'), h('th', { scope: 'col' }, 'Taken'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Revert')))),
    body,
  )
  const empty = h('p', { class: 'hint', testid: 'snapshots-empty' }, 'No snapshot taken from this page yet.')
  const problem = h('div', { 'aria-live': 'polite' })
  const note = h('p', { 'aria-live': 'polite', testid: 'snapshot-note' })

  const render = () => {
    table.hidden = snapshots.length === 0
    empty.hidden = snapshots.length > 0
    body.replaceChildren(
      ...snapshots.map((snapshot, index) => {
        const revert = h('button', { type: 'button', class: 'secondary', testid: 'revert', 'aria-label': `Revert to snapshot ${snapshot.id} (block ${snapshot.block})` }, 'Revert')
        revert.addEventListener('click', () =>
          void runAction(revert, problem, 'revert-error', async () => {
            // false: gone on the node (a reset, or a revert from the console, used it up): drop it here too.
            if (!(await session.request('evm_revert', [snapshot.id]))) {
              snapshots.splice(index, 1)
              render()
              throw new Error(`snapshot ${snapshot.id} is gone: a reset, or a revert to it or to an earlier one, used it up`)
            }
            snapshots.splice(index)
            render()
            note.textContent = `Reverted to snapshot ${snapshot.id}: the chain is back at block ${snapshot.block}.`
            await session.announceHead()
          }),
        )
        return h(
          'tr',
          { testid: `snapshot-${snapshot.id}` },
          h('td', { class: 'mono' }, snapshot.id),
          h('td', { class: 'num' }, h('a', { href: explorerHref(snapshot.block) }, snapshot.block.toString())),
          h('td', {}, snapshot.takenAt.toLocaleTimeString()),
          h('td', {}, revert),
        )
      }),
    )
  }

  take.addEventListener('click', () =>
    void runAction(take, problem, 'snapshot-error', async () => {
      const id = await session.request<Hex>('evm_snapshot')
      const block = BigInt(await session.request<string>('eth_blockNumber'))
      snapshots.push({ id, block, takenAt: new Date() })
      note.textContent = `Snapshot ${id} taken at block ${block}.`
      render()
    }),
  )
  render()

  return {
    element: h(
      'div',
      { class: 'card', testid: 'snapshots-section' },
      h('h3', {}, 'Snapshots'),
      h('p', { class: 'hint' }, 'Save the whole chain and go back to it later (evm_snapshot / evm_revert). Reverting to a snapshot uses it up, with every snapshot taken after it.'),
      take,
      note,
      table,
      empty,
      problem,
    ),
    forgetAll() {
      snapshots.length = 0
      note.textContent = ''
      render()
    },
  }
}
