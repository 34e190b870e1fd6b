/**
 * Turning the eth_getLogs form's text into the filter object the node takes. Values are passed
 * on as typed (bar decimal block numbers, which become hex), so a malformed one is refused by the
 * node with its own JSON-RPC error rather than second-guessed here.
 */

export interface LogsFormValues {
  address: string
  topics: string[]
  fromBlock: string
  toBlock: string
}

export interface LogFilter {
  fromBlock: string
  toBlock: string
  address?: string | string[]
  topics?: (string | string[] | null)[]
}

/** "12" → "0xc"; tags and hex pass through; empty is the given default. */
export function blockParam(text: string, empty: string): string {
  const value = text.trim()
  if (value === '') return empty
  return /^\d+$/.test(value) ? `0x${BigInt(value).toString(16)}` : value
}

/** Comma- or space-separated alternatives: one value, a list (any of), or undefined when empty. */
function alternatives(text: string): string | string[] | undefined {
  const values = text.split(/[\s,]+/).filter((value) => value !== '')
  return values.length === 0 ? undefined : values.length === 1 ? values[0] : values
}

export function logFilter(values: LogsFormValues): LogFilter {
  const filter: LogFilter = { fromBlock: blockParam(values.fromBlock, '0x0'), toBlock: blockParam(values.toBlock, 'latest') }
  const address = alternatives(values.address)
  if (address !== undefined) filter.address = address
  const topics = values.topics.map((topic) => alternatives(topic) ?? null)
  while (topics.length > 0 && topics[topics.length - 1] === null) topics.pop()
  if (topics.length > 0) filter.topics = topics
  return filter
}
