import type { PrefixedHexString } from '@ethereumjs/util'
import { parseCallRequest } from './callObject.ts'
import type { CallRequest } from '../exec/call.ts'
import { custom, field, optionalField, ParamError, parseAddress, parseObject } from './params.ts'

/** eth_sendTransaction's / eth_signTransaction's object: a call plus what a transaction fixes. */
export interface TransactionRequest extends CallRequest {
  from: PrefixedHexString
  /** 0 (legacy), 1 (EIP-2930) or 2 (EIP-1559); chosen from the fee fields when absent. */
  type?: 0 | 1 | 2
}

const TYPES: Record<string, 0 | 1 | 2> = { '0x0': 0, '0x1': 1, '0x2': 2 }

function parseTransactionRequest(value: unknown): TransactionRequest {
  const object = parseObject(value)
  if (object.from === undefined || object.from === null) throw new ParamError('from: the sender is required')
  const type = optionalField(object, 'type', parseType)
  if (object.eip712Meta !== undefined && object.eip712Meta !== null) {
    throw new ParamError('eip712Meta: a ZKsync EIP-712 (0x71) transaction is signed by the client; send it with eth_sendRawTransaction')
  }
  return {
    ...parseCallRequest(object),
    from: field(object, 'from', parseAddress),
    type,
  }
}

function parseType(value: unknown): 0 | 1 | 2 {
  if (typeof value === 'string' && Object.hasOwn(TYPES, value.toLowerCase())) return TYPES[value.toLowerCase()]
  if (value === '0x71' || value === '0x4' || value === '0x3') {
    throw new ParamError(`type ${value} transactions are not signed by the node (their extra fields are the client's): sign them in the client and use eth_sendRawTransaction`)
  }
  throw new ParamError(`expected "0x0" (legacy), "0x1" (EIP-2930) or "0x2" (EIP-1559), got ${JSON.stringify(value)}`)
}

export const transactionRequest = (name: string) => custom(name, parseTransactionRequest)

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

/** eth_fillTransaction's object: as above, but `from` may be left out (geth fills the zero address). */
export const fillRequest = (name: string) =>
  custom(name, (value) => {
    const object = parseObject(value)
    return parseTransactionRequest(object.from === undefined || object.from === null ? { ...object, from: ZERO_ADDRESS } : object)
  })
