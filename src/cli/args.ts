import { parseArgs } from 'node:util'
import type { Limits, MiningConfig } from '../core/index.ts'
import { LimitFlagError, limitFlagHelp, limitFlagSpec, parseLimitFlags } from './limitFlags.ts'

/** What the command line asked for, validated. */
export interface CliOptions {
  host: string
  port: number
  chainId: number
  mining: MiningConfig
  /** The chain to fork (--fork-url, --fork-block-number). */
  fork?: { url: string; blockNumber?: bigint }
  /** The state file; absent: the chain lives in memory and ends with the process. */
  state?: string
  /** Keep the valid prefix of a damaged state file, its original copied aside (--state-recover). */
  stateRecover: boolean
  accounts: number
  /** Starting balance of each dev account, in wei. */
  balance: bigint
  /** Fund anvil-zksync's rich wallets too (--no-rich-wallets: no). */
  richWallets: boolean
  /** Bytes of deployed code a contract may have; false: no limit. */
  codeSizeLimit: number | false
  /** Hardhat's throwOnTransactionFailures (--throw-on-transaction-failures). */
  throwOnTransactionFailures: boolean
  /** Host names allowed besides this machine's (--allow-host; '*': any). */
  allowHosts: string[]
  /** Origins whose pages may call besides loopback ones (--allow-origin; '*': any, as anvil). */
  allowOrigins: string[]
  /** The limits set by flags (--rpc.evmtimeout, --max-log-results, …); the rest are the node's defaults. */
  limits: Partial<Limits>
  verbose: boolean
  /** Which of the options above were given on the command line (the rest are defaults). */
  given: ReadonlySet<string>
}

export type CliCommand = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; options: CliOptions }

