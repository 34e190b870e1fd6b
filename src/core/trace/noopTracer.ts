import type { RunTxResult } from '@ethereumjs/vm'
import type { TracedRun, Tracer } from './tracer.ts'

/** geth's noopTracer: runs the transaction and reports nothing (`{}`), to measure tracing's own cost. */
export class NoopTracer implements Tracer {
  async run(_vm: unknown, execute: () => Promise<RunTxResult>): Promise<TracedRun> {
    return { result: await execute(), trace: {} }
  }
}
