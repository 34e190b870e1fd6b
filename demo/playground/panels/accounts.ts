/** Accounts: placeholder until its panel lands. */
import type { Panel } from '../panel.ts'
import { h } from '../ui/dom.ts'

export const accountsPanel: Panel = {
  id: 'accounts',
  title: 'Accounts',
  mount(root) {
    root.append(h('h2', {}, 'Accounts'), h('p', { class: 'hint' }, 'Not built yet.'))
  },
}
