import { rememberRecovery, type Recovery } from '../core/exec/fastCrypto.ts'
import type { Outcome } from '../bridge/protocol.ts'

export interface RecoveryRequest {
  id: number
  chainId: number
  raws: string[]
}

/** `id` -1: the helper has loaded. */
export interface RecoveryReply {
  id: number
  recoveries: Recovery[]
}

/** Longest wait for the helper: past it the node recovers the senders itself (same result). */
const HELPER_TIMEOUT_MS = 1000
/** Of a batch, the share the node worker recovers itself while the helper does the rest. */
const IN_THREAD_SHARE = 1 / 3

interface Queued {
  params: unknown
  run(): void
}

/**
 * Raw transactions sent together (50 in flight, a page filling the pool) have their senders
 * recovered on two threads: sender recovery (noble, ~0.5 ms in Chromium) was a quarter of the
 * node worker's time with 50 in flight (bench/profile.ts), and the node worker was the only busy
 * thread.
 *
 * Calls that arrived together are collected for one task (a MessageChannel message runs after the
 * calls already queued); a lone call runs on the node worker as before, one task later. Of a
 * batch, the first third runs at once and the helper recovers the rest, whose calls then run in
 * their order of arrival, after every call of earlier batches: the node admits transactions in
 * the order they came. The helper only saves work: its keys are looked up by `ecrecover`'s exact
 * arguments, and when it is missing, slow or broken, the node recovers the senders itself.
 */
export class SenderRecovery {
  private queue: Queued[] = []
  private readonly wake = new MessageChannel()
  private flushing = false
  /** Resolves once every call of the batches so far has started, in order. */
  private started: Promise<void> = Promise.resolve()
  private helper: Worker | undefined
  private helperReady = false
  private broken = false
  private closed = false
  private nextId = 0
  private readonly waiting = new Map<number, () => void>()

  constructor(private readonly chainId: number) {
    this.wake.port1.onmessage = () => this.flush()
  }

  /** Runs `run` (an eth_sendRawTransaction call with `params`) in arrival order. */
  submit<T extends Outcome>(params: unknown, run: () => Promise<T>): Promise<T> {
    // Closed: no batch will ever flush; the node answers the call as it closes.
    if (this.closed) return run()
    return new Promise<T>((resolve) => {
      this.queue.push({ params, run: () => resolve(run()) })
      if (this.flushing) return
      this.flushing = true
      this.wake.port2.postMessage(null)
    })
  }

  /** Stops the helper; calls not started yet run now, on this thread (the node answers them as it closes). */
  close(): void {
    this.closed = true
    this.broken = true
    this.wake.port1.close()
    const rest = this.queue
    this.queue = []
    for (const call of rest) call.run()
    this.helper?.terminate()
    for (const done of this.waiting.values()) done()
    this.waiting.clear()
  }

  private flush(): void {
    this.flushing = false
    const batch = this.queue
    this.queue = []
    if (batch.length === 0) return
    if (batch.length > 1) this.startHelper()
    const useHelper = batch.length > 1 && this.helperReady && !this.broken
    const now = useHelper ? Math.ceil(batch.length * IN_THREAD_SHARE) : batch.length
    const later = batch.slice(now)
    const recovered = later.length > 0 ? this.recover(later.map((call) => call.params)) : undefined
    const earlier = this.started
    this.started = (async () => {
      await earlier
      for (const call of batch.slice(0, now)) call.run()
      if (!recovered) return
      await recovered
      for (const call of later) call.run()
    })()
  }

  /** Resolves once the helper's recoveries of `params`' transactions are remembered, or it gave up. */
  private recover(params: unknown[]): Promise<void> {
    const raws = params.map((p) => (Array.isArray(p) && typeof p[0] === 'string' ? p[0] : '0x'))
    const id = this.nextId++
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.answered(id), HELPER_TIMEOUT_MS)
      this.waiting.set(id, () => {
        clearTimeout(timer)
        resolve()
      })
      this.helper!.postMessage({ id, chainId: this.chainId, raws } satisfies RecoveryRequest)
    })
  }

  private answered(id: number): void {
    const done = this.waiting.get(id)
    this.waiting.delete(id)
    done?.()
  }

  /** The helper loads in the background; batches use it once it said it is ready. */
  private startHelper(): void {
    if (this.helper || this.broken || typeof Worker === 'undefined') return
    try {
      this.helper = new Worker(new URL('./recoveryWorker.ts', import.meta.url), { type: 'module', name: 'pagenode-recovery' })
    } catch {
      this.broken = true
      return
    }
    this.helper.onmessage = ({ data: { id, recoveries } }: MessageEvent<RecoveryReply>) => {
      if (id === -1) this.helperReady = true
      for (const recovery of recoveries) rememberRecovery(recovery)
      this.answered(id)
    }
    // A helper that cannot load or crashed: every waiting batch goes on, later ones stay here.
    this.helper.onerror = () => {
      this.broken = true
      for (const done of this.waiting.values()) done()
      this.waiting.clear()
    }
  }
}
