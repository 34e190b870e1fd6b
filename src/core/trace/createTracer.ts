import { CallTracer } from './callTracer.ts'
import { FlatCallTracer } from './flatCallTracer.ts'
import { PrestateTracer } from './prestateTracer.ts'
import { StructLogger } from './structLogger.ts'
import type { Tracer, TracerOptions, TraceStyle } from './tracer.ts'

/** The tracer a parsed trace config asks for, speaking the node's style. */
export function createTracer(options: TracerOptions, style: TraceStyle, maxTraceBytes: number): Tracer {
  switch (options.tracer) {
    case 'callTracer':
      return new CallTracer({ onlyTopCall: options.onlyTopCall, withLog: options.withLog }, style)
    case 'flatCallTracer':
      return new FlatCallTracer(options, style)
    case 'prestateTracer':
      return new PrestateTracer(options)
    case 'structLogger':
      return new StructLogger(options, maxTraceBytes)
  }
}
