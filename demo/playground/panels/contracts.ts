/** Contracts: placeholder until its panel lands. */
import type { Panel } from '../panel.ts'
import { h } from '../ui/dom.ts'

export const contractsPanel: Panel = {
  id: 'contracts',
  title: 'Contracts',
  mount(root) {
    root.append(h('h2', {}, 'Contracts'), h('p', { class: 'hint' }, 'Not built yet.'))
  },
}
