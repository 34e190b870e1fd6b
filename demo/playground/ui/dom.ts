/**
 * A tiny element builder, so panels read as the markup they make: `h('button', { type: 'button',
 * testid: 'send', onclick }, 'Send')`. `testid` becomes `data-testid` (the e2e suite's handle),
 * `on<event>` a listener, `dataset` data attributes; `false`/`undefined` attributes are left out.
 */
type Child = Node | string | number | false | null | undefined
type Attributes = Record<string, unknown> & { testid?: string; dataset?: Record<string, string> }

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false || value === null) continue
    if (name === 'testid') element.dataset.testid = String(value)
    else if (name === 'dataset') Object.assign(element.dataset, value)
    else if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value as EventListener)
    else if (name === 'class') element.className = String(value)
    else if (name in element && typeof value !== 'string') (element as unknown as Record<string, unknown>)[name] = value
    else element.setAttribute(name, value === true ? '' : String(value))
  }
  element.append(...children.flat().filter((child): child is Node | string | number => child !== false && child !== null && child !== undefined).map((c) => (typeof c === 'number' ? String(c) : c)))
  return element
}

let nextId = 0
/** A page-unique id, for label/aria wiring of elements a panel builds more than once. */
export const uniqueId = (prefix: string): string => `${prefix}-${++nextId}`

/** A labelled form field: label, control, optional hint; the control gets the ids wired up. */
export function field(label: string, control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, hint?: string): HTMLDivElement {
  control.id ||= uniqueId('field')
  const hintElement = hint === undefined ? undefined : h('p', { class: 'hint', id: `${control.id}-hint` }, hint)
  if (hintElement) control.setAttribute('aria-describedby', hintElement.id)
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintElement)
}

/** An element the page's HTML must have; a missing one is a bug in that HTML, said plainly. */
export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id)
  if (!element) throw new Error(`${location.pathname} lacks #${id}`)
  return element as T
}
