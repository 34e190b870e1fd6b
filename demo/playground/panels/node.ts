/**
 * Node: the dev-node controls (mining mode, snapshots, time travel, reset), where the chain is
 * stored, and what the node is (role among tabs, chain, client, endpoint). What the node can
 * change without a new block (mining mode, the pool, the role) is re-read on a timer while the
 * panel is open; the rest follows new heads.
 */
import { impersonation } from '../accounts/impersonation.ts'
import { aboutSection } from '../node/about.ts'
import { miningSection } from '../node/mining.ts'
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
    const snapshots = snapshotsSection(session)
    const time = timeSection(session, async () => {
      await session.request('evm_mine')
    })
    const storage = storageSection()
    const reset = resetSection(session, () => {
      snapshots.forgetAll()
      void impersonation(session).refresh()
    })

    root.append(
      h('h2', {}, 'Node'),
      h('div', { class: 'node-grid' }, mining.element, snapshots.element, time.element, about.element, storage.element, reset),
    )

    // A reload, or this tab taking the chain over, starts the node on its default mode.
    void mining.restore()
    session.onRole(() => {
      about.refresh()
      void mining.restore()
    })

    refreshNow = () => {
      about.refresh()
      void mining.refresh()
      void storage.refresh()
    }
    session.onHead((head) => {
      time.showHead(head.number, head.timestamp)
      void mining.refresh()
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
