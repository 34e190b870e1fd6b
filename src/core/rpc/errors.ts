/**
 * Typed JSON-RPC errors. Every failure a caller can see is one of these, so the code travels with
 * the error from wherever it is thrown to the envelope (and, later, across Comlink and the SW).
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
  /** EIP-1474: a query that would exceed a configured limit. */
  limitExceeded: -32005,
  /** EIP-1193: the account (or method) is not authorized: a sender the node holds no key for. */
  unauthorized: 4100,
  /** EIP-3326: wallet_switchEthereumChain to a chain the wallet does not know. */
  unrecognizedChain: 4902,
} as const

export class RpcError extends Error {
  readonly code: number
  readonly data?: unknown

  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.name = 'RpcError'
    this.code = code
    if (data !== undefined) this.data = data
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data }
  }
}

export class ParseError extends RpcError {
  constructor(detail: string) {
    super(ErrorCode.parse, `parse error: ${detail}`)
  }
}

export class InvalidRequestError extends RpcError {
  constructor(message: string) {
    super(ErrorCode.invalidRequest, message)
  }
}

export class MethodNotFoundError extends RpcError {
  constructor(method: string) {
    super(ErrorCode.methodNotFound, `the method ${method} does not exist/is not available`)
  }
}

export class InvalidParamsError extends RpcError {
  constructor(message: string) {
    super(ErrorCode.invalidParams, message)
  }
}

export class InternalError extends RpcError {
  constructor(message: string) {
    super(ErrorCode.internal, message)
  }
}

/** A transaction the node refuses to accept (geth's txpool/core wording in `message`). */
export class TransactionRejectedError extends RpcError {
  constructor(message: string) {
    super(ErrorCode.server, message)
  }
}

export class LimitExceededError extends RpcError {
  constructor(message: string) {
    super(ErrorCode.limitExceeded, message)
  }
}

/** Any other failure a real node reports as -32000 (unknown block, unknown filter, …). */
export class ServerError extends RpcError {
  constructor(message: string, data?: unknown) {
    super(ErrorCode.server, message, data)
  }
}

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

/** A call that reverted: code 3, message with the decoded reason, `data` the raw revert bytes. */
export class ExecutionRevertedError extends RpcError {
  constructor(reason: string | undefined, data: string) {
    super(ErrorCode.executionReverted, reason ? `execution reverted: ${reason}` : 'execution reverted', data)
  }
}

/** Wraps anything thrown by a handler into an RpcError without losing a code it already has. */
export function toRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error
  const message = error instanceof Error ? error.message : String(error)
  return new InternalError(message)
}
