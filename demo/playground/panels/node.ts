/**
 * Node: the dev-node controls (mining mode, snapshots, time travel, fork, reset), where the chain is
 * stored, and what the node is (role among tabs, chain, client, endpoint). What the node can
 * change without a new block (mining mode, the pool, the role) is re-read on a timer while the
 * panel is open; the rest follows new heads.
 */
import { impersonation } from '../accounts/impersonation.ts'
import { aboutSection } from '../node/about.ts'
import { readDevSettings } from '../node/devSettings.ts'
import { miningSection } from '../node/mining.ts'
import { forkSection } from '../node/fork.ts'
import { resetSection } from '../node/reset.ts'
import { snapshotsSection } from '../node/snapshots.ts'
import { storageSection } from '../node/storage.ts'
import { timeSection } from '../node/time.ts'
import type { Panel } from '../panel.ts'
import { h } from '../ui/dom.ts'
import './node.css'

const POLL_MS = 2000

let refreshNow: (() => void) | undefined

export const nodePanel: Panel = {
  id: 'node',
  title: 'Node',
  mount(root, session) {
    const about = aboutSection(session)
    const mining = miningSection(session)
    // Snapshots and the clock offset as the node keeps them (mining reads its own part).
    const refreshSettings = (): Promise<void> =>
      readDevSettings(session).then(
        (settings) => {
          snapshots.show(settings.snapshots)
          time.showOffset(settings.timeOffsetSeconds)
        },
        () => {},
      )
    const snapshots = snapshotsSection(session, refreshSettings)
    const time = timeSection(session, async () => {
      await session.request('evm_mine')
    })
    const storage = storageSection()
    const afterReset = () => {
      void refreshSettings()
      void impersonation(session).refresh()
      void fork.refresh()
    }
    const reset = resetSection(session, afterReset)
    const fork = forkSection(session, afterReset)

    root.append(
      h('h2', {}, 'Node'),
      h('div', { class: 'node-grid' }, mining.element, snapshots.element, time.element, about.element, storage.element, fork.element, reset),
    )

    // The node keeps its dev settings with the chain: a reload or a takeover shows them as read.
    session.onRole(() => {
      about.refresh()
      void refreshSettings()
      void fork.refresh()
    })

    refreshNow = () => {
      about.refresh()
      void mining.refresh()
      void refreshSettings()
      void storage.refresh()
    }
    session.onHead((head) => {
      time.showHead(head.number, head.timestamp)
      void mining.refresh()
      void refreshSettings()
    })
    session
      .request<{ number: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false])
      .then((block) => time.showHead(BigInt(block.number), BigInt(block.timestamp)))
      .catch(() => {})
    setInterval(() => {
      if (!root.hidden && !document.hidden) refreshNow?.()
    }, POLL_MS)
    refreshNow()
  },
  show() {
    refreshNow?.()
  },
}
