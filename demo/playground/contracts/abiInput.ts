/**
 * Form text to ABI values: what a user types for each parameter type, with an error that says
 * what was expected. Scalars are typed as is (`0x…` addresses and bytes, decimal or 0x integers,
 * true/false); arrays and tuples as JSON, whose elements follow the same rules.
 */
import { isAddress, isHex, parseEther, type AbiParameter } from 'viem'

export class ArgumentError extends Error {}

/** Parses one field's text for its ABI parameter; throws ArgumentError with a user-facing reason. */
export function parseArgument(parameter: AbiParameter, text: string): unknown {
  const type = parameter.type
  if (type.endsWith(']') || type === 'tuple') {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new ArgumentError(type === 'tuple' ? 'expected JSON: an array or object of the fields' : 'expected a JSON array, e.g. ["1", "2"]')
    }
    return fromJson(parameter, json)
  }
  // A string is taken as typed, spaces included; everything else is trimmed.
  return parseScalar(type, type === 'string' ? text : text.trim())
}

function fromJson(parameter: AbiParameter, value: unknown): unknown {
  const type = parameter.type
  const array = /^(.*)\[(\d*)\]$/.exec(type)
  if (array) {
    if (!Array.isArray(value)) throw new ArgumentError(`expected a JSON array for ${type}`)
    const [, elementType, length] = array
    if (length !== '' && value.length !== Number(length)) throw new ArgumentError(`${type} needs exactly ${length} elements, got ${value.length}`)
    const element = { ...parameter, type: elementType } as AbiParameter
    return value.map((item, index) => {
      try {
        return fromJson(element, item)
      } catch (error) {
        throw new ArgumentError(`element ${index}: ${(error as Error).message}`)
      }
    })
  }
  if (type === 'tuple') {
    const components = 'components' in parameter ? parameter.components : []
    const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? components.map((c) => (value as Record<string, unknown>)[c.name ?? '']) : undefined
    if (!list || list.length !== components.length) throw new ArgumentError(`expected ${components.length} fields (${components.map((c) => c.name || c.type).join(', ')})`)
    const parsed = components.map((component, index) => {
      try {
        return fromJson(component, list[index])
      } catch (error) {
        throw new ArgumentError(`${component.name || `field ${index}`}: ${(error as Error).message}`)
      }
    })
    // viem encodes a tuple from an object keyed by component names when they all have one.
    return components.every((c) => c.name) ? Object.fromEntries(components.map((c, i) => [c.name, parsed[i]])) : parsed
  }
  if (typeof value === 'boolean') return parseScalar(type, String(value))
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new ArgumentError(`${value} loses precision as a JSON number: write it as a string`)
    return parseScalar(type, String(value))
  }
  if (typeof value !== 'string') throw new ArgumentError(`expected a string for ${type}`)
  return parseScalar(type, type === 'string' ? value : value.trim())
}

function parseScalar(type: string, text: string): unknown {
  if (type === 'address') {
    if (!isAddress(text, { strict: false })) throw new ArgumentError('expected an address: 0x and 40 hex digits')
    return text
  }
  if (type === 'bool') {
    if (/^(true|1)$/i.test(text)) return true
    if (/^(false|0)$/i.test(text)) return false
    throw new ArgumentError('expected true or false')
  }
  if (type === 'string') return text
  const integer = /^(u?)int(\d*)$/.exec(type)
  if (integer) return parseInteger(text, integer[1] === 'u', Number(integer[2] || 256))
  if (type === 'bytes') {
    if (!isHex(text) || text.length % 2 !== 0) throw new ArgumentError('expected hex bytes: 0x and an even number of hex digits')
    return text
  }
  const fixed = /^bytes(\d+)$/.exec(type)
  if (fixed) {
    const size = Number(fixed[1])
    if (!isHex(text) || text.length !== 2 + size * 2) throw new ArgumentError(`expected ${size} bytes: 0x and ${size * 2} hex digits`)
    return text
  }
  throw new ArgumentError(`the playground cannot read ${type} arguments`)
}

/** Decimal or 0x integers, optionally with a unit: "1.5 ether" or "20 gwei" (scaled to wei). */
function parseInteger(text: string, unsigned: boolean, bits: number): bigint {
  const unit = /^(-?\d+(?:\.\d+)?)\s*(ether|gwei)$/i.exec(text)
  let value: bigint
  if (unit) value = unit[2].toLowerCase() === 'ether' ? parseEther(unit[1]) : parseEther(unit[1], 'gwei')
  else if (/^-?\d+$/.test(text) || /^0x[0-9a-f]+$/i.test(text)) value = BigInt(text)
  else if (/^\d+(\.\d+)?e\d+$/i.test(text)) value = scientific(text)
  else throw new ArgumentError(`expected ${unsigned ? 'a whole number ≥ 0' : 'a whole number'} (decimal, 0x hex, 1e18 or "1.5 ether")`)
  const [min, max] = unsigned ? [0n, (1n << BigInt(bits)) - 1n] : [-(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n]
  if (value < min || value > max) throw new ArgumentError(`out of range for ${unsigned ? 'u' : ''}int${bits} (${min} to ${max})`)
  return value
}

/** "1.5e18" exactly (not through a float): whole numbers only. */
function scientific(text: string): bigint {
  const [mantissa, exponent] = text.toLowerCase().split('e')
  const [whole, fraction = ''] = mantissa.split('.')
  const shift = Number(exponent) - fraction.length
  if (shift < 0) throw new ArgumentError(`${text} is not a whole number`)
  return BigInt(whole + fraction) * 10n ** BigInt(shift)
}

/** A placeholder showing how to type a parameter of this type. */
export function placeholderFor(type: string): string {
  if (type.endsWith(']')) return '["…", "…"] (JSON)'
  if (type === 'tuple') return '["…", …] or {"field": …} (JSON)'
  if (type === 'address') return '0x…'
  if (type === 'bool') return 'true or false'
  if (type === 'bytes') return '0x… (hex)'
  if (/^bytes\d+$/.test(type)) return `0x… (${Number(type.slice(5)) * 2} hex digits)`
  if (/^u?int\d*$/.test(type)) return '123, 0x7b, 1e18 or 1.5 ether'
  return ''
}

/** The value field of payable functions: ether, e.g. "0.5". */
export function parseValue(text: string): bigint {
  const trimmed = text.trim()
  if (trimmed === '') return 0n
  if (!/^\d+(\.\d{1,18})?$/.test(trimmed)) throw new ArgumentError('expected an amount of ether, e.g. 0.5')
  return parseEther(trimmed)
}
