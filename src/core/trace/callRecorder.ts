import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import { Address, type PrefixedHexString } from '@ethereumjs/util'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import { gethExecutionError } from '../exec/call.ts'
import { decodeRevertReason } from '../exec/revertReason.ts'
import { clearFailedLogs, isCreate, type CallFrame, type CallKind } from './callFrame.ts'
import { codeFeatures, isInstruction } from './codeFeatures.ts'

export interface CallRecorderOptions {
  /** Record only the outermost frame (geth's `onlyTopCall`). */
  onlyTopCall: boolean
  /** Record each frame's logs (geth's `withLog`). */
  withLog: boolean
}

/** A frame being executed, with what the recorder learns from its steps. */
interface OpenFrame {
  /** Undefined for frames below the top under `onlyTopCall`: kept only to match enter and exit. */
  frame: CallFrame | undefined
  message: Message
  /** Whether this frame's steps are listened to (see `watch`). */
  watched: boolean
  /** In a static frame, the opcode its plain calls come from, when its code allows only one. */
  staticCallOp?: 'CALL' | 'STATICCALL'
  /** The last CALL or STATICCALL this frame stepped on (static frames whose code has both). */
  lastCallOp?: 'CALL' | 'STATICCALL'
}

const OP_CALL = 0xf1
const OP_STATICCALL = 0xfa
const OP_SELFDESTRUCT = 0xff
const OP_LOG0 = 0xa0
const OP_LOG4 = 0xa4
/** A LOG wider than this would need more memory than any gas limit can pay for. */
const MAX_LOG_DATA = 1 << 26
const EMPTY = new Uint8Array()

/**
 * Builds the call tree of one transaction from the EVM's `beforeMessage`/`afterMessage` events
 * (docs/ethereumjs-notes.md, "Call frames from message events"), with geth's corrections:
 * DELEGATECALL/CALLCODE frames are `from` the contract whose storage is used `to` the code's
 * address, CREATE frames get the new address, and the top frame carries the transaction's gas limit
 * and receipt gasUsed.
 *
 * geth also reports a SELFDESTRUCT as a frame; it shows in the frame's final run state (its
 * last instruction, and the balance it handed over). Messages cannot show two things: whether a
 * plain call inside a static frame was CALL or STATICCALL, and logs per frame. For those the
 * recorder listens to `step` — expensive — only while a frame runs whose code contains the
 * instructions in question (codeFeatures), and stops when that frame exits.
 */
export class CallRecorder {
  private readonly open: OpenFrame[] = []
  private root: CallFrame | undefined
  private watching = 0
  private failure: unknown

  constructor(
    private readonly vm: VM,
    private readonly options: CallRecorderOptions,
  ) {}

  /** Starts recording; returns the function that stops it (call it in `finally`). */
  attach(): () => void {
    const events = this.vm.evm.events!
    events.on('beforeMessage', this.onBeforeMessage)
    events.on('afterMessage', this.onAfterMessage)
    return () => {
      events.off('beforeMessage', this.onBeforeMessage)
      events.off('afterMessage', this.onAfterMessage)
      events.off('step', this.onStep)
    }
  }

  /** The tree of the finished transaction; its top frame spans the whole transaction. */
  finish(result: RunTxResult, gasLimit: bigint): CallFrame {
    if (this.failure !== undefined) throw this.failure
    const root = this.root
    if (!root) throw new Error('the transaction ran no message to trace')
    root.gas = gasLimit
    // Intrinsic gas, refunds and the EIP-7623 floor included: the receipt's figure.
    root.gasUsed = result.totalGasSpent
    if (isCreate(root.kind) && result.createdAddress) root.to = result.createdAddress.toString()
    if (this.options.withLog) clearFailedLogs(root)
    return root
  }

  // Two parameters: ethereumjs awaits `resume`, so the frame's code can be read before it runs.
  private readonly onBeforeMessage = (message: Message, resume?: () => void): void => {
    this.enter(message)
      .catch((error: unknown) => {
        this.failure ??= error
      })
      .finally(() => resume!())
  }

  private async enter(message: Message): Promise<void> {
    const parent = this.open.at(-1)
    if (this.options.onlyTopCall && message.depth > 0) {
      this.open.push({ frame: undefined, message, watched: false })
      return
    }
    const kind = this.kindOf(message, parent)
    const frame: CallFrame = {
      kind,
      from: (kind === 'DELEGATECALL' ? message.to! : message.caller).toString(),
      // A CREATE's address is known once it runs (onAfterMessage).
      to: kind === 'DELEGATECALL' || kind === 'CALLCODE' ? message.codeAddress.toString() : (message.to?.toString() ?? '0x'),
      gas: message.gasLimit,
      gasUsed: 0n,
      value: kind === 'STATICCALL' ? undefined : message.value,
      // Call data can be a view of the caller's memory, which later opcodes overwrite.
      input: message.data.slice(),
      output: EMPTY,
      calls: [],
      logs: [],
      precompile: false,
    }
    parent?.frame?.calls.push(frame)
    const open: OpenFrame = { frame, message, watched: false }
    this.open.push(open)
    await this.watch(open)
  }

  /** Decides from the frame's code whether its steps must be seen, and listens if so. */
  private async watch(open: OpenFrame): Promise<void> {
    const { message } = open
    const staticCalls = message.isStatic && !this.options.onlyTopCall
    if (!staticCalls && !this.options.withLog) return
    const features = codeFeatures(await this.codeOf(message))
    const ambiguousCalls = staticCalls && features.call && features.staticCall
    if (staticCalls && !ambiguousCalls) open.staticCallOp = features.call ? 'CALL' : 'STATICCALL'
    open.watched = ambiguousCalls || (this.options.withLog && features.log)
    if (open.watched && this.watching++ === 0) this.vm.evm.events!.on('step', this.onStep)
  }

