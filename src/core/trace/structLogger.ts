import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import { bigIntToHex, bytesToUnprefixedHex, setLengthLeft, bigIntToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import { gethExecutionError } from '../exec/call.ts'
import { LimitExceededError } from '../errors.ts'
import type { TracedRun, Tracer } from './tracer.ts'

export interface StructLoggerOptions {
  disableStack: boolean
  disableStorage: boolean
  enableMemory: boolean
  enableReturnData: boolean
  /** Most entries to record; 0: no limit (geth's `limit`). */
  limit: number
}

/** One opcode as geth's struct logger prints it (eth/tracers/logger StructLogRes). */
export interface StructLog {
  pc: number
  op: string
  gas: number
  gasCost: number
  depth: number
  error?: string
  stack?: PrefixedHexString[]
  returnData?: PrefixedHexString
  memory?: string[]
  storage?: Record<string, string>
  refund?: number
}

export interface StructLoggerResult {
  gas: number
  failed: boolean
  returnValue: PrefixedHexString
  structLogs: StructLog[]
}

/** Estimated JSON bytes recorded so far, against the most allowed. */
interface ByteBudget {
  max: number
  used: number
}

/** A frame being executed: where its last entry is, and the return data its opcodes see. */
interface Frame {
  lastEntry: number
  returnData: Uint8Array
  create: boolean
}

const CALL_FAMILY = new Set([0xf1, 0xf2, 0xf4, 0xfa]) // CALL, CALLCODE, DELEGATECALL, STATICCALL
const SLOAD = 0x54
const SSTORE = 0x55
/** ethereumjs errors raised after a CREATE's code ran (code deposit), not by one of its opcodes. */
const DEPOSIT_ERRORS = new Set(['code store out of gas', 'code size to deposit exceeds maximum code size', 'invalid bytecode deployed'])
const EMPTY = new Uint8Array()
/** Rough JSON size of an entry without stack, memory and storage. */
const ENTRY_BYTES = 90

/**
 * geth's struct (opcode) logger on the EVM's `step` event, with geth's numbers: 1-based depth,
 * gasCost = ethereumjs' dynamicFee (which already includes the static fee) plus, for the CALL
 * family, the gas forwarded to the callee (geth charges it to the opcode, ethereumjs after the
 * call), storage as the slots the contract touched so far (SLOAD/SSTORE only), errors on the
 * opcode that failed.
 *
 * Every step copies the stack and memory, so a long trace can outgrow a tab: when the entries'
 * JSON would pass `maxBytes` — for all the transactions this tracer traces, so a block's
 * traces share it — recording stops (the transaction still runs to its end, fast) and the
 * trace fails with a LimitExceededError instead.
 */
export class StructLogger implements Tracer {
  private readonly budget: ByteBudget

  constructor(
    private readonly options: StructLoggerOptions,
    maxBytes: number,
  ) {
    this.budget = { max: maxBytes, used: 0 }
  }

  async run(vm: VM, execute: () => Promise<RunTxResult>): Promise<TracedRun> {
    const session = new StructLogSession(vm, this.options, this.budget)
    const detach = session.attach()
    let result: RunTxResult
    try {
      result = await execute()
    } finally {
      detach()
    }
    return { result, trace: session.finish(result) }
  }
}

class StructLogSession {
  private readonly logs: StructLog[] = []
  private readonly frames: Frame[] = []
  /** Per storage address, the slots seen so far (geth shows this map on each SLOAD/SSTORE). */
  private readonly storage = new Map<string, Map<string, string>>()
  private overflow = false
  private failure: unknown

  constructor(
    private readonly vm: VM,
    private readonly options: StructLoggerOptions,
    private readonly budget: ByteBudget,
  ) {}

  attach(): () => void {
    const events = this.vm.evm.events!
    events.on('beforeMessage', this.onBeforeMessage)
    events.on('afterMessage', this.onAfterMessage)
    events.on('step', this.onStep)
    return () => {
      events.off('beforeMessage', this.onBeforeMessage)
      events.off('afterMessage', this.onAfterMessage)
      events.off('step', this.onStep)
    }
  }

  finish(result: RunTxResult): StructLoggerResult {
    if (this.failure !== undefined) throw this.failure
    if (this.overflow) {
      throw new LimitExceededError(
        `struct log exceeds the trace size limit of ${this.budget.max} bytes after ${this.logs.length} steps; ` +
          'pass "limit", "disableStack" or "disableStorage", leave out "enableMemory", use the callTracer, or raise limits.maxTraceBytes',
        { limit: 'maxTraceBytes' },
      )
    }
    const exec = result.execResult
    const error = exec.exceptionError?.error
    // geth: the output of a success or a revert; nothing for other failures.
    const returned = error === undefined || error === 'revert' ? exec.returnValue : EMPTY
    return { gas: Number(result.totalGasSpent), failed: error !== undefined, returnValue: bytesToHex(returned), structLogs: this.logs }
  }

  private readonly onBeforeMessage = (message: Message): void => {
    // A call or create clears the caller's return data buffer.
    const caller = this.frames.at(-1)
    if (caller) caller.returnData = EMPTY
    this.frames.push({ lastEntry: -1, returnData: EMPTY, create: message.to === undefined })
  }

  private readonly onAfterMessage = (result: EVMResult): void => {
    const frame = this.frames.pop()
    if (!frame) return
    const exec = result.execResult
    const error = exec.exceptionError?.error
    // The frame's own opcode failed: geth reports the error on that opcode's entry.
    if (error !== undefined && error !== 'revert' && !DEPOSIT_ERRORS.has(error) && frame.lastEntry >= 0) {
      this.logs[frame.lastEntry].error = gethExecutionError(error)
    }
    const caller = this.frames.at(-1)
    if (!caller) return
    // RETURNDATA after a call: its output unless it failed outright; after a create only a revert's.
    const visible = frame.create ? error === 'revert' : error === undefined || error === 'revert'
    caller.returnData = visible ? exec.returnValue : EMPTY
  }

  // Two parameters, so ethereumjs waits: an SLOAD's value is read from the state before it runs.
  private readonly onStep = (step: InterpreterStep, next?: () => void): void => {
    if (this.options.limit > 0 && this.logs.length >= this.options.limit) {
      this.vm.evm.events!.off('step', this.onStep) // enough: the rest runs at full speed
      return next!()
    }
    this.record(step)
      .catch((error: unknown) => {
        this.failure ??= error
      })
      .finally(() => next!())
  }

  private async record(step: InterpreterStep): Promise<void> {
    const { options } = this
    const op = step.opcode.code
    const stack = step.stack
    const entry: StructLog = {
      pc: step.pc,
      op: step.opcode.name,
      gas: Number(step.gasLeft),
      gasCost: Number(this.gasCost(step)),
      depth: step.depth + 1,
    }
    let bytes = ENTRY_BYTES + entry.op.length
    if (!options.disableStack) {
      entry.stack = stack.map((word) => bigIntToHex(word))
      for (const word of entry.stack) bytes += word.length + 3
    }
    const frame = this.frames.at(-1)
    if (options.enableReturnData && frame && frame.returnData.length > 0) {
      entry.returnData = bytesToHex(frame.returnData)
      bytes += entry.returnData.length
    }
    if (options.enableMemory) {
      entry.memory = []
      for (let offset = 0; offset < step.memory.length; offset += 32) {
        entry.memory.push(bytesToUnprefixedHex(step.memory.subarray(offset, offset + 32)))
      }
      bytes += entry.memory.length * 67
    }
    if (!options.disableStorage && (op === SLOAD || op === SSTORE) && stack.length >= (op === SLOAD ? 1 : 2)) {
      const key = word32(stack[stack.length - 1])
      const address = step.address.toString()
      let slots = this.storage.get(address)
      if (!slots) this.storage.set(address, (slots = new Map()))
      const value =
        op === SLOAD
          ? bytesToUnprefixedHex(setLengthLeft(await step.stateManager.getStorage(step.address, setLengthLeft(bigIntToBytes(stack[stack.length - 1]), 32)), 32))
          : word32(stack[stack.length - 2])
      slots.set(key, value)
      entry.storage = Object.fromEntries(slots)
      bytes += slots.size * 136
    }
    if (step.gasRefund > 0n) entry.refund = Number(step.gasRefund)

    this.budget.used += bytes
    if (this.budget.used > this.budget.max) {
      this.overflow = true
      this.vm.evm.events!.off('step', this.onStep) // the rest of the transaction runs at full speed
      return
    }
    if (frame) frame.lastEntry = this.logs.length
    this.logs.push(entry)
  }

  /**
   * geth's cost of the opcode. ethereumjs' dynamicFee already includes the static fee; for the
   * CALL family geth also counts the gas handed to the callee, which ethereumjs charges only
   * when the call returns: min(requested, available − available/64) (EIP-150).
   */
  private gasCost(step: InterpreterStep): bigint {
    const fee = step.opcode.dynamicFee ?? BigInt(step.opcode.fee)
    if (!CALL_FAMILY.has(step.opcode.code) || step.stack.length === 0) return fee
    const available = step.gasLeft - fee
    if (available <= 0n) return fee
    const allowed = available - available / 64n
    const requested = step.stack[step.stack.length - 1]
    return fee + (requested < allowed ? requested : allowed)
  }
}

function word32(word: bigint): string {
  return word.toString(16).padStart(64, '0')
}
