import { concatBytes, hexToBytes, setLengthLeft, setLengthRight, utf8ToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { ParamError } from '../rpc/params.ts'

/**
 * EIP-712 typed data as eth_signTypedData_v4 takes it (MetaMask's and viem's v4: arrays and
 * nested structs allowed), hashed for signing. Every value is checked against its type, and a
 * wrong one is named by its path ("message.to.wallet: expected an address …").
 */
export interface TypedData {
  types: Record<string, TypedField[]>
  primaryType: string
  domain: Record<string, unknown>
  message: Record<string, unknown>
}

interface TypedField {
  name: string
  type: string
}

/** The EIP712Domain fields in their canonical order, for a request that leaves the type out. */
const DOMAIN_FIELDS: TypedField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
]

/** Parses the typed-data argument: an object, or its JSON text (what v4 callers usually send). */
export function parseTypedData(value: unknown): TypedData {
  let data = value
  if (typeof value === 'string') {
    try {
      data = JSON.parse(value)
    } catch (error) {
      throw new ParamError(`expected typed data as an object or its JSON text; the JSON does not parse (${error instanceof Error ? error.message : String(error)})`)
    }
  }
  if (!isObject(data)) throw new ParamError('expected typed data: an object with types, primaryType, domain and message')
  if (!isObject(data.types)) throw new ParamError('types: expected an object of struct definitions')
  const types: Record<string, TypedField[]> = {}
  for (const [name, fields] of Object.entries(data.types)) {
    if (!Array.isArray(fields) || !fields.every((f) => isObject(f) && typeof f.name === 'string' && typeof f.type === 'string')) {
      throw new ParamError(`types.${name}: expected an array of {name, type}`)
    }
    types[name] = fields.map((f) => ({ name: f.name as string, type: f.type as string }))
  }
  const domain = data.domain === undefined ? {} : data.domain
  if (!isObject(domain)) throw new ParamError('domain: expected an object')
  if (typeof data.primaryType !== 'string') throw new ParamError('primaryType: expected the name of a type')
  if (data.primaryType !== 'EIP712Domain' && !types[data.primaryType]) throw new ParamError(`primaryType: ${data.primaryType} is not among the types`)
  const message = data.message === undefined && data.primaryType === 'EIP712Domain' ? {} : data.message
  if (!isObject(message)) throw new ParamError('message: expected an object')
  types.EIP712Domain ??= DOMAIN_FIELDS.filter((f) => domain[f.name] !== undefined)
  return { types, primaryType: data.primaryType, domain, message }
}

/** keccak256(0x19 0x01 ‖ domainSeparator ‖ hashStruct(message)): what eth_signTypedData_v4 signs. */
export function typedDataDigest(data: TypedData): Uint8Array {
  const parts: Uint8Array[] = [Uint8Array.of(0x19, 0x01), hashStruct(data.types, 'EIP712Domain', data.domain, 'domain')]
  if (data.primaryType !== 'EIP712Domain') parts.push(hashStruct(data.types, data.primaryType, data.message, 'message'))
  return keccak_256(concatBytes(...parts))
}

function hashStruct(types: Record<string, TypedField[]>, type: string, value: Record<string, unknown>, path: string): Uint8Array {
  const fields = types[type]
  const encoded: Uint8Array[] = [keccak_256(utf8ToBytes(encodeType(types, type)))]
  for (const { name, type: fieldType } of fields) encoded.push(encodeField(types, fieldType, value[name], `${path}.${name}`))
  return keccak_256(concatBytes(...encoded))
}

/** `Mail(Person from,Person to,string contents)Person(string name,address wallet)`: the type, then its dependencies sorted. */
function encodeType(types: Record<string, TypedField[]>, primary: string): string {
  const deps = [...dependencies(types, primary, new Set())].filter((t) => t !== primary).sort()
  return [primary, ...deps].map((t) => `${t}(${types[t].map((f) => `${f.type} ${f.name}`).join(',')})`).join('')
}