/** A command line that cannot be run; the message names the flag and what it expects. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export const CLI_DEFAULTS = {
  host: '127.0.0.1',
  // anvil-zksync's port, which viem's zksyncInMemoryNode and the ZKsync docs point at.
  port: 8011,
  chainId: 260,
  accounts: 10,
  balance: '10000',
  codeSizeLimit: 24_576,
} as const

export const HELP = `Usage: pagenode [options]
       pagenode init <public dir>   write the in-page node's service worker script there

A ZKsync-flavoured Ethereum JSON-RPC node on http://${CLI_DEFAULTS.host}:${CLI_DEFAULTS.port}.

Options:
  --host <address>       interface to listen on (default ${CLI_DEFAULTS.host}; 0.0.0.0 for all)
  -p, --port <number>    port to listen on, 0 for any free one (default ${CLI_DEFAULTS.port})
  --chain-id <id>        chain id, decimal or 0x-hex (default ${CLI_DEFAULTS.chainId})
  --mining <mode>        auto: a block per transaction (default)
                         interval=<ms>: a block every <ms> milliseconds
                         manual: transactions wait in the pool
  --fork-url <url>       fork the chain at <url> (its state read as needed, kept in --state);
                         the chain id is the upstream's unless --chain-id is given
  --fork-block-number <n>
                         the block to fork at (default: the upstream's head at start)
  --state <file>         keep the chain in <file>: loaded at start, every change saved
                         before it is acknowledged (blocks, the pool, dev-node settings),
                         compacted at exit; --mining given at start wins over the saved mode
  --state-recover        start on a damaged state file with the records before the damage;
                         the original is kept as <file>.damaged-<time>
  -a, --accounts <n>     dev accounts to derive and fund, 0 to 1000 (default ${CLI_DEFAULTS.accounts})
  --balance <ETH>        starting balance of each dev account (default ${CLI_DEFAULTS.balance})
  --no-rich-wallets      do not fund anvil-zksync's 20 rich wallets (funded by default, with
                         the dev accounts' balance)
  --code-size-limit <n>  bytes of code a contract may deploy (default ${CLI_DEFAULTS.codeSizeLimit}, EIP-170)
  --disable-code-size-limit
                         no limit on contract code, nor on initcode (EIP-3860)
  --throw-on-transaction-failures
                         a failing transaction's send answers an error in Hardhat's words (it
                         is mined all the same), as Hardhat's network does
  --allow-origin <url>   let pages on this origin call the node (repeatable); '*' for every page,
                         as anvil does (default: loopback origins only)
  --allow-host <name>    answer requests addressed to this host name too (repeatable; default:
                         loopback names and IP addresses only, against DNS rebinding)
  -v, --verbose          print one line per request, and internal errors with their stacks
  -h, --help             print this help
  -V, --version          print the version

Limits (docs/json-rpc.md, "Limits"):
${limitFlagHelp()}

Examples:
  npx pagenode
  npx pagenode --port 8545 --chain-id 0x10e --mining interval=2000
  npx pagenode --state .pagenode/chain.state --verbose
  npx pagenode --fork-url https://rpc.example.org --state .pagenode/fork.state
`

const spec = {
  host: { type: 'string' },
  port: { type: 'string', short: 'p' },
  'chain-id': { type: 'string' },
  mining: { type: 'string' },
  'fork-url': { type: 'string' },
  'fork-block-number': { type: 'string' },
  state: { type: 'string' },
  'state-recover': { type: 'boolean' },
  accounts: { type: 'string', short: 'a' },
  balance: { type: 'string' },
  'no-rich-wallets': { type: 'boolean' },
  'code-size-limit': { type: 'string' },
  'disable-code-size-limit': { type: 'boolean' },
  'throw-on-transaction-failures': { type: 'boolean' },
  'allow-origin': { type: 'string', multiple: true },
  'allow-host': { type: 'string', multiple: true },
  ...limitFlagSpec,
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const

function parseFork(url: string | undefined, blockNumber: string | undefined): CliOptions['fork'] {
  if (url === undefined) {
    if (blockNumber !== undefined) throw new UsageError('--fork-block-number needs --fork-url <url>: the chain to fork')
    return undefined
  }
  let protocol: string | undefined
  try {
    protocol = new URL(url).protocol
  } catch {
    protocol = undefined
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new UsageError(`--fork-url must be an http:// or https:// URL, got '${url}'`)
  if (blockNumber === undefined) return { url }
  if (!/^(0|[1-9][0-9]*|0x[0-9a-fA-F]+)$/.test(blockNumber)) {
    throw new UsageError(`--fork-block-number must be a block number (decimal or 0x-hex), got '${blockNumber}'`)
  }
  return { url, blockNumber: BigInt(blockNumber) }
}

function parseStateRecover(recover: boolean, state: string | undefined): boolean {
  if (recover && state === undefined) throw new UsageError('--state-recover needs --state <file>: the state file to recover')
  return recover
}

export function parseCliArgs(argv: string[]): CliCommand {
  type Value<K extends keyof typeof spec> = (typeof spec)[K] extends { multiple: true } ? string[] : (typeof spec)[K]['type'] extends 'string' ? string : boolean
  let values: { [K in keyof typeof spec]?: Value<K> }
  try {
    ;({ values } = parseArgs({ args: argv, options: spec, strict: true, allowPositionals: false }))
  } catch (error) {
    throw new UsageError(describeParseError(error))
  }
  if (values.help) return { kind: 'help' }
  if (values.version) return { kind: 'version' }

  const given = new Set(Object.keys(values))
  return {
    kind: 'run',
    options: {
      host: parseHost(values.host ?? CLI_DEFAULTS.host),
      port: parsePort(values.port ?? String(CLI_DEFAULTS.port)),
      chainId: parseChainId(values['chain-id'] ?? String(CLI_DEFAULTS.chainId)),
      mining: parseMining(values.mining ?? 'auto'),
      fork: parseFork(values['fork-url'], values['fork-block-number']),
      state: values.state === undefined ? undefined : parseStatePath(values.state),
      stateRecover: parseStateRecover(values['state-recover'] ?? false, values.state),
      accounts: parseAccounts(values.accounts ?? String(CLI_DEFAULTS.accounts)),
      balance: parseEther(values.balance ?? CLI_DEFAULTS.balance),
      richWallets: !(values['no-rich-wallets'] ?? false),
      codeSizeLimit: parseCodeSizeLimit(values['code-size-limit'], values['disable-code-size-limit'] ?? false),
      throwOnTransactionFailures: values['throw-on-transaction-failures'] ?? false,
      allowHosts: values['allow-host'] ?? [],
      allowOrigins: (values['allow-origin'] ?? []).map(parseOrigin),
      limits: parseLimits(values),
      verbose: values.verbose ?? false,
      given,
    },
  }
}

function parseLimits(values: Readonly<Record<string, unknown>>): Partial<Limits> {
  try {
    return parseLimitFlags(values)
  } catch (error) {
    if (error instanceof LimitFlagError) throw new UsageError(error.message)
    throw error
  }
}

function parseHost(value: string): string {
  if (value.trim() === '') throw new UsageError('--host needs an address, e.g. 127.0.0.1 or 0.0.0.0')
  return value
}

function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--port must be a number from 0 to 65535, got '${value}'`)
  return port
}

function parseChainId(value: string): number {
  const id = /^0x[0-9a-f]+$/i.test(value) || /^\d+$/.test(value) ? Number(value) : NaN
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new UsageError(`--chain-id must be a positive integer (decimal or 0x-hex), got '${value}'`)
  }
  return id
}

function parseMining(value: string): MiningConfig {
  if (value === 'auto') return { mode: 'auto' }
  if (value === 'manual') return { mode: 'manual' }
  const interval = /^interval=(\d+)$/.exec(value)
  if (interval && Number(interval[1]) > 0 && Number.isSafeInteger(Number(interval[1]))) {
    return { mode: 'interval', intervalMs: Number(interval[1]) }
  }
  throw new UsageError(`--mining must be auto, manual or interval=<ms> (e.g. interval=1000), got '${value}'`)
}

function parseStatePath(value: string): string {
  if (value.trim() === '') throw new UsageError('--state needs a file name')
  return value
}

function parseAccounts(value: string): number {
  const count = /^\d+$/.test(value) ? Number(value) : NaN
  if (!(count >= 0 && count <= 1000)) throw new UsageError(`--accounts must be a number from 0 to 1000, got '${value}'`)
  return count
}

/** An origin as browsers send it: scheme, host and port, no path; or '*'. */
function parseOrigin(value: string): string {
  if (value === '*') return value
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new UsageError(`--allow-origin must be an origin like http://localhost:3000 (or '*'), got '${value}'`)
  }
  if (url.origin === 'null' || url.pathname !== '/' || url.search || url.hash) {
    throw new UsageError(`--allow-origin must be an origin like http://localhost:3000 (scheme, host and port, no path), got '${value}'`)
  }
  return url.origin
}

