/**
 * The source editor: a textarea that indents like a code editor (Tab and Shift+Tab, four spaces,
 * undoable) without trapping keyboard users (Escape, then Tab, moves focus on), shows the caret's
 * line:column, and can select a compiler message's range.
 */
import { h, uniqueId } from '../ui/dom.ts'

const INDENT = '    '

export interface SourceEditor {
  textarea: HTMLTextAreaElement
  /** The caret's position, "line 3, column 7": beside compiler messages' positions. */
  position: HTMLElement
  /** Selects [start, end) (character offsets), scrolls it into view and focuses the editor. */
  reveal(start: number, end: number): void
  setText(text: string): void
}

export function sourceEditor(onSubmit: () => void): SourceEditor {
  const id = uniqueId('source')
  const textarea = h('textarea', { id, testid: 'source', name: 'source', rows: '22', spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off', wrap: 'off', class: 'source' })
  const position = h('p', { class: 'hint caret', 'aria-live': 'off', testid: 'caret' }, 'line 1, column 1')
  let escaped = false

  const showPosition = () => {
    const before = textarea.value.slice(0, textarea.selectionStart)
    position.textContent = `line ${before.split('\n').length}, column ${textarea.selectionStart - before.lastIndexOf('\n')}`
  }

  textarea.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      escaped = true
      return
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      onSubmit()
      return
    }
    if (event.key === 'Tab' && !escaped && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault()
      if (event.shiftKey) outdent(textarea)
      else indent(textarea)
    }
    if (event.key !== 'Shift') escaped = false
  })
  for (const type of ['keyup', 'click', 'select', 'focus', 'input']) textarea.addEventListener(type, showPosition)

  return {
    textarea,
    position,
    reveal(start, end) {
      textarea.focus()
      textarea.setSelectionRange(start, Math.max(start, end))
      // Scroll the selected line to the middle: the textarea only scrolls to the caret's edge.
      const line = textarea.value.slice(0, start).split('\n').length
      const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 20
      textarea.scrollTop = Math.max(0, (line - 1) * lineHeight - textarea.clientHeight / 2)
      showPosition()
    },
    setText(text) {
      textarea.value = text
      textarea.setSelectionRange(0, 0)
      textarea.scrollTop = 0
      showPosition()
    },
  }
}

/** Replaces the selection through the editing commands, so Ctrl+Z undoes it. */
function insert(textarea: HTMLTextAreaElement, text: string): void {
  if (!document.execCommand('insertText', false, text)) {
    textarea.setRangeText(text, textarea.selectionStart, textarea.selectionEnd, 'end')
    textarea.dispatchEvent(new Event('input', { bubbles: true }))
  }
}

function indent(textarea: HTMLTextAreaElement): void {
  const { selectionStart: start, selectionEnd: end, value } = textarea
  if (!value.slice(start, end).includes('\n')) {
    insert(textarea, INDENT)
    return
  }
  // Several lines selected: indent each of them.
  const lineStart = value.lastIndexOf('\n', start - 1) + 1
  const block = value.slice(lineStart, end)
  textarea.setSelectionRange(lineStart, end)
  insert(textarea, block.replace(/^/gm, INDENT))
  textarea.setSelectionRange(lineStart, lineStart + block.length + INDENT.length * block.split('\n').length)
}

function outdent(textarea: HTMLTextAreaElement): void {
  const { selectionStart: start, selectionEnd: end, value } = textarea
  const lineStart = value.lastIndexOf('\n', start - 1) + 1
  const block = value.slice(lineStart, end)
  const outdented = block.replace(/^ {1,4}/gm, '')
  if (outdented === block) return
  textarea.setSelectionRange(lineStart, end)
  insert(textarea, outdented)
  textarea.setSelectionRange(Math.max(lineStart, start - (block.length - block.replace(/^ {1,4}/, '').length)), lineStart + outdented.length)
}
