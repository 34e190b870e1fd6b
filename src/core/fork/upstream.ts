import { UpstreamError } from '../errors.ts'

/** How the upstream client retries and gives up (docs/api.md, "Forking a live chain"). */
export interface UpstreamPolicy {
  /** Per HTTP request, in ms: a request that takes longer is aborted and retried. */
  timeoutMs: number
  /** Retries after the first attempt, on network errors, timeouts, HTTP 429 and 5xx. */
  retries: number
  /** The first retry's delay in ms, doubled for each next one. */
  backoffMs: number
}

export const DEFAULT_UPSTREAM_POLICY: UpstreamPolicy = { timeoutMs: 20_000, retries: 3, backoffMs: 200 }

/** Most calls in one batch POST: public endpoints refuse larger batches (Alchemy, Infura: 100+). */
const MAX_BATCH = 100

interface Pending {
  id: number
  method: string
  params: unknown[]
  resolve(value: unknown): void
  reject(error: Error): void
}

type Fetch = typeof fetch

/**
 * A JSON-RPC client of a forked chain's upstream, over `fetch` (Node.js 20 and the node worker
 * alike). The calls made in the same task are sent together as one batch POST; the same call asked
 * for again while it is in flight shares its answer; a network error, a timeout, HTTP 429 or 5xx
 * is retried with exponential backoff. Every failure is an UpstreamError naming the upstream by
 * its host (an endpoint's credentials, in its user info or its path, are never shown).
 */
export class Upstream {
  /** The upstream as errors name it: its host, never the rest of its URL. */
  readonly host: string
  private queue: Pending[] = []
  private scheduled = false
  private nextId = 1
  private readonly inFlight = new Map<string, Promise<unknown>>()
  /** Whether the upstream answers batches; one that answered a batch with a single object does not. */
  private batches = true
  /** Calls sent, and HTTP requests made (a batch is one): what a test or a bench counts. */
  readonly stats = { calls: 0, requests: 0 }
  /** The URL fetched (fetch refuses one with credentials) and the Authorization they become. */
  private readonly endpoint: string
  private readonly headers: Record<string, string> = { 'content-type': 'application/json' }

