import { hexToBytes } from '@ethereumjs/util'
import type { CallRequest } from '../exec/call.ts'
import type { BlockOverrides, SimulatedBlock } from '../exec/simulate.ts'
import { parseCallRequest, parseStateOverrides } from './callObject.ts'
import { custom, field, optionalField, ParamError, parseAddress, parseArrayOf, parseBoolean, parseHash, parseObject, parseQuantity } from './params.ts'

/** eth_simulateV1's first parameter (execution-apis' EthSimulatePayload), parsed. */
export interface SimulatePayload {
  blocks: SimulatedBlock[]
  traceTransfers: boolean
  validation: boolean
  returnFullTransactions: boolean
}

function parseSimulatePayload(value: unknown): SimulatePayload {
  const object = parseObject(value)
  if (object.blockStateCalls === undefined || object.blockStateCalls === null) throw new ParamError('blockStateCalls: required')
  return {
    blocks: field(object, 'blockStateCalls', parseArrayOf('block state calls', parseBlockStateCall)),
    traceTransfers: optionalField(object, 'traceTransfers', parseBoolean) ?? false,
    validation: optionalField(object, 'validation', parseBoolean) ?? false,
    returnFullTransactions: optionalField(object, 'returnFullTransactions', parseBoolean) ?? false,
  }
}

function parseBlockStateCall(value: unknown): SimulatedBlock {
  const object = parseObject(value)
  return {
    overrides: optionalField(object, 'blockOverrides', parseBlockOverrides) ?? {},
    stateOverrides: optionalField(object, 'stateOverrides', parseSimulationStateOverrides),
    calls: optionalField(object, 'calls', parseArrayOf('call objects', parseSimulatedCall)) ?? [],
  }
}

function parseBlockOverrides(value: unknown): BlockOverrides {
  const object = parseObject(value)
  if (object.blobBaseFee !== undefined && object.blobBaseFee !== null) {
    throw new ParamError('blobBaseFee: not supported: no blob is ever mined here, the blob base fee stays EIP-4844\'s minimum')
  }
  const withdrawals = object.withdrawals
  if (withdrawals !== undefined && withdrawals !== null && !(Array.isArray(withdrawals) && withdrawals.length === 0)) {
    throw new ParamError('withdrawals: not supported: this chain has no validators to withdraw to')
  }
  return {
    number: optionalField(object, 'number', parseQuantity),
    time: optionalField(object, 'time', parseQuantity),
    gasLimit: optionalField(object, 'gasLimit', parseQuantity),
    feeRecipient: optionalField(object, 'feeRecipient', parseAddress),
    prevRandao: optionalField(object, 'prevRandao', (v) => hexToBytes(parseHash(v))),
    baseFeePerGas: optionalField(object, 'baseFeePerGas', parseQuantity),
  }
}

function parseSimulationStateOverrides(value: unknown) {
  const object = parseObject(value)
  for (const [address, entry] of Object.entries(object)) {
    if (entry !== null && typeof entry === 'object' && (entry as Record<string, unknown>).movePrecompileToAddress !== undefined) {
      throw new ParamError(`${address}: movePrecompileToAddress is not supported: precompiles stay where they are`)
    }
  }
  return parseStateOverrides(object)
}

function parseSimulatedCall(value: unknown): CallRequest {
  const object = parseObject(value)
  return { ...parseCallRequest(object), nonce: optionalField(object, 'nonce', parseQuantity) }
}

export const simulatePayload = (name: string) => custom(name, parseSimulatePayload)
