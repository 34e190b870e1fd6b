import type { RpcError } from './errors.ts'
import type { Store } from './store/store.ts'

/** How blocks are produced (docs/api.md, "Options and defaults"). */
export type MiningConfig =
  | { mode: 'auto' }
  | { mode: 'interval'; intervalMs: number }
  | { mode: 'manual' }

/** When an open L1 batch seals. */
export interface BatchSealing {
  /** Seal once the batch holds this many blocks. */
  maxBlocks: number
  /** Seal once the batch has been open this long (ms, the node's clock), new blocks or not. */
  maxAgeMs: number
}

/**
 * Output of the debug_trace* methods: 'zksync' (ZKsync's DebugCall; callTracer by default) or
 * 'geth' (geth's exact callTracer output; the struct logger by default).
 */
export type TraceStyle = 'zksync' | 'geth'

/** Limits that protect the node (and the tab it runs in) from oversized work. */
export interface Limits {
  /** Largest JSON-RPC request body, in bytes (checked by transports that see raw bytes). */
  maxRequestBytes: number
  /** Most calls in one batch request. */
  maxBatchLength: number
  /** Most blocks one eth_getLogs / eth_getFilterLogs query may span. */
  maxLogBlockRange: number
  /** Most logs one eth_getLogs / eth_getFilterLogs answer may hold. */
  maxLogResults: number
  /** Most installed filters at once. */
  maxFilters: number
  /** Most eth_subscribe subscriptions one connection (a WebSocket, a page, a createNode caller) may hold at once. */
  maxSubscriptions: number
  /** A filter not polled for this long is removed (geth: 5 minutes). */
  filterIdleMs: number
  /** Gas cap for eth_call and eth_estimateGas (geth's RPCGasCap default). */
  callGasCap: bigint
  /**
   * How long eth_call, eth_estimateGas, the zks_ estimates and the debug_trace* replays may run,
   * in ms (geth's --rpc.evmtimeout and tracer timeout: 5 s); 0 for no limit.
   */
  evmTimeoutMs: number
  /** Largest struct log (debug_trace* without a call tracer), as estimated JSON bytes. */
  maxTraceBytes: number
  /** Most blocks one anvil_mine / hardhat_mine / evm_mine call may mine (each is kept in memory). */
  maxMineBlocks: number
  /**
   * Trie nodes kept in memory once stored (~300 bytes each): the hot state. The rest stay in the
   * store and are read by need, so memory does not grow with the chain's state.
   */
  stateCacheNodes: number
}

/** A chain to fork (docs/api.md, "Forking a live chain"). */
export interface ForkConfig {
  /** The upstream's JSON-RPC endpoint (http: or https:). */
  url: string
  /** The block to fork at; the upstream's head at start when absent (resolved once, then pinned). */
  blockNumber?: bigint | number
  /** Per request to the upstream, in ms (default 20,000): a slower answer is retried. */
  timeoutMs?: number
  /** Retries of a request that failed on the network, timed out or got HTTP 429/5xx (default 3). */
  retries?: number
}

