/**
 * A request/answer exchange over a BroadcastChannel that neither side has to second-guess, written
 * once for the two paths that need it: a follower tab's calls to the leader (worker/follower.ts →
 * worker/leader.ts, on the chain's rpc channel) and the service worker's HTTP requests to the node
 * worker's relay (sw/relay.ts → worker/httpRelay.ts, on the chain's http channel).
 *
 * A BroadcastChannel drops what nobody hears and says nothing of who heard it, so:
 * - the requester gives each request an id and sends it again every `resendMs` until a responder
 *   acknowledges ("taken") or answers it; the first answer wins;
 * - the responder remembers the ids it took, so a copy sent again runs once (and is acknowledged
 *   again, at once: its sender missed the first acknowledgement);
 * - a request nobody takes in time fails as not run; a taken one that is not answered in time, or
 *   whose responder goes away or is replaced, has an unknown outcome: it may have run. Whether it
 *   may then be sent again is the requester's policy (`mayRunAgain`, from worker/methodKinds.ts
 *   where the method is known); otherwise the caller is told "outcome unknown", never a guess.
 *
 * What the messages look like is each path's own (bridge/protocol.ts, bridge/http.ts: a `wire`),
 * and so are its timings. No node code and no imports: the service worker script is built from
 * this file too.
 */

/** What the two ends need of a BroadcastChannel; other messages on it are left to its owner. */
export interface ChannelPort<Message> {
  postMessage(message: Message): void
  addEventListener(type: 'message', listener: (event: MessageEvent<Message>) => void): void
  removeEventListener(type: 'message', listener: (event: MessageEvent<Message>) => void): void
}

/** What a message on the channel tells a requester. */
export type Signal<Answer> =
  /** Request `id` was taken by responder `by` (when responders are told apart): it runs. */
  | { type: 'ack'; id: string; by?: string }
  | { type: 'answer'; id: string; answer: Answer }
  /**
   * A responder started listening (`by`, when responders are told apart; without it, every such
   * message is a new one). Requests nobody took are sent to it at once; a taken request whose
   * responder is another one may have run there (see `mayRunAgain`).
   */
  | { type: 'responder'; by?: string }

/** How a path's requests look on the wire, and how to read the answers. */
export interface RequesterWire<Request, Answer, Message> {
  /** The message carrying a request; `retried`: a responder that went away may have run it. */
  request(id: string, request: Request, retried: boolean): Message
  /** What a message says to a requester; undefined for any other message. */
  read(message: Message): Signal<Answer> | undefined
}

export interface RequesterOptions<Request> {
  /** Ids are this and a counter: unique among everything a responder remembers. */
  idPrefix: string
  /** How often a request nobody took is sent again. */
  resendMs: number
  /** A request nobody took within this long (since it was sent, or sent again) fails, not run. */
  takeWithinMs: number
  /** A taken request not answered within this long of being taken fails, its outcome unknown. */
  answerWithinMs: number
  /**
   * Whether a request a responder took, and that may have run there, may run again elsewhere
   * (sent to the next responder, or handed over). If not, it fails with its outcome unknown.
   */
  mayRunAgain(request: Request): boolean
  /** Told (on every resend) once a request has waited `afterMs` for any responder to take it. */
  stall?: { afterMs: number; then(): void }
  /**
   * Whether a responder exists or is coming (e.g. a Web Lock held): asked of a request nobody took
   * after `graceMs`, on every resend, and of a taken one every `everyMs`; one question at a time.
   */
  presence?: { graceMs: number; everyMs: number; exists(): Promise<boolean> }
}

/** How a request ended. */
export type Delivery<Answer> =
  | { kind: 'answered'; answer: Answer }
  /** No responder took it, so it did not run: none in time, or (`presence`) none exists. */
  | { kind: 'notTaken'; reason: 'timeout' | 'noResponder' }
  /**
   * A responder took it and did not answer: it may have run. `responderChanged`: another one
   * started listening (or this side took over) and it may not run again; `responderGone`:
   * `presence` says none exists any more; `timeout`: no answer within `answerWithinMs`.
   */
  | { kind: 'outcomeUnknown'; reason: 'responderChanged' | 'responderGone' | 'timeout' }
  /** The requester was closed first. */
  | { kind: 'closed' }

