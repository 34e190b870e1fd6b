import type { Limits } from '../config.ts'
import { InvalidRequestError, ParseError, RpcError } from '../errors.ts'

export type JsonRpcId = string | number | null

export interface JsonRpcResponse {
  jsonrpc: '2.0'
  id: JsonRpcId
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

/**
 * Runs one method call; rejects with an RpcError only (`Node.request`, which turns anything else
 * into an InternalError and reports it: the one place that does).
 */
export type Dispatch = (method: string, params: unknown) => Promise<unknown>

export interface EnvelopeOptions {
  limits: Pick<Limits, 'maxBatchLength' | 'maxRequestBytes'>
  /** The method named by the URL path (`POST {base}/<method>`), used when the body names none. */
  pathMethod?: string
}

/**
 * JSON-RPC 2.0 over any transport: single requests and batches, ids echoed as given,
 * notifications (no id) executed but unanswered. Returns undefined when nothing is to be sent.
 */
export async function handleJsonRpc(
  body: unknown,
  dispatch: Dispatch,
  options: EnvelopeOptions,
): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
  if (Array.isArray(body)) {
    if (body.length === 0) return failure(null, new InvalidRequestError('invalid request: empty batch'))
    if (body.length > options.limits.maxBatchLength) {
      return failure(
        null,
        new InvalidRequestError(`batch too large: ${body.length} calls, the limit is ${options.limits.maxBatchLength}`),
      )
    }
    // One after another, as geth does: a call sees what the calls before it did (the receipt
    // of a transaction sent earlier in the same batch, the next nonce).
    const answered: JsonRpcResponse[] = []
    for (const call of body) {
      const reply = await handleCall(call, dispatch, options.pathMethod)
      if (reply) answered.push(reply)
    }
    return answered.length > 0 ? answered : undefined
  }
  return handleCall(body, dispatch, options.pathMethod)
}

/** The same, from the raw request text: size limit and parse errors included. */
export async function handleJsonRpcText(text: string, dispatch: Dispatch, options: EnvelopeOptions): Promise<string | undefined> {
  if (exceedsBytes(text, options.limits.maxRequestBytes)) {
    return JSON.stringify(
      failure(null, new InvalidRequestError(`request too large: the limit is ${options.limits.maxRequestBytes} bytes`)),
    )
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    return JSON.stringify(failure(null, new ParseError(error instanceof Error ? error.message : 'invalid JSON')))
  }
  const reply = await handleJsonRpc(body, dispatch, options)
  return reply === undefined ? undefined : JSON.stringify(reply)
}

async function handleCall(call: unknown, dispatch: Dispatch, pathMethod?: string): Promise<JsonRpcResponse | undefined> {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) {
    return failure(null, new InvalidRequestError('invalid request: expected a JSON-RPC request object'))
  }
  const request = call as Record<string, unknown>
  const hasId = 'id' in request
  const id = request.id
  if (hasId && !isValidId(id)) {
    return failure(null, new InvalidRequestError('invalid request: id must be a string, a number or null'))
  }
  const replyId = hasId ? (id as JsonRpcId) : null
  if (request.jsonrpc !== '2.0') {
    return failure(replyId, new InvalidRequestError('invalid request: jsonrpc must be "2.0"'))
  }
  const method = request.method ?? pathMethod
  if (typeof method !== 'string' || method === '') {
    return failure(replyId, new InvalidRequestError('invalid request: method must be a non-empty string'))
  }
  try {
    const result = await dispatch(method, request.params)
    return hasId ? { jsonrpc: '2.0', id: replyId, result: result ?? null } : undefined
  } catch (error) {
    // Anything else broke the dispatcher's contract: a bug of the transport, left to it.
    if (!(error instanceof RpcError)) throw error
    return hasId ? failure(replyId, error) : undefined
  }
}

function failure(id: JsonRpcId, error: RpcError): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: error.toJSON() }
}

function isValidId(id: unknown): boolean {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))
}

const encoder = new TextEncoder()

/** Whether the UTF-8 form of `text` is longer than `limit`, encoding only when it must. */
function exceedsBytes(text: string, limit: number): boolean {
  if (text.length > limit) return true // every UTF-16 unit takes at least one byte
  if (text.length * 3 <= limit) return false // and at most three
  return encoder.encode(text).length > limit
}
