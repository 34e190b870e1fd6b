/**
 * A button that copies a value (an address, a URL) to the clipboard and says so in its label for
 * a moment; when the browser refuses (no permission, not a secure context) it says that instead.
 */
import { h } from './dom.ts'

export function copyButton(value: string, what: string): HTMLButtonElement {
  const label = `Copy ${what}`
  const button = h('button', { type: 'button', class: 'secondary copy', title: `${label}: ${value}`, 'aria-label': label, dataset: { copy: value } }, 'Copy')
  let timer: ReturnType<typeof setTimeout> | undefined
  const say = (text: string) => {
    button.textContent = text
    clearTimeout(timer)
    timer = setTimeout(() => (button.textContent = 'Copy'), 1500)
  }
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(value).then(
      () => say('Copied'),
      () => say('Copy failed'),
    )
  })
  return button
}