export interface NodeConfig {
  /**
   * Chain id (default 260, like anvil-zksync and viem's zksyncInMemoryNode: docs/zksync.md, "Chain
   * model"; on a fork, the upstream's).
   */
  chainId?: number
  /** BIP-39 mnemonic of the dev accounts. Their keys are public: a dev node only. */
  mnemonic?: string
  /** How many dev accounts to derive (m/44'/60'/0'/0/i). */
  accounts?: number
  /** Starting balance of each dev account, in wei. */
  balance?: bigint
  /**
   * Fund anvil-zksync's 20 rich wallets too, each with `balance` (docs/zksync.md, "Chain model").
   * Default true.
   */
  richWallets?: boolean
  /** L2 gas price in wei; also the (fixed) base fee of every block. */
  gasPrice?: bigint
  /** Gas limit of every block (ZKsync uses 2^50). */
  blockGasLimit?: bigint
  mining?: MiningConfig
  /**
   * When an L1 batch seals (docs/zksync.md, "L1 batches"): after `maxBlocks` blocks, or once it has
   * been open `maxAgeMs`, whichever comes first. Default: every block seals its own batch. Giving
   * only `maxAgeMs` seals by age alone.
   */
  batches?: Partial<BatchSealing>
  limits?: Partial<Limits>
  /** Where the chain is kept; a fresh in-memory store when absent. */
  store?: Store
  /**
   * Fork a live chain: its state at the fork block is read from `url` as the node needs it, and
   * kept in the store. A store that holds a fork continues it without this option.
   */
  fork?: ForkConfig
  /** Clock in milliseconds; tests pin it. */
  now?: () => number
  /**
   * Bytes of deployed code a contract may have (EIP-170: 24,576; initcode may have twice as many),
   * or false for no limit (anvil's --disable-code-size-limit, Hardhat's allowUnlimitedContractSize).
   */
  codeSizeLimit?: number | false
  /**
   * Hardhat's throwOnTransactionFailures: under automine, the send of a transaction that fails
   * (reverts, runs out of gas) is an error in Hardhat's words, the transaction mined all the same.
   * Off by default, as in anvil: the send answers the hash, the receipt says status 0.
   */
  throwOnTransactionFailures?: boolean
  /**
   * Whether request logging starts on (the CLI's --verbose: one line per request). anvil_/
   * hardhat_setLoggingEnabled switch it while the node runs (`Pagenode.loggingEnabled`).
   */
  logging?: boolean
  /**
   * Output of the debug_trace* methods: 'zksync' (ZKsync's DebugCall; callTracer by default) or
   * 'geth' (geth's exact callTracer output; the struct logger by default).
   */
  tracing?: TraceStyle
  /**
   * Told of every internal error once, where it becomes the call's answer: an exception that is
   * a bug in pagenode (not one of the node's typed errors), as the -32603 RpcError the caller
   * gets, whose `cause` is the original exception (stack intact), with the call's method and
   * params. Default: `console.error`.
   */
  onInternalError?: InternalErrorHandler
}

/** Told of an internal error: the RpcError answered (its `cause` is what was thrown) and the call. */
export type InternalErrorHandler = (error: RpcError, call: { method: string; params: unknown }) => void

export interface ResolvedConfig {
  chainId: number
  mnemonic: string
  accounts: number
  balance: bigint
  richWallets: boolean
  gasPrice: bigint
  blockGasLimit: bigint
  mining: MiningConfig
  batches: BatchSealing
  limits: Limits
  now: () => number
  tracing: TraceStyle
  codeSizeLimit: number | false
  throwOnTransactionFailures: boolean
  logging: boolean
  onInternalError: InternalErrorHandler
}

export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

export const DEFAULT_LIMITS: Limits = {
  maxRequestBytes: 5 * 1024 * 1024,
  maxBatchLength: 1000,
  maxLogBlockRange: 10_000,
  maxLogResults: 10_000,
  maxFilters: 1000,
  maxSubscriptions: 1000,
  filterIdleMs: 5 * 60 * 1000,
  callGasCap: 50_000_000n,
  evmTimeoutMs: 5000,
  maxTraceBytes: 32 * 1024 * 1024,
  maxMineBlocks: 10_000,
  stateCacheNodes: 50_000,
}

export const DEFAULTS = {
  chainId: 260,
  mnemonic: DEV_MNEMONIC,
  accounts: 10,
  balance: 10_000n * 10n ** 18n,
  gasPrice: 45_250_000n,
  blockGasLimit: 1n << 50n,
  mining: { mode: 'auto' } as MiningConfig,
  /** One batch per block: each block is final as soon as it is mined. */
  batches: { maxBlocks: 1, maxAgeMs: Infinity } as BatchSealing,
  tracing: 'zksync' as TraceStyle,
  /** EIP-170's. */
  codeSizeLimit: 24_576 as number | false,
} as const

