/**
 * The node's errors (docs/json-rpc.md, "Errors"). Every failure a caller can see is an RpcError:
 * its JSON-RPC `code` travels with it from wherever it is thrown to the answer, with `data` when
 * the caller may act on it (a revert's bytes), context fields for code that branches on it (never
 * on the message), and the ES2022 `cause` when it reports another exception (kept for logs and
 * debuggers, never sent to callers).
 *
 * This module sits at the core's root so that every folder (chain/, exec/, rollup/, rpc/, store/,
 * trace/, …) imports it inward. The classes are grouped by domain: requests, execution,
 * transaction rejections, limits, the store, wallets, other server errors, and internal errors.
 * Anything thrown that is none of these is a bug in pagenode: `toRpcError` makes it an
 * InternalError, which the node reports once (core/node.ts, `Node.run`).
 */

export const ErrorCode = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** geth's code for a reverted eth_call / eth_estimateGas; `data` carries the revert bytes. */
  executionReverted: 3,
  /** geth's generic server error: rejected transactions, unknown filters, failed execution. */
  server: -32000,
  /** EIP-7966 (geth's txSyncTimeoutError): eth_sendRawTransactionSync's transaction was not mined in time. */
  transactionSyncTimeout: 4,
  /** EIP-1474: a query that would exceed a configured limit. */
  limitExceeded: -32005,
  /** EIP-1193: the account (or method) is not authorized: a sender the node holds no key for. */
  unauthorized: 4100,
  /** EIP-3326: wallet_switchEthereumChain to a chain the wallet does not know. */
  unrecognizedChain: 4902,
} as const

/** What the error classes below take besides their message. */
export interface RpcErrorOptions {
  /** Sent to the caller with the error (a revert's bytes). */
  data?: unknown
  /** The exception this error reports: kept on the error (`error.cause`), never sent. */
  cause?: unknown
}

/** A JSON-RPC error: `code`, `message`, optional `data`, and the `cause` it reports, if any. */
export class RpcError extends Error {
  readonly code: number
  readonly data?: unknown

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    // No `cause` key at all without a cause: an own `cause: undefined` would still show.
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'RpcError'
    this.code = code
    if (data !== undefined) this.data = data
  }

  /** The JSON-RPC error object: code, message and data; the cause stays here. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data }
  }
}

// ---- requests: the envelope, the method, its params ----

export class ParseError extends RpcError {
  constructor(detail: string, options: RpcErrorOptions = {}) {
    super(ErrorCode.parse, `parse error: ${detail}`, options.data, options)
  }
}

export class InvalidRequestError extends RpcError {
  constructor(message: string, options: RpcErrorOptions = {}) {
    super(ErrorCode.invalidRequest, message, options.data, options)
  }
}

export class MethodNotFoundError extends RpcError {
  constructor(readonly method: string) {
    super(ErrorCode.methodNotFound, `the method ${method} does not exist/is not available`)
  }
}

/** A param that is missing, malformed or out of range; the message names it and what was expected. */
export class InvalidParamsError extends RpcError {
  constructor(message: string, options: RpcErrorOptions = {}) {
    super(ErrorCode.invalidParams, message, options.data, options)
  }
}

// ---- execution: eth_call, eth_estimateGas, traces ----

/** A call that reverted: code 3, message with the decoded reason, `data` the raw revert bytes. */
export class ExecutionRevertedError extends RpcError {
  constructor(
    /** The decoded reason (`Error(string)`, a panic), when there is one. */
    readonly reason: string | undefined,
    data: string,
  ) {
    super(ErrorCode.executionReverted, reason ? `execution reverted: ${reason}` : 'execution reverted', data)
  }
}

/**
 * A call that failed without reverting (out of gas, an invalid opcode, gas required exceeds
 * allowance), or that the engine refused to run (geth's words, -32000). `cause`: the engine's
 * error, when it threw one.
 */
export class ExecutionError extends RpcError {
  constructor(message: string, options: RpcErrorOptions = {}) {
    super(ErrorCode.server, message, options.data, options)
  }
}

/** The engine refused to run a call at its gas limit: below the intrinsic gas (eth_estimateGas tries higher). */
export class GasLimitTooLowError extends ExecutionError {}

/**
 * A call, estimate or trace stopped at the node's execution time limit (`limits.evmTimeoutMs`, a
 * trace's `timeout`), in geth's words: "execution aborted (timeout = 5s)" for eth_call and the
 * estimates, "execution timeout" for a trace. `limitMs`: the limit it ran into.
 */
export class ExecutionTimeoutError extends ExecutionError {
  constructor(
    message: string,
    readonly limitMs: number,
  ) {
    super(message)
  }
}

/**
 * eth_simulateV1's own codes (execution-apis): a simulated transaction a block could not hold
 * (-38010 nonce too low … -38015 block gas limit exceeded), blocks out of order (-38020, -38021),
 * a request over the node's limits (-38026).
 */
export const SimulationErrorCode = {
  nonceTooLow: -38010,
  nonceTooHigh: -38011,
  baseFeeTooLow: -38012,
  intrinsicGas: -38013,
  insufficientFunds: -38014,
  blockGasLimit: -38015,
  blockNumberOrder: -38020,
  blockTimestampOrder: -38021,
  clientLimit: -38026,
} as const

export class SimulationError extends RpcError {
  constructor(code: (typeof SimulationErrorCode)[keyof typeof SimulationErrorCode], message: string, options: RpcErrorOptions = {}) {
    super(code, message, options.data, options)
  }
}

// ---- transactions the node refuses (geth's txpool wording, -32000) ----

