/**
 * Pasting an ABI for an address (a contract deployed elsewhere, a system contract): its calls,
 * events and errors are then decoded everywhere, and the ABI is kept (IndexedDB). Takes the JSON
 * a compiler or an explorer gives (an array, or an artifact with an `abi` field) or human-readable
 * signatures, one per line (`function poke(uint256 n)`), parsed by viem.
 */
import { parseAbi, type Abi } from 'viem'
import { field, h } from '../ui/dom.ts'
import { abiLibrary } from './abiLibrary.ts'

export function readAbi(text: string): { ok: true; abi: Abi } | { ok: false; problem: string } {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: false, problem: 'Paste an ABI: JSON, or one signature per line.' }
  try {
    if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
      const parsed = JSON.parse(trimmed) as unknown
      const abi = Array.isArray(parsed) ? parsed : (parsed as { abi?: unknown }).abi
      if (!Array.isArray(abi) || !abi.every((item) => typeof item === 'object' && item !== null && typeof (item as { type?: unknown }).type === 'string')) {
        return { ok: false, problem: 'The JSON is not an ABI: expected an array of items with a type, or an object with one under "abi".' }
      }
      return { ok: true, abi: abi as Abi }
    }
    const lines = trimmed.split('\n').map((line) => line.trim().replace(/;$/, '')).filter((line) => line !== '')
    return { ok: true, abi: parseAbi(lines) }
  } catch (error) {
    return { ok: false, problem: `Not an ABI: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` }
  }
}

/** The explorer's "decode with an ABI" form for one address. */
export function abiForm(address: string): HTMLElement {
  const current = abiLibrary.nameOf(address)
  const name = h('input', { name: 'abi-name', testid: 'abi-name', autocomplete: 'off', value: current ?? '' , placeholder: 'MyContract' })
  const text = h('textarea', { name: 'abi', testid: 'abi-text', rows: '4', spellcheck: 'false', placeholder: '[{"type":"function",…}]  or  function poke(uint256 n)' })
  const problem = h('p', { class: 'error', role: 'alert', testid: 'abi-problem', hidden: true })
  const note = h('p', { class: 'ok-text', role: 'status', testid: 'abi-note' })
  const button = h('button', { type: 'submit', testid: 'abi-attach' }, 'Decode with this ABI')
  const form = h('form', { novalidate: true, 'aria-label': `ABI for ${address}` }, h('div', { class: 'row' }, field('Contract name', name), field('ABI', text)), problem, button, note)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const read = readAbi(text.value)
    text.setAttribute('aria-invalid', String(!read.ok))
    problem.hidden = read.ok
    if (!read.ok) {
      problem.textContent = read.problem
      return
    }
    const named = name.value.trim() || 'pasted ABI'
    note.textContent = ''
    void abiLibrary.attach(address, named, read.abi).then(() => {
      note.textContent = `Kept: what is sent to ${address}, its events and errors now decode with ${named} (${read.abi.length} items).`
    })
  })
  return h(
    'details',
    { class: 'card abi-form', testid: 'abi-form' },
    h('summary', {}, current ? `Decoded with the ABI of ${current}: replace it` : 'Decode its calls, events and errors: paste an ABI'),
    form,
  )
}
