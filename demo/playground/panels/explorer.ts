/** Explorer: placeholder until its panel lands. */
import type { Panel } from '../panel.ts'
import { h } from '../ui/dom.ts'

export const explorerPanel: Panel = {
  id: 'explorer',
  title: 'Explorer',
  mount(root) {
    root.append(h('h2', {}, 'Explorer'), h('p', { class: 'hint' }, 'Not built yet.'))
  },
}
