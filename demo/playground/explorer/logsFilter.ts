/**
 * Turning the eth_getLogs form's text into the filter object the node takes. Values are passed
 * on as typed (bar decimal block numbers, which become hex, and event signatures, which become
 * their topic), so a malformed one is refused by the node with its own JSON-RPC error rather
 * than second-guessed here.
 */
import { parseAbiItem, toEventSelector, type AbiEvent } from 'viem'

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

/**
 * Comma- or space-separated alternatives: one value, a list (any of), or undefined when empty.
 * Commas and spaces inside parentheses belong to an event signature, not between values.
 */
function alternatives(text: string): string | string[] | undefined {
  const values: string[] = []
  let current = ''
  let depth = 0
  for (const char of text) {
    if (depth === 0 && /[\s,]/.test(char)) {
      if (current !== '') values.push(current)
      current = ''
      continue
    }
    if (char === '(') depth++
    else if (char === ')') depth = Math.max(0, depth - 1)
    current += char
  }
  if (current !== '') values.push(current)
  // "event Transfer(…)": the keyword is part of the signature after it.
  const merged = values.filter((value, i) => !(value === 'event' && values[i + 1]?.includes('(')))
  return merged.length === 0 ? undefined : merged.length === 1 ? merged[0] : merged
}

/**
 * A topic as the node takes it: an event signature (`Transfer(address,address,uint256)`, with or
 * without `event`, parameter names and `indexed`) becomes its keccak-256, topic 0 of its logs;
 * anything else is passed on. A signature that does not parse is said here, naming the field.
 */
export function topicValue(value: string, field: string): string {
  if (!/^[A-Za-z_$][\w$]*\(/.test(value)) return value
  let event: AbiEvent
  try {
    event = parseAbiItem(`event ${value}`) as AbiEvent
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error)
    throw new Error(`${field}: ${value} is not an event signature (${why})`, { cause: error })
  }
  return toEventSelector(event)
}

export function logFilter(values: LogsFormValues): LogFilter {
  const filter: LogFilter = { fromBlock: blockParam(values.fromBlock, '0x0'), toBlock: blockParam(values.toBlock, 'latest') }
  const address = alternatives(values.address)
  if (address !== undefined) filter.address = address
  const topics = values.topics.map((text, i) => {
    const topic = alternatives(text)
    if (topic === undefined) return null
    return Array.isArray(topic) ? topic.map((value) => topicValue(value, `Topic ${i}`)) : topicValue(topic, `Topic ${i}`)
  })
  while (topics.length > 0 && topics[topics.length - 1] === null) topics.pop()
  if (topics.length > 0) filter.topics = topics
  return filter
}
