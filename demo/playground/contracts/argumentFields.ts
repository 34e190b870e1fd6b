/**
 * Labelled inputs for a function's (or constructor's) parameters, read back as ABI values with a
 * message under each field that cannot be read, so the user sees which one and why.
 */
import type { AbiParameter } from 'viem'
import { field, h, uniqueId } from '../ui/dom.ts'
import { ArgumentError, parseArgument, parseValue, placeholderFor } from './abiInput.ts'

export interface ArgumentFields {
  element: HTMLElement
  /** The values, or undefined after marking the fields that are wrong (the first is focused). */
  read(): { args: unknown[]; value: bigint } | undefined
}

/**
 * `payable` adds a value field (ether). `defaults` fills fields by parameter name (the examples'
 * constructor arguments).
 */
export function argumentFields(inputs: readonly AbiParameter[], payable: boolean, defaults: Record<string, string> = {}): ArgumentFields {
  const rows = inputs.map((input, index) => {
    const control = h('input', {
      type: 'text',
      name: input.name || `arg${index}`,
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: placeholderFor(input.type),
      value: defaults[input.name ?? ''] ?? '',
      dataset: { type: input.type },
    })
    return { input, control, ...withError(field(`${input.name || `argument ${index + 1}`} (${typeLabel(input)})`, control), control) }
  })
  const valueControl = payable ? h('input', { type: 'text', name: 'value', inputmode: 'decimal', autocomplete: 'off', placeholder: '0', dataset: { type: 'value' } }) : undefined
  const value = valueControl ? withError(field('Value (ETH)', valueControl, 'Ether sent with the call (payable).'), valueControl) : undefined

  return {
    element: h('div', { class: 'row arguments' }, ...rows.map((row) => row.wrapper), value?.wrapper),
    read() {
      let ok = true
      const args = rows.map((row) => {
        try {
          const parsed = parseArgument(row.input, row.control.value)
          row.clear()
          return parsed
        } catch (error) {
          if (!(error instanceof ArgumentError)) throw error
          if (ok) row.control.focus()
          ok = false
          row.show(error.message)
          return undefined
        }
      })
      let amount = 0n
      if (valueControl && value) {
        try {
          amount = parseValue(valueControl.value)
          value.clear()
        } catch (error) {
          if (!(error instanceof ArgumentError)) throw error
          if (ok) valueControl.focus()
          ok = false
          value.show(error.message)
        }
      }
      return ok ? { args, value: amount } : undefined
    },
  }
}

/** `uint256`, or `tuple(address,uint256)[]` spelled out so the JSON expected is visible. */
function typeLabel(input: AbiParameter): string {
  if (!input.type.startsWith('tuple')) return input.type
  const components = 'components' in input ? input.components : []
  return `(${components.map((c) => `${c.type}${c.name ? ` ${c.name}` : ''}`).join(', ')})${input.type.slice('tuple'.length)}`
}

/** A field with an error line the control is described by while it shows something. */
function withError(wrapper: HTMLDivElement, control: HTMLInputElement) {
  const error = h('p', { class: 'error field-error', id: uniqueId('field-error'), role: 'alert', hidden: true, testid: 'field-error' })
  wrapper.append(error)
  const describedBy = control.getAttribute('aria-describedby')
  return {
    wrapper,
    show(message: string) {
      error.textContent = message
      error.hidden = false
      control.setAttribute('aria-invalid', 'true')
      control.setAttribute('aria-describedby', [describedBy, error.id].filter(Boolean).join(' '))
    },
    clear() {
      error.hidden = true
      error.textContent = ''
      control.removeAttribute('aria-invalid')
      if (describedBy) control.setAttribute('aria-describedby', describedBy)
      else control.removeAttribute('aria-describedby')
    },
  }
}
