import { equalsBytes, type PrefixedHexString } from '@ethereumjs/util'
import type { CallRequest, StateOverrides } from '../exec/call.ts'
import { custom, describe, field, optionalField, ParamError, parseAddress, parseData, parseHash, parseObject, parseQuantity, parseUint256, parseUint64 } from './params.ts'

/**
 * The transaction types a call object may name: legacy, EIP-2930, EIP-1559, EIP-7702 and ZKsync's
 * EIP-712 (zksync-ethers sends 0x71 with its estimates). Blob transactions (0x3) are refused.
 */
const CALL_TYPES = new Set([0x0, 0x1, 0x2, 0x4, 0x71])

function parseCallType(value: unknown): number {
  const type = typeof value === 'number' && Number.isSafeInteger(value) ? value : typeof value === 'string' ? Number(parseQuantity(value)) : NaN
  if (!CALL_TYPES.has(type)) {
    throw new ParamError(`expected a transaction type this node runs: "0x0", "0x1", "0x2", "0x4" or "0x71", got ${describe(value)}`)
  }
  return type
}

/** The call object of eth_call / eth_estimateGas / debug_traceCall, as geth reads it. */
export function parseCallRequest(value: unknown): CallRequest {
  const object = parseObject(value)
  const data = optionalField(object, 'data', parseData)
  const input = optionalField(object, 'input', parseData)
  if (data && input && !equalsBytes(data, input)) {
    throw new ParamError('both "data" and "input" are set and not equal; use "input"')
  }
  const request: CallRequest = {
    from: optionalField(object, 'from', parseAddress),
    to: optionalField(object, 'to', parseAddress),
    // geth's widths: gas and nonce are uint64, prices and value uint256.
    gas: optionalField(object, 'gas', parseUint64),
    gasPrice: optionalField(object, 'gasPrice', parseUint256),
    maxFeePerGas: optionalField(object, 'maxFeePerGas', parseUint256),
    maxPriorityFeePerGas: optionalField(object, 'maxPriorityFeePerGas', parseUint256),
    value: optionalField(object, 'value', parseUint256),
    data: input ?? data,
    accessList: optionalField(object, 'accessList', parseAccessList),
    nonce: optionalField(object, 'nonce', parseUint64),
    type: optionalField(object, 'type', parseCallType),
    chainId: optionalField(object, 'chainId', parseUint256),
    paymaster: optionalField(object, 'eip712Meta', parsePaymasterParams),
  }
  if (request.type === 0x71 || (object.eip712Meta !== undefined && object.eip712Meta !== null)) {
    request.eip712 = { customSignature: optionalField(object, 'eip712Meta', parseCustomSignature) }
  }
  if (request.gasPrice !== undefined && (request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined)) {
    throw new ParamError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  }
  if (request.maxFeePerGas !== undefined && request.maxPriorityFeePerGas !== undefined && request.maxPriorityFeePerGas > request.maxFeePerGas) {
    throw new ParamError(
      `maxFeePerGas (${request.maxFeePerGas}) < maxPriorityFeePerGas (${request.maxPriorityFeePerGas})`,
    )
  }
  return request
}

function parseAccessList(value: unknown): NonNullable<CallRequest['accessList']> {
  if (!Array.isArray(value)) throw new ParamError('expected an array of {address, storageKeys}')
  return value.map((item) => {
    const entry = parseObject(item)
    const keys = entry.storageKeys ?? []
    if (!Array.isArray(keys)) throw new ParamError('storageKeys: expected an array of 32-byte hashes')
    return { address: field(entry, 'address', parseAddress), storageKeys: keys.map((key) => parseHash(key)) }
  })
}

/** geth's state override set (eth_call's third parameter). */
export function parseStateOverrides(value: unknown): StateOverrides {
  const object = parseObject(value)
  const overrides: StateOverrides = {}
  for (const address of Object.keys(object)) {
    const key = parseAddress(address)
    const entry = field(object, address, parseObject)
    const at = <T>(name: string, parse: (v: unknown) => T) => optionalField(entry, name, parse)
    if (entry.state !== undefined && entry.stateDiff !== undefined) {
      throw new ParamError(`${address}: has both 'state' and 'stateDiff'`)
    }
    overrides[key] = {
      balance: at('balance', parseQuantity),
      nonce: at('nonce', parseQuantity),
      code: at('code', parseData),
      state: at('state', parseStorage),
      stateDiff: at('stateDiff', parseStorage),
    }
  }
  return overrides
}

function parseStorage(value: unknown): Record<PrefixedHexString, PrefixedHexString> {
  const object = parseObject(value)
  const storage: Record<PrefixedHexString, PrefixedHexString> = {}
  for (const slot of Object.keys(object)) storage[parseHash(slot)] = field(object, slot, parseHash)
  return storage
}

export const callRequest = (name: string) => custom(name, parseCallRequest)
export const stateOverrides = (name: string) => custom(name, parseStateOverrides)

/**
 * The paymaster of a 0x71 call object, from `eip712Meta.paymasterParams` (zksync-ethers and
 * viem send `paymasterInput` as an array of byte values); the rest of eip712Meta changes nothing
 * a call computes.
 */
function parsePaymasterParams(value: unknown): CallRequest['paymaster'] {
  const meta = parseObject(value)
  if (meta.paymasterParams === undefined || meta.paymasterParams === null) return undefined
  const params = parseObject(meta.paymasterParams)
  const address = field(params, 'paymaster', parseAddress)
  // The zero address is no paymaster, as in a signed 0x71 transaction.
  if (/^0x0{40}$/.test(address)) return undefined
  return { address, input: field(params, 'paymasterInput', parseByteList) }
}

/** `eip712Meta.customSignature`: a contract account's signature for its estimate (hex, or byte values). */
function parseCustomSignature(value: unknown): Uint8Array | undefined {
  const meta = parseObject(value)
  if (meta.customSignature === undefined || meta.customSignature === null) return undefined
  const signature = field(meta, 'customSignature', parseByteList)
  return signature.length > 0 ? signature : undefined
}

function parseByteList(value: unknown): Uint8Array {
  if (typeof value === 'string') return parseData(value)
  if (!Array.isArray(value) || !value.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255)) {
    throw new ParamError(`expected bytes as hex data or an array of byte values, got ${describe(value)}`)
  }
  return Uint8Array.from(value as number[])
}