function dependencies(types: Record<string, TypedField[]>, type: string, found: Set<string>): Set<string> {
  const base = type.replace(/(\[\d*\])+$/, '')
  if (found.has(base) || !types[base]) return found
  found.add(base)
  for (const field of types[base]) dependencies(types, field.type, found)
  return found
}

function encodeField(types: Record<string, TypedField[]>, type: string, value: unknown, path: string): Uint8Array {
  if (value === undefined || value === null) throw new ParamError(`${path}: missing a value of type ${type}`)
  const array = type.match(/^(.*)\[(\d*)\]$/)
  if (array) {
    const [, item, length] = array
    if (!Array.isArray(value)) throw new ParamError(`${path}: expected an array (${type}), got ${describe(value)}`)
    if (length !== '' && value.length !== Number(length)) throw new ParamError(`${path}: expected ${length} items (${type}), got ${value.length}`)
    return keccak_256(concatBytes(...value.map((v, i) => encodeField(types, item, v, `${path}[${i}]`))))
  }
  if (types[type]) {
    if (!isObject(value)) throw new ParamError(`${path}: expected a ${type} object, got ${describe(value)}`)
    return hashStruct(types, type, value, path)
  }
  if (type === 'string') {
    if (typeof value !== 'string') throw new ParamError(`${path}: expected a string, got ${describe(value)}`)
    return keccak_256(utf8ToBytes(value))
  }
  if (type === 'bytes') return keccak_256(hexBytes(value, path))
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw new ParamError(`${path}: expected true or false, got ${describe(value)}`)
    return setLengthLeft(Uint8Array.of(value ? 1 : 0), 32)
  }
  if (type === 'address') {
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw new ParamError(`${path}: expected an address, got ${describe(value)}`)
    return setLengthLeft(hexToBytes(value.toLowerCase() as PrefixedHexString), 32)
  }
  const fixed = type.match(/^bytes(\d+)$/)
  if (fixed && Number(fixed[1]) >= 1 && Number(fixed[1]) <= 32) {
    const bytes = hexBytes(value, path)
    if (bytes.length !== Number(fixed[1])) throw new ParamError(`${path}: expected ${fixed[1]} bytes (${type}), got ${bytes.length}`)
    return setLengthRight(bytes, 32)
  }
  const integer = type.match(/^(u?)int(\d*)$/)
  if (integer) return encodeInteger(value, integer[1] === 'u', integer[2] === '' ? 256 : Number(integer[2]), type, path)
  throw new ParamError(`${path}: unknown type ${type}`)
}

function encodeInteger(value: unknown, unsigned: boolean, bits: number, type: string, path: string): Uint8Array {
  if (bits < 8 || bits > 256 || bits % 8 !== 0) throw new ParamError(`${path}: unknown type ${type}`)
  let number: bigint
  try {
    if (typeof value === 'number' && Number.isSafeInteger(value)) number = BigInt(value)
    else if (typeof value === 'bigint') number = value
    else if (typeof value === 'string' && /^(-?\d+|0x[0-9a-fA-F]+)$/.test(value)) number = BigInt(value)
    else throw new Error()
  } catch {
    throw new ParamError(`${path}: expected an integer (${type}) as a number, a decimal string or hex, got ${describe(value)}`)
  }
  const [min, max] = unsigned ? [0n, (1n << BigInt(bits)) - 1n] : [-(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n]
  if (number < min || number > max) throw new ParamError(`${path}: ${number} is out of range for ${type}`)
  // Two's complement in 256 bits: a negative intN is sign-extended, as Solidity's abi.encode does.
  const word = number < 0n ? (1n << 256n) + number : number
  return hexToBytes(`0x${word.toString(16).padStart(64, '0')}`)
}

function hexBytes(value: unknown, path: string): Uint8Array {
  if (typeof value === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(value)) return hexToBytes(value as PrefixedHexString)
  throw new ParamError(`${path}: expected 0x-prefixed hex bytes of even length, got ${describe(value)}`)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describe(value: unknown): string {
  const json = JSON.stringify(value)
  return json === undefined ? String(value) : json.length > 60 ? `${json.slice(0, 57)}...` : json
}
