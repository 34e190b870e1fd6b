import type { PrefixedHexString } from '@ethereumjs/util'
import type { BlockRef } from '../chain/chain.ts'
import type { LogFilterSpec } from '../chain/filters.ts'
import type { LogCriteria } from '../chain/logQuery.ts'
import { optionalField, ParamError, parseAddress, parseBlockRef, parseHash, parseObject } from './params.ts'

const LATEST: BlockRef = { kind: 'tag', tag: 'latest' }
const MAX_TOPICS = 4

/** The filter object of eth_getLogs / eth_newFilter. */
export interface LogQuery extends LogFilterSpec {
  blockHash?: PrefixedHexString
}

const present = (object: Record<string, unknown>, key: string) => object[key] !== undefined && object[key] !== null

export function parseLogQuery(value: unknown): LogQuery {
  const object = parseObject(value)
  const blockHash = optionalField(object, 'blockHash', parseHash)
  if (blockHash && (present(object, 'fromBlock') || present(object, 'toBlock'))) {
    throw new ParamError('cannot specify both blockHash and fromBlock/toBlock, choose one or the other')
  }
  return {
    blockHash,
    fromBlock: optionalField(object, 'fromBlock', parseBlockRef) ?? LATEST,
    toBlock: optionalField(object, 'toBlock', parseBlockRef) ?? LATEST,
    criteria: parseLogCriteria(object),
  }
}

/** The address/topics part alone (what an eth_subscribe('logs', …) filter holds). */
export function parseLogCriteria(object: Record<string, unknown>): LogCriteria {
  return {
    addresses: optionalField(object, 'address', parseAddresses) ?? null,
    topics: optionalField(object, 'topics', parseTopics) ?? [],
  }
}

function parseAddresses(value: unknown): PrefixedHexString[] | null {
  if (typeof value === 'string') return [parseAddress(value)]
  if (Array.isArray(value)) return value.length === 0 ? null : value.map(parseAddress)
  throw new ParamError(`expected an address or an array of addresses, got ${JSON.stringify(value)}`)
}

function parseTopics(value: unknown): LogCriteria['topics'] {
  if (!Array.isArray(value)) throw new ParamError('expected an array of topics')
  if (value.length > MAX_TOPICS) throw new ParamError(`exceed max topics: at most ${MAX_TOPICS} positions`)
  return value.map((position) => {
    if (position === null) return null
    if (Array.isArray(position)) return position.length === 0 ? null : position.map(parseHash)
    return [parseHash(position)]
  })
}