export function resolveConfig(config: NodeConfig = {}): ResolvedConfig {
  const chainId = config.chainId ?? DEFAULTS.chainId
  if (!Number.isSafeInteger(chainId) || chainId <= 0) {
    throw new TypeError(`chainId must be a positive integer, got ${String(config.chainId)}`)
  }
  const accounts = config.accounts ?? DEFAULTS.accounts
  if (!Number.isInteger(accounts) || accounts < 0 || accounts > 1000) {
    throw new TypeError(`accounts must be an integer from 0 to 1000, got ${String(config.accounts)}`)
  }
  const mining = config.mining ?? DEFAULTS.mining
  if (mining.mode === 'interval' && !(Number.isFinite(mining.intervalMs) && mining.intervalMs > 0)) {
    throw new TypeError(`mining.intervalMs must be a positive number of milliseconds`)
  }
  const tracing = config.tracing ?? DEFAULTS.tracing
  if (tracing !== 'zksync' && tracing !== 'geth') {
    throw new TypeError(`tracing must be 'zksync' or 'geth', got ${String(config.tracing)}`)
  }
  const codeSizeLimit = config.codeSizeLimit ?? DEFAULTS.codeSizeLimit
  if (codeSizeLimit !== false && !(Number.isSafeInteger(codeSizeLimit) && codeSizeLimit > 0)) {
    throw new TypeError(`codeSizeLimit must be a positive number of bytes, or false for no limit, got ${String(config.codeSizeLimit)}`)
  }
  if (config.onInternalError !== undefined && typeof config.onInternalError !== 'function') {
    throw new TypeError(`onInternalError must be a function, got ${typeof config.onInternalError}`)
  }
  return {
    chainId,
    mnemonic: config.mnemonic ?? DEFAULTS.mnemonic,
    accounts,
    balance: config.balance ?? DEFAULTS.balance,
    richWallets: config.richWallets ?? true,
    gasPrice: config.gasPrice ?? DEFAULTS.gasPrice,
    blockGasLimit: config.blockGasLimit ?? DEFAULTS.blockGasLimit,
    mining,
    batches: resolveBatches(config.batches),
    limits: resolveLimits(config.limits),
    now: config.now ?? Date.now,
    tracing,
    codeSizeLimit,
    throwOnTransactionFailures: config.throwOnTransactionFailures ?? false,
    logging: config.logging ?? false,
    onInternalError: config.onInternalError ?? logInternalError,
  }
}

/** The default: the console (the page's, the worker's, Node's), which shows the cause's stack. */
function logInternalError(error: RpcError, { method, params }: { method: string; params: unknown }): void {
  console.error(`pagenode: ${error.message}`, { method, params, cause: error.cause })
}

/** Every limit checked, so a mistyped one fails at the start rather than as a strange answer later. */
export function resolveLimits(limits: Partial<Limits> | undefined): Limits {
  const resolved: Limits = { ...DEFAULT_LIMITS, ...limits }
  for (const key of Object.keys(resolved) as (keyof Limits)[]) {
    if (!(key in DEFAULT_LIMITS)) throw new TypeError(`limits.${key} is not a limit; the limits are ${Object.keys(DEFAULT_LIMITS).join(', ')}`)
  }
  const { callGasCap, evmTimeoutMs, ...counts } = resolved
  for (const [key, value] of Object.entries(counts)) {
    if (!(Number.isSafeInteger(value) && value > 0)) throw new TypeError(`limits.${key} must be a positive integer, got ${String(value)}`)
  }
  if (typeof callGasCap !== 'bigint' || callGasCap <= 0n) {
    throw new TypeError(`limits.callGasCap must be a positive bigint, got ${String(callGasCap)}`)
  }
  if (typeof evmTimeoutMs !== 'number' || !(evmTimeoutMs >= 0)) {
    throw new TypeError(`limits.evmTimeoutMs must be a number of milliseconds (0 for no limit), got ${String(evmTimeoutMs)}`)
  }
  return resolved
}

function resolveBatches(batches: Partial<BatchSealing> | undefined): BatchSealing {
  const { maxBlocks, maxAgeMs } = batches ?? {}
  if (maxBlocks !== undefined && !(maxBlocks === Infinity || (Number.isSafeInteger(maxBlocks) && maxBlocks > 0))) {
    throw new TypeError(`batches.maxBlocks must be a positive integer (or Infinity), got ${String(maxBlocks)}`)
  }
  if (maxAgeMs !== undefined && !(maxAgeMs > 0)) {
    throw new TypeError(`batches.maxAgeMs must be a positive number of milliseconds (or Infinity), got ${String(maxAgeMs)}`)
  }
  if (maxBlocks === Infinity && (maxAgeMs === undefined || maxAgeMs === Infinity)) {
    throw new TypeError('batches: with maxBlocks Infinity, maxAgeMs must be finite, or no batch would ever seal')
  }
  return {
    // Only an age given: batches seal by age alone.
    maxBlocks: maxBlocks ?? (maxAgeMs !== undefined && maxAgeMs !== Infinity ? Infinity : DEFAULTS.batches.maxBlocks),
    maxAgeMs: maxAgeMs ?? Infinity,
  }
}
