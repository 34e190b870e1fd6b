/** What the server saw of one HTTP request or WebSocket message (verb `WS`), for the --verbose log. */
export interface RequestRecord {
  verb: string
  path: string
  status: number
  ms: number
  pathMethod?: string
  /** The request body, when one was read. */
  request?: string
  /** The JSON-RPC answer; undefined for notifications. */
  response?: string
  /** Why the body was not handled (`request too large`). */
  note?: string
}

interface Call {
  method?: unknown
  id?: unknown
}

interface Answer {
  error?: { code?: unknown; message?: unknown }
}

const BATCH_NAMES_SHOWN = 4
const MESSAGE_CHARS = 100

/**
 * One concise line per request: what was called, how long it took, the error if any.
 *
 *   eth_blockNumber id=1 0.8ms
 *   eth_sendRawTransaction id=7 3.1ms error -32000: nonce too low
 *   batch of 3 (eth_chainId, eth_blockNumber, eth_foo) 2.1ms 1 error, -32601: the method …
 *
 * The bodies are parsed again here, only when logging is on: the server itself never parses.
 */
export function formatRequestLine(record: RequestRecord): string {
  const took = `${record.ms.toFixed(1)}ms`
  const call = record.verb === 'POST' || record.verb === 'WS'
  if (!call || (record.request === undefined && record.note === undefined)) {
    return `${record.verb} ${record.path} ${record.status} ${took}`
  }
  // A WebSocket message's line says so; an HTTP request's is the plain one.
  return record.verb === 'WS' ? `ws ${describeCall(record, took)}` : describeCall(record, took)
}

function describeCall(record: RequestRecord, took: string): string {
  const errors = answerErrors(record.response)
  const failure =
    errors.length === 0 ? '' : ` ${errors.length > 1 ? `${errors.length} errors, first ` : 'error '}${describeError(errors[0])}`
  if (record.note) return `${record.note} ${took}${failure}`

  const calls = parse(record.request!)
  if (calls === undefined) return `invalid JSON ${took}${failure}`
  if (Array.isArray(calls)) {
    const names = calls.slice(0, BATCH_NAMES_SHOWN).map((call) => methodName(call, record.pathMethod))
    if (calls.length > BATCH_NAMES_SHOWN) names.push('…')
    return `batch of ${calls.length} (${names.join(', ')}) ${took}${failure}`
  }
  const single = calls as Call | null
  const id = single && typeof single === 'object' && 'id' in single ? `id=${JSON.stringify(single.id)}` : 'notification'
  return `${methodName(single, record.pathMethod)} ${id} ${took}${failure}`
}

function methodName(call: unknown, pathMethod: string | undefined): string {
  const method = call && typeof call === 'object' ? (call as Call).method : undefined
  if (typeof method === 'string') return method
  return pathMethod ?? '(no method)'
}

function answerErrors(response: string | undefined): NonNullable<Answer['error']>[] {
  if (response === undefined) return []
  const answers = parse(response)
  return ([] as unknown[])
    .concat(answers)
    .flatMap((answer) => (answer && typeof answer === 'object' && (answer as Answer).error ? [(answer as Answer).error!] : []))
}

function describeError(error: NonNullable<Answer['error']>): string {
  const message = String(error.message ?? '')
  const short = message.length > MESSAGE_CHARS ? `${message.slice(0, MESSAGE_CHARS)}…` : message
  return `${String(error.code)}: ${short}`
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
