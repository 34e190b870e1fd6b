/** Traces: placeholder until its panel lands. */
import type { Panel } from '../panel.ts'
import { h } from '../ui/dom.ts'

export const tracesPanel: Panel = {
  id: 'traces',
  title: 'Traces',
  mount(root) {
    root.append(h('h2', {}, 'Traces'), h('p', { class: 'hint' }, 'Not built yet.'))
  },
}
