import type { Common } from '@ethereumjs/common'
import { EVMError, getOpcodesForHF, type EVMOpts } from '@ethereumjs/evm'
import { ExecutionTimeoutError } from '../errors.ts'

type CustomOpcode = NonNullable<EVMOpts['customOpcodes']>[number]
type Handler = (runState: never, common: Common) => unknown

/**
 * How long an execution runs before it lets the event loop take a turn. ethereumjs' interpreter
 * awaits only promises that settle at once (microtasks), so a long call would otherwise hold the
 * thread: in the CLI no HTTP request is read, in a page's node worker no follower's call is
 * acknowledged (and another tab takes the chain over after 5 s).
 */
const SLICE_MS = 25

/** Jumps and calls between two looks at the clock (reading it costs about as much as a jump). */
const STEPS_PER_CHECK = 256

/**
 * Where a long execution must pass: every loop jumps back (JUMP, JUMPI), and whatever does not
 * loop calls (CALL and its kin, CREATE): code without either is straight, bounded by its size.
 */
const WATCHED_OPCODES = [0x56, 0x57, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa]

/** The next task of the event loop: Node's setImmediate, a MessageChannel message in a browser (no 4 ms clamp). */
const nextTask: () => Promise<void> =
  typeof setImmediate === 'function'
    ? () => new Promise((resolve) => setImmediate(resolve))
    : (() => {
        const channel = new MessageChannel()
        const waiting: (() => void)[] = []
        channel.port1.onmessage = () => waiting.shift()?.()
        return () =>
          new Promise<void>((resolve) => {
            waiting.push(resolve)
            channel.port2.postMessage(null)
          })
      })()

/** What running out of time is called, in geth's words. */
export type TimeoutWording = 'call' | 'trace'

/** geth's Duration wording for a limit in milliseconds: 5s, 1.5s, 500ms. */
export function formatDuration(ms: number): string {
  return ms >= 1000 ? `${ms / 1000}s` : `${ms}ms`
}

/**
 * The time limit of the executions on one VM (a sandbox's): `within` sets a deadline for a piece
 * of work (a call, an estimate's whole search, a trace), the VM's watched opcodes look at the
 * clock as they pass, let the event loop take a turn every SLICE_MS, and past the deadline fail
 * the running frame as out of gas. That unwinds every frame through ethereumjs' own error path
 * (each frame's checkpoint reverted, the sandbox left reusable); `within` then answers the
 * timeout instead of what the work made of that failure.
 *
 * Outside `within` (the VM's other uses) there is no deadline and no pause.
 */
export class ExecutionTimeLimit {
  private deadline = Infinity
  private sliceEnd = Infinity
  private countdown = STEPS_PER_CHECK
  private expired = false
  /** Whether the work running now has paused for the event loop: a long one, still running. */
  paused = false

  /** The custom opcodes (EVMOpts.customOpcodes) that make a VM of `common` watch this limit. */
  opcodes(common: Common): CustomOpcode[] {
    const { opcodeMap } = getOpcodesForHF(common)
    return WATCHED_OPCODES.map((code) => {
      const { opcodeInfo, opHandler, gasHandler } = opcodeMap[code]
      const run = opHandler as unknown as Handler
      const logicFunction = opcodeInfo.isAsync
        ? async (runState: never, rules: Common) => {
            const pause = this.step()
            if (pause) await pause
            return run(runState, rules)
          }
        : (runState: never, rules: Common) => {
            run(runState, rules)
            return this.step()
          }
      return {
        opcode: code,
        opcodeName: opcodeInfo.name,
        baseFee: opcodeInfo.fee,
        gasFunction: gasHandler,
        logicFunction,
      } as unknown as CustomOpcode
    })
  }

  /**
   * Runs `work` with a deadline `limitMs` from now (0 or Infinity: none, but it still pauses
   * for the event loop); rejects with ExecutionTimeoutError, in the wording of `wording`, if the
   * execution ran into it.
   */
  async within<T>(limitMs: number, wording: TimeoutWording, work: () => Promise<T>): Promise<T> {
    const start = performance.now()
    this.deadline = limitMs > 0 ? start + limitMs : Infinity
    this.sliceEnd = start + SLICE_MS
    this.countdown = STEPS_PER_CHECK
    this.expired = false
    this.paused = false
    try {
      const result = await work()
      if (this.expired) throw timeout(limitMs, wording)
      return result
    } catch (error) {
      // Out of gas at every frame, the work failed one way or another: the timeout is the answer.
      if (this.expired) throw timeout(limitMs, wording)
      throw error
    } finally {
      this.deadline = Infinity
      this.sliceEnd = Infinity
      this.expired = false
      this.paused = false
    }
  }

  /** Called at every watched opcode: nothing most times, a pause now and then, a trap past the deadline. */
  private step(): Promise<void> | undefined {
    if (--this.countdown > 0) return undefined
    this.countdown = STEPS_PER_CHECK
    const now = performance.now()
    if (now >= this.deadline) {
      this.expired = true
      this.countdown = 1 // every frame still running fails at its next watched opcode
      throw new EVMError(EVMError.errorMessages.OUT_OF_GAS)
    }
    if (now < this.sliceEnd) return undefined
    this.paused = true
    return nextTask().then(() => {
      this.sliceEnd = performance.now() + SLICE_MS
    })
  }
}

function timeout(limitMs: number, wording: TimeoutWording): ExecutionTimeoutError {
  const message = wording === 'trace' ? 'execution timeout' : `execution aborted (timeout = ${formatDuration(limitMs)})`
  return new ExecutionTimeoutError(message, limitMs)
}