  private async codeOf(message: Message): Promise<Uint8Array> {
    if (message.to === undefined) return message.data
    if (message.code instanceof Uint8Array) return message.code
    const stateManager = this.vm.stateManager
    const code = await stateManager.getCode(message.codeAddress)
    // An EIP-7702 delegated account runs the code of the account it points to.
    const delegated = code.length === 23 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00
    return delegated ? stateManager.getCode(new Address(code.subarray(3))) : code
  }

  private kindOf(message: Message, parent: OpenFrame | undefined): CallKind {
    if (message.to === undefined) return message.salt ? 'CREATE2' : 'CREATE'
    if (message.delegatecall) return 'DELEGATECALL'
    // Only CALLCODE gives a nested message a separate code address.
    if (message.depth > 0 && message._codeAddress !== undefined) return 'CALLCODE'
    if (!message.isStatic) return 'CALL'
    if (!parent?.message.isStatic) return 'STATICCALL'
    // Inside a static frame CALL and STATICCALL make the same message; the opcode tells.
    return parent.staticCallOp ?? parent.lastCallOp ?? 'STATICCALL'
  }

  private readonly onStep = (step: InterpreterStep): void => {
    const open = this.open.at(-1)
    if (!open?.watched || !open.frame) return
    const op = step.opcode.code
    const stack = step.stack
    if (op === OP_CALL) open.lastCallOp = 'CALL'
    else if (op === OP_STATICCALL) open.lastCallOp = 'STATICCALL'
    else if (op >= OP_LOG0 && op <= OP_LOG4 && this.options.withLog) {
      const topicCount = op - OP_LOG0
      if (stack.length < 2 + topicCount) return // stack underflow: the frame fails
      const offset = stack[stack.length - 1]
      const size = stack[stack.length - 2]
      open.frame.logs.push({
        address: step.address.toString(),
        topics: Array.from({ length: topicCount }, (_, i) => bigIntToHex32(stack[stack.length - 3 - i])),
        data: memorySlice(step.memory, offset, size),
        position: open.frame.calls.length,
      })
    }
  }

  private readonly onAfterMessage = (result: EVMResult): void => {
    const open = this.open.pop()
    if (!open) return
    if (open.watched && --this.watching === 0) this.vm.evm.events!.off('step', this.onStep)
    const frame = open.frame
    if (!frame) return
    const exec = result.execResult
    const failure = exec.exceptionError?.error
    frame.gasUsed = exec.executionGasUsed
    frame.output = exec.returnValue.slice()
    frame.precompile = open.message.isCompiled
    if (isCreate(frame.kind)) frame.to = (result.createdAddress ?? open.message.to)?.toString() ?? frame.to
    if (failure !== undefined) {
      frame.error = gethExecutionError(failure)
      if (failure === 'revert') frame.revertReason = decodeRevertReason(exec.returnValue)
    } else if (!this.options.onlyTopCall) {
      const selfDestruct = selfDestructOf(result)
      if (selfDestruct) frame.calls.push(selfDestruct)
    }
    if (this.open.length === 0) this.root = frame
  }
}

/** Runs one transaction with a recorder attached: its result and its call tree. */
export async function recordCalls(
  vm: VM,
  options: CallRecorderOptions,
  execute: () => Promise<RunTxResult>,
  gasLimit: bigint,
): Promise<{ result: RunTxResult; root: CallFrame }> {
  const recorder = new CallRecorder(vm, options)
  const detach = recorder.attach()
  let result: RunTxResult
  try {
    result = await execute()
  } finally {
    detach()
  }
  return { result, root: recorder.finish(result, gasLimit) }
}

/**
 * The SELFDESTRUCT a successful frame ended with, as geth reports it: a frame of its own, last
 * among the frame's calls, from the executing account to the beneficiary with the balance it
 * handed over. SELFDESTRUCT stops the frame, so it is the last instruction the frame ran; the
 * interpreter's final state still holds the account as SELFDESTRUCT read it.
 */
function selfDestructOf(result: EVMResult): CallFrame | undefined {
  const runState = result.execResult.runState
  if (!runState) return undefined // a precompile, or a frame that never ran code
  const { code, programCounter, env } = runState
  const last = programCounter - 1
  if (code[last] !== OP_SELFDESTRUCT || !isInstruction(code, last)) return undefined
  const from = env.address.toString()
  const beneficiary = result.execResult.selfdestruct?.get(from)
  if (beneficiary === undefined) return undefined // ran off the end of code whose last byte reads 0xff
  return {
    kind: 'SELFDESTRUCT',
    from,
    to: beneficiary.toLowerCase() as PrefixedHexString,
    gas: 0n,
    gasUsed: 0n,
    value: env.contract.balance,
    input: EMPTY,
    output: EMPTY,
    calls: [],
    logs: [],
    precompile: false,
  }
}

function bigIntToHex32(word: bigint): PrefixedHexString {
  return `0x${word.toString(16).padStart(64, '0')}`
}

/** Memory bytes [offset, offset+size), zero beyond what the frame has touched so far. */
function memorySlice(memory: Uint8Array, offset: bigint, size: bigint): Uint8Array {
  if (size === 0n || size > BigInt(MAX_LOG_DATA)) return EMPTY
  const out = new Uint8Array(Number(size))
  if (offset < BigInt(memory.length)) out.set(memory.subarray(Number(offset), Number(offset) + Number(size)))
  return out
}