/** A transaction the node refuses to accept (geth's txpool/core wording in `message`). */
export class TransactionRejectedError extends RpcError {
  constructor(message: string, options: RpcErrorOptions = {}) {
    super(ErrorCode.server, message, options.data, options)
  }
}

/**
 * A transaction that was mined and failed, answered to its send as Hardhat answers it (the
 * throwOnTransactionFailures option): its message, its hash and its revert data in `data`.
 */
export class TransactionFailedError extends RpcError {
  constructor(message: string, outOfGas: boolean, txHash: `0x${string}`, revertData: `0x${string}`) {
    super(outOfGas ? ErrorCode.server : ErrorCode.internal, message, { message, txHash, data: revertData })
  }
}

/**
 * eth_sendRawTransactionSync's transaction is in the pool but no block took it within the timeout
 * (EIP-7966, geth's wording and code): `data` is its hash, for the caller to poll on.
 */
export class TransactionSyncTimeoutError extends RpcError {
  constructor(
    readonly hash: `0x${string}`,
    timeoutMs: number,
  ) {
    super(ErrorCode.transactionSyncTimeout, `The transaction was added to the transaction pool but wasn't processed in ${timeoutMs / 1000}s.`, hash)
  }
}

/** The transaction is in the pool or mined already: sending it again is harmless (idempotent by hash). */
export class AlreadyKnownError extends TransactionRejectedError {
  constructor(readonly hash: `0x${string}`) {
    super('already known')
  }
}

export class NonceTooLowError extends TransactionRejectedError {
  constructor(
    readonly address: string,
    readonly nonce: bigint,
    readonly stateNonce: bigint,
  ) {
    super(`nonce too low: address ${address}, tx: ${nonce} state: ${stateNonce}`)
  }
}

/** The sender cannot pay gas × fee cap + value. */
export class InsufficientFundsError extends TransactionRejectedError {
  constructor(
    readonly address: string,
    readonly have: bigint,
    readonly want: bigint,
  ) {
    super(`insufficient funds for gas * price + value: address ${address} have ${have} want ${want}`)
  }
}

// ---- limits (docs/json-rpc.md, "Limits") ----

/** A request that would exceed one of the node's limits (EIP-1474 -32005). */
export class LimitExceededError extends RpcError {
  /** The `limits` option it would exceed (`maxLogResults`, …), when it is one. */
  readonly limit?: string

  constructor(message: string, options: RpcErrorOptions & { limit?: string } = {}) {
    super(ErrorCode.limitExceeded, message, options.data, options)
    if (options.limit !== undefined) this.limit = options.limit
  }
}

// ---- the store ----

/**
 * A change the store refused to keep (a full disk, a fenced-off leader): the chain is back at its
 * last stored block. `cause`: the store's error.
 */
export class StoreError extends RpcError {
  constructor(message: string, options: RpcErrorOptions = {}) {
    super(ErrorCode.server, message, options.data, options)
  }
}

/**
 * A stored chain this node cannot open (another chain id, a newer schema, damage): `createNode`
 * rejects with it, and a worker whose node could not open answers every call with it. Also what a
 * call gets when the state it reads needs a trie node the store lost (TrieNodeStore).
 */
export class ChainStoreError extends RpcError {
  constructor(message: string, options: RpcErrorOptions = {}) {
    super(ErrorCode.internal, message, options.data, options)
    this.name = 'ChainStoreError'
  }
}

// ---- a forked chain's upstream ----

/**
 * The upstream of a forked chain (core/fork/) failed to answer what the node needed: it could not
 * be reached, timed out, answered an HTTP error or a JSON-RPC error, or (in a page) refused the
 * cross-origin request. -32603, as anvil answers when its fork's upstream fails. `upstream`: the
 * upstream's origin, without credentials, which the message names too. `cause`: the failure.
 */
export class UpstreamError extends RpcError {
  constructor(
    readonly upstream: string,
    message: string,
    options: RpcErrorOptions = {},
  ) {
    super(ErrorCode.internal, message, options.data, options)
    this.name = 'UpstreamError'
  }
}

// ---- wallets ----

/** EIP-1193 4100: the node cannot act for this account (no key, not impersonated). */
export class UnauthorizedError extends RpcError {
  constructor(message: string) {
    super(ErrorCode.unauthorized, message)
  }
}

/** EIP-3326 4902: a chain this node is not. */
export class UnrecognizedChainError extends RpcError {
  constructor(message: string) {
    super(ErrorCode.unrecognizedChain, message)
  }
}

// ---- anything else a real node reports as -32000 ----

/** Any other failure a real node reports as -32000 (unknown block, unknown filter, a closed node, …). */
export class ServerError extends RpcError {
  constructor(message: string, options: RpcErrorOptions = {}) {
    super(ErrorCode.server, message, options.data, options)
  }
}

// ---- internal errors ----

/**
 * -32603: something the node should have been able to do. Thrown as such where the node knows
 * (a replay that diverged); made by `toRpcError` from any other exception, which is a bug.
 */
export class InternalError extends RpcError {
  constructor(message: string, options: RpcErrorOptions = {}) {
    super(ErrorCode.internal, message, options.data, options)
  }
}

/**
 * What a caller is told of an exception `method` threw: a typed error as it is; anything else
 * (a TypeError, an engine's assertion) is a bug in pagenode, an InternalError that says so,
 * names the method and keeps the original as its `cause` (stack intact).
 */
export function toRpcError(error: unknown, method: string): RpcError {
  if (error instanceof RpcError) return error
  const message = error instanceof Error ? error.message : String(error)
  return new InternalError(`internal error in ${method} (a bug in pagenode: please report it): ${message}`, { cause: error })
}
