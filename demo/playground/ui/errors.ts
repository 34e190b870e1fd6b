/**
 * How the playground shows a failure where it happened: the JSON-RPC code first (what a developer
 * searches for), then the node's message, and revert data when there is some.
 */
import { h } from './dom.ts'

export interface RpcFailure {
  code?: number
  message: string
  data?: unknown
}

/** The error of a provider call (an EIP-1193 ProviderRpcError) or anything thrown, as plain data. */
export function toFailure(error: unknown): RpcFailure {
  if (typeof error === 'object' && error !== null) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown }
    return {
      ...(typeof code === 'number' ? { code } : {}),
      message: typeof message === 'string' ? message : String(error),
      ...(data !== undefined ? { data } : {}),
    }
  }
  return { message: String(error) }
}

/** "error -32000: nonce too low" */
export function failureText(error: unknown): string {
  const failure = toFailure(error)
  return failure.code === undefined ? `error: ${failure.message}` : `error ${failure.code}: ${failure.message}`
}

/** An alert element for a failure, with its data (revert bytes) when present. */
export function failureView(error: unknown, testid = 'error'): HTMLElement {
  const failure = toFailure(error)
  return h(
    'div',
    { class: 'error', role: 'alert', testid, dataset: failure.code === undefined ? {} : { code: String(failure.code) } },
    failureText(error),
    failure.data === undefined ? undefined : h('pre', { class: 'data' }, typeof failure.data === 'string' ? failure.data : JSON.stringify(failure.data, null, 2)),
  )
}
