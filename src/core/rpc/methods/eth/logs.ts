import type { PrefixedHexString } from '@ethereumjs/util'
import type { BlockRef } from '../../../chain/chain.ts'
import type { LogFilterSpec } from '../../../chain/filters.ts'
import type { BlockRecord } from '../../../chain/records.ts'
import { LogMatcher, type LogCriteria } from '../../../chain/logQuery.ts'
import type { Node } from '../../../node.ts'
import { InvalidParamsError, LimitExceededError, ServerError } from '../../../errors.ts'
import { formatLog } from '../../format/log.ts'
import { method, type MethodTable } from '../../method.ts'
import { parseLogQuery, type LogQuery } from '../../logFilterObject.ts'
import { custom, isShortHex, ParamError } from '../../params.ts'

function resolveNumber(node: Node, ref: BlockRef): bigint {
  return ref.kind === 'number' ? ref.number : ref.kind === 'tag' ? node.chain.resolveTag(ref.tag).number : node.block(ref).number
}

/** geth refuses a range whose explicit block numbers run backwards, wherever the head is. */
function checkOrder(spec: LogFilterSpec): void {
  const { fromBlock: from, toBlock: to } = spec
  if (from.kind === 'number' && to.kind === 'number' && from.number > to.number) {
    throw new InvalidParamsError(`invalid block range params: fromBlock ${from.number} is after toBlock ${to.number}`)
  }
}

/**
 * The blocks an eth_getLogs / eth_getFilterLogs query spans now (clamped to the head), or
 * undefined when it starts beyond the head.
 */
function queryRange(node: Node, spec: LogFilterSpec): [bigint, bigint] | undefined {
  checkOrder(spec)
  const head = node.chain.head.number
  const from = resolveNumber(node, spec.fromBlock)
  let to = resolveNumber(node, spec.toBlock)
  if (to > head) to = head
  if (from > to) {
    if (from <= head) throw new InvalidParamsError(`invalid block range params: fromBlock ${from} is after toBlock ${to}`)
    return undefined
  }
  const limit = BigInt(node.config.limits.maxLogBlockRange)
  if (to - from + 1n > limit) {
    throw new LimitExceededError(`block range too large: ${to - from + 1n} blocks, the limit is ${limit}`, { limit: 'maxLogBlockRange' })
  }
  return [from, to]
}

/**
 * The blocks mined since a log filter's last poll that its range admits. Like geth, a tag
 * (`latest` …) bounds nothing here: a filter from `latest` reports every new block, not just
 * the head at poll time. No range limit: the cursor must always be able to move on.
 */
function changesRange(node: Node, spec: LogFilterSpec, lastBlock: bigint): [bigint, bigint] | undefined {
  const head = node.chain.head.number
  let from = lastBlock + 1n
  let to = head
  if (spec.fromBlock.kind !== 'tag') from = max(from, resolveNumber(node, spec.fromBlock))
  if (spec.toBlock.kind !== 'tag') to = min(to, resolveNumber(node, spec.toBlock))
  return from <= to ? [from, to] : undefined
}

const max = (a: bigint, b: bigint) => (a > b ? a : b)
const min = (a: bigint, b: bigint) => (a < b ? a : b)

function logsIn(node: Node, criteria: LogCriteria, blocks: Iterable<BlockRecord>, limit = node.config.limits.maxLogResults) {
  return new LogMatcher(criteria)
    .collect(blocks, limit, () => {
      throw new LimitExceededError(`query returned more than ${limit} results; narrow the block range or the filter`, { limit: 'maxLogResults' })
    })
    .map(({ log, tx, block }) => formatLog(log, tx, block))
}

function logsOf(node: Node, query: LogQuery) {
  if (query.blockHash) {
    const block = node.chain.blockByHash(query.blockHash)
    if (!block) throw new ServerError(`unknown block ${query.blockHash}`)
    return logsIn(node, query.criteria, [block])
  }
  const range = queryRange(node, query)
  return range ? logsIn(node, query.criteria, node.chain.range(...range)) : []
}

/** New logs for a filter: unbounded, as geth's (an error would leave the filter stuck). */
function logChanges(node: Node, spec: LogFilterSpec, lastBlock: bigint) {
  const range = changesRange(node, spec, lastBlock)
  return range ? logsIn(node, spec.criteria, node.chain.range(...range), Infinity) : []
}

const filterId = () => custom('filterId', (value) => {
  if (!isShortHex(value)) {
    throw new ParamError(`expected a filter id (0x-prefixed hex), got ${JSON.stringify(value)}`)
  }
  return value.toLowerCase() as PrefixedHexString
})

/**
 * eth_getLogs and the polling filters (their limits: block range, result count, filters; see
 * docs/json-rpc.md, "Limits").
 */
export const logMethods: MethodTable = {
  eth_getLogs: method([custom('filter', parseLogQuery)], (node, [query]) => logsOf(node, query)),

  eth_newFilter: method([custom('filter', parseLogQuery)], (node, [query]) => {
    if (query.blockHash) throw new InvalidParamsError('invalid argument 0 (filter): filters take fromBlock/toBlock, not blockHash')
    checkOrder(query)
    return node.filters.install({ kind: 'logs', spec: query, lastBlock: node.chain.head.number })
  }),

  eth_newBlockFilter: method([], (node) => node.filters.install({ kind: 'blocks', lastBlock: node.chain.head.number })),

  eth_newPendingTransactionFilter: method([], (node) => node.filters.install({ kind: 'pendingTransactions', hashes: [] })),

  eth_uninstallFilter: method([filterId()], (node, [id]) => node.filters.uninstall(id)),

  eth_getFilterChanges: method([filterId()], (node, [id]) => {
    const filter = node.filters.poll(id)
    const head = node.chain.head.number
    switch (filter.kind) {
      case 'pendingTransactions':
        return filter.hashes.splice(0)
      case 'blocks': {
        const hashes = [...node.chain.range(filter.lastBlock + 1n, head)].map((block) => block.hash)
        filter.lastBlock = head
        return hashes
      }
      case 'logs': {
        const logs = logChanges(node, filter.spec, filter.lastBlock)
        filter.lastBlock = head
        return logs
      }
    }
  }),

  eth_getFilterLogs: method([filterId()], (node, [id]) => {
    const filter = node.filters.poll(id)
    if (filter.kind !== 'logs') throw new InvalidParamsError('invalid argument 0 (filterId): not a log filter')
    return logsOf(node, filter.spec)
  }),
}
