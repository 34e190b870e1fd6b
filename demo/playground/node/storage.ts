/**
 * Storage: the chain lives in this origin's IndexedDB. navigator.storage.estimate() says how much
 * the origin uses and may use; persisted() whether the browser may evict it under storage
 * pressure, and persist() asks it not to (the browser decides, often by site engagement).
 */
import { h } from '../ui/dom.ts'

export interface StorageSection {
  element: HTMLElement
  refresh(): Promise<void>
}

const megabytes = (bytes: number): string => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`)

export function storageSection(): StorageSection {
  const used = h('dd', { testid: 'storage-used' }, '…')
  const persisted = h('dd', { testid: 'storage-persisted' }, '…')
  const request = h('button', { type: 'button', class: 'secondary', testid: 'request-persistence' }, 'Ask the browser to keep this data')
  const note = h('p', { 'aria-live': 'polite', testid: 'persistence-note' })
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage

  async function refresh(): Promise<void> {
    if (!storage) {
      used.textContent = 'unknown: this browser has no StorageManager (navigator.storage)'
      persisted.textContent = 'unknown'
      request.hidden = true
      return
    }
    try {
      const [estimate, kept] = await Promise.all([storage.estimate(), storage.persisted()])
      used.textContent = estimate.usage === undefined ? 'unknown' : `${megabytes(estimate.usage)}${estimate.quota === undefined ? '' : ` of ${megabytes(estimate.quota)} allowed`}`
      persisted.textContent = kept ? 'yes: the browser will not evict it' : 'no: the browser may evict it when storage runs low'
      persisted.dataset.persisted = String(kept)
      request.hidden = kept
    } catch (error) {
      used.textContent = `unknown (${error instanceof Error ? error.message : String(error)})`
    }
  }

  request.addEventListener('click', () => {
    if (!storage) return
    request.disabled = true
    storage
      .persist()
      .then(
        (granted) =>
          (note.textContent = granted ? 'Granted: this chain stays until you clear the site’s data.' : 'The browser declined for now (it grants persistence to sites you use often, or bookmark).'),
        (error: unknown) => (note.textContent = `The request failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        request.disabled = false
        void refresh()
      })
  })

  return {
    element: h(
      'div',
      { class: 'card', testid: 'storage' },
      h('h3', {}, 'Storage'),
      h('dl', { class: 'facts' }, h('dt', {}, 'Used by this site'), used, h('dt', {}, 'Persistent'), persisted),
      request,
      note,
    ),
    refresh,
  }
}
