/**
 * Snapshots: evm_snapshot saves the whole chain (head, state, pool, clock); evm_revert goes back
 * to one. The list is the node's (pagenode_devSettings), which keeps its snapshots with the chain:
 * those taken from the console or another tab, and those of before a reload, are listed too. As
 * in anvil, reverting consumes the snapshot and every later one.
 */
import type { Hex, Session } from '../session.ts'
import { h } from '../ui/dom.ts'
import { explorerHref } from '../ui/links.ts'
import { runAction } from './action.ts'
import type { DevSettings } from './devSettings.ts'

interface Snapshot {
  id: Hex
  block: bigint
  takenAt: Date
}

export interface SnapshotsSection {
  element: HTMLElement
  /** Shows the node's snapshots (read on the panel's timer, after a reset, a revert, a reload). */
  show(taken: DevSettings['snapshots']): void
}

export function snapshotsSection(session: Session, reread: () => Promise<void>): SnapshotsSection {
  let snapshots: Snapshot[] = []
  const take = h('button', { type: 'button', testid: 'take-snapshot' }, 'Take a snapshot')
  const body = h('tbody', {})
  const table = h(
    'table',
    { testid: 'snapshots', hidden: true },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Snapshot'), h('th', { class: 'num', scope: 'col' }, 'Block'), h('th', { scope: 'col' }, 'Taken'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Revert')))),
    body,
  )
  const empty = h('p', { class: 'hint', testid: 'snapshots-empty' }, 'The node holds no snapshot.')
  const problem = h('div', { 'aria-live': 'polite' })
  const note = h('p', { 'aria-live': 'polite', testid: 'snapshot-note' })

  const render = () => {
    table.hidden = snapshots.length === 0
    empty.hidden = snapshots.length > 0
    body.replaceChildren(
      ...snapshots.map((snapshot) => {
        const revert = h('button', { type: 'button', class: 'secondary', testid: 'revert', 'aria-label': `Revert to snapshot ${snapshot.id} (block ${snapshot.block})` }, 'Revert')
        revert.addEventListener('click', () =>
          void runAction(revert, problem, 'revert-error', async () => {
            // false: gone on the node (a reset, or a revert from the console, used it up).
            const reverted = await session.request('evm_revert', [snapshot.id])
            await reread()
            if (!reverted) throw new Error(`snapshot ${snapshot.id} is gone: a reset, or a revert to it or to an earlier one, used it up`)
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
      await reread()
      const block = snapshots.find((snapshot) => snapshot.id === id)?.block
      note.textContent = `Snapshot ${id} taken${block === undefined ? '' : ` at block ${block}`}.`
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
    show(taken) {
      const next = taken.map((snapshot) => ({ id: snapshot.id, block: BigInt(snapshot.blockNumber), takenAt: new Date(snapshot.takenAt) }))
      // Unchanged: leave the rows (and a focused Revert button) alone.
      if (next.length === snapshots.length && next.every((snapshot, i) => snapshot.id === snapshots[i].id)) return
      snapshots = next
      render()
    },
  }
}