/** anvil's pair of flags: a number of bytes, or no limit; not both. */
function parseCodeSizeLimit(value: string | undefined, disabled: boolean): number | false {
  if (disabled && value !== undefined) throw new UsageError('--code-size-limit and --disable-code-size-limit exclude each other: give one')
  if (disabled) return false
  if (value === undefined) return CLI_DEFAULTS.codeSizeLimit
  const bytes = /^\d+$/.test(value) ? Number(value) : NaN
  if (!(Number.isSafeInteger(bytes) && bytes > 0)) throw new UsageError(`--code-size-limit must be a positive number of bytes, got '${value}'`)
  return bytes
}

/** A decimal amount of ETH ("10000", "0.5") in wei, exactly: no floating point on the way. */
export function parseEther(value: string): bigint {
  const amount = /^(\d+)(?:\.(\d{1,18}))?$/.exec(value)
  if (!amount) throw new UsageError(`--balance must be an amount of ETH like 10000 or 0.5 (at most 18 decimals), got '${value}'`)
  const [, whole, fraction = ''] = amount
  return BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, '0'))
}

/** node:util's parse errors, reworded: one line naming the flag, without its advice about `--`. */
function describeParseError(error: unknown): string {
  const code = (error as { code?: string }).code
  const message = error instanceof Error ? error.message : String(error)
  // "Option '-p, --port <value>' argument missing": name the long form.
  const option = /--[\w.-]+/.exec(message)?.[0] ?? /'(-\w)/.exec(message)?.[1]
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const suggestion = option && closestOption(option)
      return `unknown option ${option ?? ''}${suggestion ? ` (did you mean ${suggestion}?)` : ''}`.trim()
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      // A flag without its value (last, or followed by another flag), or a switch given one.
      // node:util gives these three one code and no other field: its message is all that tells
      // them apart (a changed wording falls back to the last answer, still naming the flag).
      if (message.includes('ambiguous')) {
        return `${option} needs a value (a value starting with '-' is written ${option}=<value>)`
      }
      if (message.includes('argument missing')) return `${option} needs a value`
      return `${option} does not take a value`
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const argument = /'([^']*)'/.exec(message)?.[1]
      return `unexpected argument '${argument ?? ''}': every option is a --flag`
    }
    default:
      return message.split('\n')[0]
  }
}

/** `--chainId`, `--chainid`, `--Port`, `--rpc-evmtimeout`: the flag meant, when it differs only in case, dashes or dots. */
function closestOption(option: string): string | undefined {
  const squash = (name: string) => name.replace(/[-.]/g, '').toLowerCase()
  const wanted = squash(option)
  const match = Object.keys(spec).find((name) => squash(name) === wanted)
  return match && `--${match}`
}
