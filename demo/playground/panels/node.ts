/** Node: placeholder until its panel lands. */
import type { Panel } from '../panel.ts'
import { h } from '../ui/dom.ts'

export const nodePanel: Panel = {
  id: 'node',
  title: 'Node',
  mount(root) {
    root.append(h('h2', {}, 'Node'), h('p', { class: 'hint' }, 'Not built yet.'))
  },
}
