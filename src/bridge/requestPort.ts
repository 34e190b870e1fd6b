/**
 * The page's JSON-RPC calls to its node worker, on a MessagePort of their own: `[id, method,
 * params]` one way, `[id, outcome]` back. Comlink still carries start, stop and the worker's
 * events; on the calls, where every microsecond is the provider's latency, it added its wire
 * format, a random id, a listener and a race with the worker's death to each. Through this port,
 * eth_blockNumber from the provider costs 1.03–1.07× a ping on the same port (bench).
 */
import { ErrorCode, toRpcError } from '../core/errors.ts'
import type { Outcome, RpcFailure } from './protocol.ts'

/** A call, or a ping: `[id]` alone, answered `[id]` before any node code runs. */
type CallMessage = [id: number, method: string, params: unknown] | [id: number]
/**
 * The outcome travels as JSON text (a JSON-RPC answer is JSON by definition). In Chromium, 10,000
 * log objects took ~25 ms to stringify and parse against ~40 ms of structured clone, and an
 * eth_getLogs of 5,000 logs 31 ms against 32–37 ms; a small answer costs microseconds either way.
 *
 * A long array answer (eth_getLogs, a block's receipts or traces) comes in parts of PART_ITEMS
 * items, each a JSON array (`part` true), then the outcome with the last items: the page parses
 * each part while the worker stringifies the next, on the other core, instead of starting once the
 * whole text is made.
 */
type ReplyMessage = [id: number, outcome: string] | [id: number] | [id: number, items: string, part: true]

/** Items of a long array answer per part (10,000 logs: ~0.7 MB of JSON a part). */
export const PART_ITEMS = 1000

/** The page's end. */
export class RequestPort {
  /** Waiting calls and pings by id; a ping's reply has no outcome. */
  private readonly pending = new Map<number, (outcome: Outcome | undefined) => void>()
  private nextId = 0
  private closedWith: RpcFailure | undefined

  /** The parts of long answers still coming in, by id. */
  private readonly parts = new Map<number, unknown[][]>()

  constructor(private readonly port: MessagePort) {
    port.onmessage = (event: MessageEvent<ReplyMessage>) => {
      const [id, text, part] = event.data
      if (part) {
        const items = JSON.parse(text!) as unknown[]
        const earlier = this.parts.get(id)
        if (earlier) earlier.push(items)
        else this.parts.set(id, [items])
        return
      }
      const resolve = this.pending.get(id)
      this.pending.delete(id)
      if (text === undefined) return resolve?.(undefined)
      const outcome = JSON.parse(text) as Outcome
      const parts = this.parts.get(id)
      if (parts) {
        this.parts.delete(id)
        // A failure after some parts (the rest would not stringify): the failure is the answer.
        if (outcome.ok) outcome.result = parts.flat().concat(outcome.result as unknown[])
      }
      resolve?.(outcome)
    }
  }

  call(method: string, params: unknown): Promise<Outcome> {
    if (this.closedWith) return Promise.resolve({ ok: false, error: this.closedWith })
    const id = this.nextId++
    try {
      this.port.postMessage([id, method, params] satisfies CallMessage)
    } catch (error) {
      // A function, a DOM node, …: what structured clone refuses never reaches the node.
      const message = `invalid params: they cannot be sent to the node (${(error as Error).message})`
      return Promise.resolve({ ok: false, error: { code: ErrorCode.invalidParams, message } })
    }
    return new Promise((resolve) => this.pending.set(id, resolve as (outcome: Outcome | undefined) => void))
  }

  /** Resolves when the worker answers a bare message; rejects once it is gone. */
  ping(): Promise<void> {
    if (this.closedWith) return Promise.reject(new Error(this.closedWith.message))
    const id = this.nextId++
    this.port.postMessage([id] satisfies CallMessage)
    return new Promise((resolve, reject) =>
      this.pending.set(id, (outcome) => (outcome && !outcome.ok ? reject(new Error(outcome.error.message)) : resolve())),
    )
  }

  /** The worker is gone: the calls waiting and every later one fail with `error`. */
  close(error: RpcFailure): void {
    if (this.closedWith) return
    this.closedWith = error
    for (const resolve of this.pending.values()) resolve({ ok: false, error })
    this.pending.clear()
    this.parts.clear()
    this.port.close()
  }
}

/** The worker's end: runs each call with `handle` and answers as it completes. */
export function serveRequests(port: MessagePort, handle: (method: string, params: unknown) => Promise<Outcome>): void {
  port.onmessage = (event: MessageEvent<CallMessage>) => {
    if (event.data.length === 1) return port.postMessage(event.data satisfies ReplyMessage)
    const [id, method, params] = event.data
    const reply = (outcome: Outcome) => {
      try {
        port.postMessage([id, JSON.stringify(sendParts(port, id, outcome))] satisfies ReplyMessage)
      } catch (error) {
        const message = `the answer is not JSON (${(error as Error).message})`
        port.postMessage([id, JSON.stringify({ ok: false, error: { code: ErrorCode.internal, message } } satisfies Outcome)] satisfies ReplyMessage)
      }
    }
    handle(method, params).then(reply, (error: unknown) => {
      // `handle` answers with outcomes (the node's errors are values by now): what it throws is
      // a bug of the worker's own, told to the page as such and logged here, where it is caught.
      const internal = toRpcError(error, method)
      console.error(`pagenode: ${internal.message}`, { method, params, cause: error })
      reply({ ok: false, error: internal.toJSON() })
    })
  }
}

/** Sends all but the last PART_ITEMS items of a long array answer as parts; what is left to send. */
function sendParts(port: MessagePort, id: number, outcome: Outcome): Outcome {
  if (!outcome.ok || !Array.isArray(outcome.result) || outcome.result.length <= PART_ITEMS) return outcome
  const items: unknown[] = outcome.result
  const last = Math.ceil(items.length / PART_ITEMS) * PART_ITEMS - PART_ITEMS
  for (let start = 0; start < last; start += PART_ITEMS) {
    port.postMessage([id, JSON.stringify(items.slice(start, start + PART_ITEMS)), true] satisfies ReplyMessage)
  }
  return { ok: true, result: items.slice(last) }
}