  constructor(
    readonly url: string,
    private readonly policy: UpstreamPolicy = DEFAULT_UPSTREAM_POLICY,
    private readonly fetchImpl: Fetch = (...args) => fetch(...args),
  ) {
    this.host = upstreamHost(url)
    const parsed = new URL(url)
    if (parsed.username || parsed.password) {
      this.headers.authorization = `Basic ${btoa(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`)}`
      parsed.username = parsed.password = ''
    }
    this.endpoint = parsed.href
  }

  /** A client of another URL, with this one's policy. */
  withUrl(url: string): Upstream {
    return new Upstream(url, this.policy, this.fetchImpl)
  }

  /** Calls `method` on the upstream; the same call in flight already is shared. */
  request<T>(method: string, params: unknown[]): Promise<T> {
    const key = `${method}:${JSON.stringify(params)}`
    const shared = this.inFlight.get(key)
    if (shared) return shared as Promise<T>
    const answer = new Promise<unknown>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, method, params, resolve, reject })
      this.schedule()
    })
    this.inFlight.set(key, answer)
    const forget = () => this.inFlight.delete(key)
    answer.then(forget, forget)
    return answer as Promise<T>
  }

  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    // A macrotask, not a microtask: the EVM's reads of one step reach here after awaits of their
    // own, and should still share a POST.
    setTimeout(() => {
      this.scheduled = false
      const queued = this.queue
      this.queue = []
      for (let i = 0; i < queued.length; i += MAX_BATCH) void this.send(queued.slice(i, i + MAX_BATCH))
    })
  }

  private async send(calls: Pending[]): Promise<void> {
    if (calls.length > 1 && !this.batches) {
      await Promise.all(calls.map((call) => this.send([call])))
      return
    }
    const body = calls.map(({ id, method, params }) => ({ jsonrpc: '2.0', id, method, params }))
    let answers: unknown
    try {
      answers = await this.post(calls.length === 1 ? body[0] : body, calls.map((call) => call.method).join(', '))
    } catch (error) {
      for (const call of calls) call.reject(error as Error)
      return
    }
    if (calls.length > 1 && !Array.isArray(answers)) {
      // Some endpoints refuse batches with one error object: the calls go one by one from now on.
      this.batches = false
      await this.send(calls)
      return
    }
    this.stats.calls += calls.length
    const list = Array.isArray(answers) ? answers : [answers]
    const byId = new Map<unknown, { result?: unknown; error?: { code?: number; message?: string } }>()
    for (const answer of list) if (answer && typeof answer === 'object') byId.set((answer as { id?: unknown }).id, answer as never)
    for (const call of calls) {
      const answer = byId.get(call.id) ?? (list.length === 1 && calls.length === 1 ? (list[0] as never) : undefined)
      if (!answer) {
        call.reject(new UpstreamError(this.host, `the fork's upstream ${this.host} did not answer ${call.method} (its batch answer lacks it)`))
      } else if (answer.error) {
        const { code, message } = answer.error
        call.reject(
          new UpstreamError(this.host, `the fork's upstream ${this.host} answered ${call.method} with an error: ${message ?? 'no message'} (code ${code ?? 'none'})`, {
            cause: answer.error,
          }),
        )
      } else {
        call.resolve(answer.result)
      }
    }
  }

  /** One HTTP POST, retried with backoff while the failure may pass; the parsed JSON answer. */
  private async post(body: unknown, what: string): Promise<unknown> {
    const { timeoutMs, retries, backoffMs } = this.policy
    let lastError: unknown
    let why = ''
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 1)))
      this.stats.requests++
      let response: Response
      try {
        response = await this.fetchImpl(this.endpoint, {
          method: 'POST',
          headers: this.headers,
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        })
      } catch (error) {
        lastError = error
        // A message may quote the URL, whose path may hold an API key.
        why = describeFetchFailure(error, timeoutMs).replaceAll(this.endpoint, this.host)
        continue
      }
      if (response.status === 429 || response.status >= 500) {
        lastError = new Error(`HTTP ${response.status}`)
        why = `it answered HTTP ${response.status} ${response.statusText}`.trimEnd()
        await response.body?.cancel()
        continue
      }
      if (!response.ok) {
        await response.body?.cancel()
        throw new UpstreamError(this.host, `the fork's upstream ${this.host} refused ${what}: HTTP ${response.status} ${response.statusText}`.trimEnd())
      }
      const text = await response.text()
      try {
        return JSON.parse(text)
      } catch (error) {
        throw new UpstreamError(this.host, `the fork's upstream ${this.host} answered ${what} with text that is not JSON`, { cause: error })
      }
    }
    const attempts = retries + 1
    throw new UpstreamError(this.host, `the fork's upstream ${this.host} failed ${what}: ${why} (${attempts} attempt${attempts === 1 ? '' : 's'})`, { cause: lastError })
  }
}

/** The upstream's host (and port), for messages: never its credentials, path or query (API keys). */
export function upstreamHost(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return 'the given URL'
  }
}

/** A rejected fetch in words: a timeout, or a network failure (in a page, possibly CORS). */
function describeFetchFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs} ms`
  const reason = error instanceof Error ? (error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message) : String(error)
  // A page's fetch says only "Failed to fetch" both when the host cannot be reached and when the
  // browser withheld the answer because the upstream does not allow this origin (CORS).
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin
  const inPage = typeof (globalThis as { document?: unknown }).document !== 'undefined' || typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined'
  if (inPage) return `it could not be reached (${reason}); the upstream may not allow cross-origin requests (CORS) from ${origin ?? 'this origin'}`
  return `it could not be reached (${reason})`
}
