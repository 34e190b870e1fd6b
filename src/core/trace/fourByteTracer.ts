import type { RunTxResult, VM } from '@ethereumjs/vm'
import { bytesToHex } from '../hexText.ts'
import type { CallFrame } from './callFrame.ts'
import { recordCalls } from './callRecorder.ts'
import type { TracedRun, Tracer, TraceTarget } from './tracer.ts'

const CALLS = new Set<CallFrame['kind']>(['CALL', 'STATICCALL', 'DELEGATECALL', 'CALLCODE'])

/**
 * geth's 4byteTracer: how often each function selector was called, keyed
 * `<selector>-<size of the arguments>` (`"0x27dc297e-128": 1`), the top call included. Creations,
 * self-destructs, calls with fewer than 4 bytes of input and calls to precompiles (fancy opcodes,
 * in geth's words) are not counted. Keys in ascending order, as Go's map encoding sorts them.
 */
export class FourByteTracer implements Tracer {
  async run(vm: VM, execute: () => Promise<RunTxResult>, target: TraceTarget): Promise<TracedRun> {
    const { result, root } = await recordCalls(vm, { onlyTopCall: false, withLog: false }, execute, target.gasLimit)
    const counts = new Map<string, number>()
    const visit = (frame: CallFrame) => {
      if (CALLS.has(frame.kind) && !frame.precompile && frame.input.length >= 4) {
        const key = `${bytesToHex(frame.input.subarray(0, 4))}-${frame.input.length - 4}`
        counts.set(key, (counts.get(key) ?? 0) + 1)
      }
      frame.calls.forEach(visit)
    }
    visit(root)
    return { result, trace: Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) }
  }
}