interface Pending<Request, Answer> {
  id: string
  request: Request
  /** When and by whom it was taken; undefined while nobody has. */
  taken: { by: string | undefined; at: number } | undefined
  /** Sent again after its responder went away: that one may have run it. */
  retried: boolean
  /** When it was sent, or sent again after its responder went away. */
  since: number
  presenceCheckedAt: number
  /** A presence question is under way: the timer waits for it. */
  checking: boolean
  timer: ReturnType<typeof setInterval>
  resolve(delivery: Delivery<Answer>): void
}

/** The sending end: requests out, each settled once as a `Delivery`. */
export class Requester<Request, Answer, Message> {
  private readonly pending = new Map<string, Pending<Request, Answer>>()
  private sequence = 0
  private closed = false
  private readonly listener = (event: MessageEvent<Message>) => this.receive(event.data)

  constructor(
    private readonly port: ChannelPort<Message>,
    private readonly wire: RequesterWire<Request, Answer, Message>,
    private readonly options: RequesterOptions<Request>,
  ) {
    port.addEventListener('message', this.listener)
  }

  /** Sends `request` (at once, synchronously) and resolves with how it ended; never rejects. */
  request(request: Request): Promise<Delivery<Answer>> {
    if (this.closed) return Promise.resolve({ kind: 'closed' })
    const id = `${this.options.idPrefix}${this.sequence++}`
    return new Promise((resolve) => {
      const entry: Pending<Request, Answer> = {
        id,
        request,
        taken: undefined,
        retried: false,
        since: Date.now(),
        presenceCheckedAt: 0,
        checking: false,
        // One timer per request, so each is sent again `resendMs` after it was sent, not sooner.
        timer: setInterval(() => this.tick(entry), this.options.resendMs),
        resolve,
      }
      this.pending.set(id, entry)
      this.send(entry)
    })
  }

  /**
   * This side runs them itself now: every pending request goes to `run` (with `retried` when a
   * responder had taken it), except a taken one that may not run again, whose outcome is unknown.
   * `run` reports failures in its answer; it must not reject.
   */
  handOver(run: (request: Request, retried: boolean) => Promise<Answer>): void {
    for (const entry of [...this.pending.values()]) {
      if (entry.taken && !this.options.mayRunAgain(entry.request)) {
        this.settle(entry, { kind: 'outcomeUnknown', reason: 'responderChanged' })
        continue
      }
      this.forget(entry)
      void run(entry.request, entry.taken !== undefined || entry.retried).then((answer) => entry.resolve({ kind: 'answered', answer }))
    }
  }

  /** Stops listening; what is pending ends as `closed`. The port stays open (its owner closes it). */
  close(): void {
    if (this.closed) return
    this.closed = true
    this.port.removeEventListener('message', this.listener)
    for (const entry of [...this.pending.values()]) this.settle(entry, { kind: 'closed' })
  }

  private send(entry: Pending<Request, Answer>): void {
    this.port.postMessage(this.wire.request(entry.id, entry.request, entry.retried))
  }

  private tick(entry: Pending<Request, Answer>): void {
    if (entry.checking) return
    const now = Date.now()
    const { answerWithinMs, takeWithinMs, stall, presence } = this.options
    if (entry.taken) {
      if (now - entry.taken.at > answerWithinMs) return this.settle(entry, { kind: 'outcomeUnknown', reason: 'timeout' })
      if (presence && now - entry.presenceCheckedAt > presence.everyMs) {
        entry.presenceCheckedAt = now
        const taken = entry.taken
        this.checkPresence(entry, () => entry.taken === taken, { kind: 'outcomeUnknown', reason: 'responderGone' })
      }
      return
    }
    if (now - entry.since > takeWithinMs) return this.settle(entry, { kind: 'notTaken', reason: 'timeout' })
    this.send(entry)
    if (stall && now - entry.since > stall.afterMs) stall.then()
    if (presence && now - entry.since > presence.graceMs) {
      this.checkPresence(entry, () => entry.taken === undefined, { kind: 'notTaken', reason: 'noResponder' })
    }
  }

