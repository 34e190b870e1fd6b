/**
 * The command line's flags for the node's limits (core/config.ts `Limits`, docs/json-rpc.md
 * "Limits"): one flag per limit, named as geth names it where geth has one (--rpc.gascap,
 * --rpc.evmtimeout, --rpc.batch-request-limit), else after the option.
 */
import type { Limits } from '../core/index.ts'
import { goDurationMs } from '../core/goDuration.ts'

/** Why a flag's value was refused (args.ts makes it a UsageError). */
export class LimitFlagError extends Error {}

interface LimitFlag {
  flag: string
  limit: keyof Limits
  /** The help line's value name and text. */
  value: string
  help: string
  parse: (text: string, flag: string) => number | bigint
}

function count(text: string, flag: string): number {
  const n = /^\d+$/.test(text) ? Number(text) : NaN
  if (!(Number.isSafeInteger(n) && n > 0)) throw new LimitFlagError(`${flag} must be a positive integer, got '${text}'`)
  return n
}

function gas(text: string, flag: string): bigint {
  if (!/^\d+$/.test(text) || BigInt(text) === 0n) throw new LimitFlagError(`${flag} must be a positive amount of gas, got '${text}'`)
  return BigInt(text)
}

/** A Go duration as geth's flags take it ("5s", "500ms", "1m"); `zero`: whether 0 (no limit) is allowed. */
function duration(zero: boolean) {
  return (text: string, flag: string): number => {
    const ms = goDurationMs(text)
    if (ms === undefined || (!zero && ms === 0)) {
      throw new LimitFlagError(`${flag} must be a duration like 5s or 500ms${zero ? ' (0 for no limit)' : ''}, got '${text}'`)
    }
    return ms
  }
}

export const LIMIT_FLAGS: readonly LimitFlag[] = [
  { flag: 'rpc.evmtimeout', limit: 'evmTimeoutMs', value: '<duration>', help: 'time limit of eth_call, estimates and traces (default 5s; 0: none)', parse: duration(true) },
  { flag: 'rpc.gascap', limit: 'callGasCap', value: '<gas>', help: 'gas cap of eth_call, estimates and debug_traceCall (default 50000000)', parse: gas },
  { flag: 'rpc.batch-request-limit', limit: 'maxBatchLength', value: '<n>', help: 'calls in one batch request (default 1000)', parse: count },
  { flag: 'max-request-bytes', limit: 'maxRequestBytes', value: '<bytes>', help: 'size of a request body (default 5242880: 5 MiB)', parse: count },
  { flag: 'max-log-block-range', limit: 'maxLogBlockRange', value: '<n>', help: 'blocks one eth_getLogs query may span (default 10000)', parse: count },
  { flag: 'max-log-results', limit: 'maxLogResults', value: '<n>', help: 'logs one eth_getLogs answer may hold (default 10000)', parse: count },
  { flag: 'max-filters', limit: 'maxFilters', value: '<n>', help: 'installed filters at once (default 1000)', parse: count },
  { flag: 'max-subscriptions', limit: 'maxSubscriptions', value: '<n>', help: 'eth_subscribe subscriptions per WebSocket connection (default 1000)', parse: count },
  { flag: 'filter-idle-timeout', limit: 'filterIdleMs', value: '<duration>', help: 'a filter not polled this long is removed (default 5m)', parse: duration(false) },
  { flag: 'max-trace-bytes', limit: 'maxTraceBytes', value: '<bytes>', help: 'size of a struct log trace (default 33554432: 32 MiB)', parse: count },
  { flag: 'state-cache-nodes', limit: 'stateCacheNodes', value: '<n>', help: 'trie nodes kept in memory once stored; the rest are read from the state file (default 50000)', parse: count },
  { flag: 'max-mine-blocks', limit: 'maxMineBlocks', value: '<n>', help: 'blocks one anvil_mine / evm_mine call may mine (default 10000)', parse: count },
]

/** The flags for node:util's parseArgs. */
export const limitFlagSpec = Object.fromEntries(LIMIT_FLAGS.map(({ flag }) => [flag, { type: 'string' as const }]))

/** The help's lines for these flags. */
export function limitFlagHelp(): string {
  return LIMIT_FLAGS.map(({ flag, value, help }) => {
    const name = `  --${flag} ${value}`
    return name.length < 25 ? `${name.padEnd(25)}${help}` : `${name}\n${' '.repeat(25)}${help}`
  }).join('\n')
}

/** The limits the given flags set (the others stay the node's defaults). */
export function parseLimitFlags(values: Readonly<Record<string, unknown>>): Partial<Limits> {
  const limits: Partial<Record<keyof Limits, number | bigint>> = {}
  for (const { flag, limit, parse } of LIMIT_FLAGS) {
    const text = values[flag]
    if (typeof text === 'string') limits[limit] = parse(text, `--${flag}`)
  }
  return limits as Partial<Limits>
}
