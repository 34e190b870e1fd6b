import type { RunTxResult, VM } from '@ethereumjs/vm'
import type { TracedRun, Tracer, TraceTarget } from './tracer.ts'

/**
 * geth's muxTracer: several tracers over one transaction, answered as `{ <tracer name>: <its
 * result> }` (names in ascending order, as Go's map encoding sorts them). geth feeds one run's
 * events to all of them; here each tracer runs the transaction in turn — the tracers own how they
 * run it (the prestate tracer reads the state before and after) — each but the last inside a
 * checkpoint that is reverted, so every one sees the same starting state, and the last leaves the
 * VM as `more` asks.
 */
export class MuxTracer implements Tracer {
  constructor(private readonly tracers: readonly (readonly [name: string, tracer: Tracer])[]) {}

  async run(vm: VM, execute: () => Promise<RunTxResult>, target: TraceTarget, more: boolean): Promise<TracedRun> {
    const traces = new Map<string, unknown>()
    let result: RunTxResult | undefined
    for (const [i, [name, tracer]] of this.tracers.entries()) {
      if (i === this.tracers.length - 1) {
        const run = await tracer.run(vm, execute, target, more)
        result = run.result
        traces.set(name, run.trace)
        continue
      }
      await vm.evm.journal.checkpoint()
      try {
        traces.set(name, (await tracer.run(vm, execute, target, false)).trace)
      } finally {
        await vm.evm.journal.revert()
      }
    }
    // An empty mux runs the transaction all the same (the state moves on) and reports {}.
    result ??= await execute()
    return { result, trace: Object.fromEntries([...traces].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) }
  }
}