  /** Asks whether a responder exists; if none does and `still()` holds, the request ends as `gone`. */
  private checkPresence(entry: Pending<Request, Answer>, still: () => boolean, gone: Delivery<Answer>): void {
    entry.checking = true
    const done = (exists: boolean) => {
      entry.checking = false
      if (!exists && still()) this.settle(entry, gone)
    }
    this.options.presence!.exists().then(done, () => done(true))
  }

  private receive(message: Message): void {
    const signal = this.wire.read(message)
    if (!signal) return
    if (signal.type === 'responder') return this.responderChanged(signal.by)
    const entry = this.pending.get(signal.id)
    if (!entry) return
    if (signal.type === 'answer') this.settle(entry, { kind: 'answered', answer: signal.answer })
    else entry.taken ??= { by: signal.by, at: Date.now() }
  }

  /** A responder started listening: the one that took a request (if another) is gone, with it. */
  private responderChanged(by: string | undefined): void {
    for (const entry of [...this.pending.values()]) {
      if (entry.taken) {
        if (by !== undefined && entry.taken.by === by) continue
        if (!this.options.mayRunAgain(entry.request)) {
          this.settle(entry, { kind: 'outcomeUnknown', reason: 'responderChanged' })
          continue
        }
        entry.taken = undefined
        entry.retried = true
        entry.since = Date.now()
      }
      this.send(entry)
    }
  }

  private forget(entry: Pending<Request, Answer>): boolean {
    if (this.pending.get(entry.id) !== entry) return false
    clearInterval(entry.timer)
    this.pending.delete(entry.id)
    return true
  }

  private settle(entry: Pending<Request, Answer>, delivery: Delivery<Answer>): void {
    if (this.forget(entry)) entry.resolve(delivery)
  }
}

/** How a path's requests are read off the wire, and how its acknowledgements and answers look. */
export interface ResponderWire<Request, Answer, Message> {
  /** The request a message carries; undefined for any other message. */
  read(message: Message): { id: string; request: Request } | undefined
  ack(id: string): Message
  answer(id: string, answer: Answer): Message
}

export interface ResponderOptions<Request, Answer> {
  /** Runs a request (once per id); reports failures in its answer, never rejects. */
  run(request: Request, id: string): Promise<Answer>
  /**
   * How long to hold the acknowledgement back (0: send it at once). An answer ready sooner says
   * "taken" by itself, so a quick request is two messages, not three; a request that must not be
   * sent to another responder should this one go away is acknowledged at once.
   */
  ackAfterMs?(request: Request): number
  /** Requests this responder leaves alone (they reach it by another way). */
  ignore?(id: string): boolean
  /** How many taken ids to remember (the oldest are forgotten first). */
  remember?: number
}

/** Ids remembered by default: far more than can be in flight, for longer than any is re-sent. */
const REMEMBERED_IDS = 10_000

/** The answering end: each request id runs once, acknowledged and answered on the channel. */
export class Responder<Request, Answer, Message> {
  private readonly seen = new Set<string>()
  private closed = false
  private readonly listener = (event: MessageEvent<Message>) => void this.receive(event.data)

  constructor(
    private readonly port: ChannelPort<Message>,
    private readonly wire: ResponderWire<Request, Answer, Message>,
    private readonly options: ResponderOptions<Request, Answer>,
  ) {
    port.addEventListener('message', this.listener)
  }

  /** Stops listening and answering (what is running is not answered). The port stays open. */
  close(): void {
    this.closed = true
    this.port.removeEventListener('message', this.listener)
  }

  private async receive(message: Message): Promise<void> {
    const incoming = this.wire.read(message)
    if (!incoming || this.options.ignore?.(incoming.id)) return
    const { id, request } = incoming
    const ack = () => this.post(this.wire.ack(id))
    // A copy sent again by a requester that has not heard it runs: say so now, run nothing.
    if (this.seen.has(id)) return ack()
    this.seen.add(id)
    if (this.seen.size > (this.options.remember ?? REMEMBERED_IDS)) this.seen.delete(this.seen.values().next().value!)
    const delay = this.options.ackAfterMs?.(request) ?? 0
    const held = delay > 0 ? setTimeout(ack, delay) : (ack(), undefined)
    const answer = await this.options.run(request, id)
    clearTimeout(held)
    this.post(this.wire.answer(id, answer))
  }

  private post(message: Message): void {
    if (!this.closed) this.port.postMessage(message)
  }
}
