import { CallTracer } from './callTracer.ts'
import { FlatCallTracer } from './flatCallTracer.ts'
import { FourByteTracer } from './fourByteTracer.ts'
import { MuxTracer } from './muxTracer.ts'
import { NoopTracer } from './noopTracer.ts'
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
    case '4byteTracer':
      return new FourByteTracer()
    case 'noopTracer':
      return new NoopTracer()
    case 'muxTracer':
      return new MuxTracer(options.tracers.map((child) => [child.tracer, createTracer(child, style, maxTraceBytes)] as const))
  }
}
