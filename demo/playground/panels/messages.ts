/** L2→L1 messages: placeholder until its panel lands. */
import type { Panel } from '../panel.ts'
import { h } from '../ui/dom.ts'

export const messagesPanel: Panel = {
  id: 'messages',
  title: 'L2→L1 messages',
  mount(root) {
    root.append(h('h2', {}, 'L2→L1 messages'), h('p', { class: 'hint' }, 'Not built yet.'))
  },
}
