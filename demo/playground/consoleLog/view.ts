/**
 * What a contract printed with Hardhat's console.log, shown under the transaction or call that
 * printed it: one line each, as the node formatted them (docs/methods.md, "console.log").
 */
import { h } from '../ui/dom.ts'
import './view.css'

/** The lines as a list, or undefined when nothing was printed (no empty box under every call). */
export function consoleLogView(lines: readonly string[], testid = 'console-log'): HTMLElement | undefined {
  if (lines.length === 0) return undefined
  return h(
    'figure',
    { class: 'console-log', testid },
    h('figcaption', {}, `console.log (${lines.length} ${lines.length === 1 ? 'line' : 'lines'})`),
    h('ol', { class: 'mono' }, lines.map((line) => h('li', { testid: 'console-line' }, line))),
  )
}
