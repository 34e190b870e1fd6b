/**
 * CDP commands to a page's dedicated worker (the node worker) from Node.js: the page's CDP session
 * auto-attaches to its workers (not flattened) and carries each command with
 * Target.sendMessageToTarget. Used by bench:profile (the Profiler) and the bench (the worker's heap).
 */
import type { CDPSession } from 'playwright'

/** Sends CDP commands to one worker through the page session (non-flattened auto-attach). */
export class WorkerDebugger {
  private nextId = 1
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()

  constructor(
    private readonly session: CDPSession,
    private readonly sessionId: string,
  ) {
    session.on('Target.receivedMessageFromTarget', (event) => {
      if (event.sessionId !== this.sessionId) return
      const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } }
      const waiter = message.id === undefined ? undefined : this.waiting.get(message.id)
      if (!waiter) return
      this.waiting.delete(message.id!)
      if (message.error) waiter.reject(new Error(message.error.message))
      else waiter.resolve(message.result)
    })
  }

  send<T = unknown>(method: string, params: object = {}): Promise<T> {
    const id = this.nextId++
    const promise = new Promise<T>((resolve, reject) => this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject }))
    // A send the browser refuses (the worker went away, the session was detached) fails the
    // command: left unheard, it would wait forever for an answer that never comes.
    this.session.send('Target.sendMessageToTarget', { sessionId: this.sessionId, message: JSON.stringify({ id, method, params }) }).catch((error: Error) => {
      this.waiting.get(id)?.reject(error)
      this.waiting.delete(id)
    })
    return promise
  }
}

/**
 * The debugger of the first worker whose URL contains `urlPart`. `fromStart`: a worker not created
 * yet, held at its first line until `run()` (Runtime.runIfWaitingForDebugger) lets it go.
 */
export async function attachToWorker(session: CDPSession, urlPart: string, fromStart = false): Promise<WorkerDebugger> {
  const attached = new Promise<string>((resolve) => {
    session.on('Target.attachedToTarget', (event) => {
      if (event.targetInfo.type === 'worker' && event.targetInfo.url.includes(urlPart)) resolve(event.sessionId)
      else if (event.waitingForDebugger) void session.send('Target.sendMessageToTarget', { sessionId: event.sessionId, message: JSON.stringify({ id: 0, method: 'Runtime.runIfWaitingForDebugger' }) })
    })
  })
  await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: fromStart, flatten: false })
  return new WorkerDebugger(session, await attached)
}

/**
 * The debuggers of every worker whose URL contains `urlPart`, as auto-attach reports them: those
 * running now, collected for `settleMs` after the first one. A page may list a worker it just
 * terminated beside the live one (a node stopped and started again), which never answers: the
 * caller asks each.
 */
export async function attachToWorkers(session: CDPSession, urlPart: string, settleMs = 300): Promise<WorkerDebugger[]> {
  const found: WorkerDebugger[] = []
  const first = new Promise<void>((resolve) => {
    session.on('Target.attachedToTarget', (event) => {
      if (event.targetInfo.type !== 'worker' || !event.targetInfo.url.includes(urlPart)) return
      found.push(new WorkerDebugger(session, event.sessionId))
      resolve()
    })
  })
  await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false })
  await first
  await new Promise((resolve) => setTimeout(resolve, settleMs))
  return found
}
