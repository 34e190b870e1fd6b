/** Send: placeholder until its panel lands. */
import type { Panel } from '../panel.ts'
import { h } from '../ui/dom.ts'

export const sendPanel: Panel = {
  id: 'send',
  title: 'Send',
  mount(root) {
    root.append(h('h2', {}, 'Send'), h('p', { class: 'hint' }, 'Not built yet.'))
  },
}
