import type { StateOverrides } from '../exec/call.ts'
import { TRACER_NAMES, type TracerName, type TracerOptions, type TraceStyle } from '../trace/tracer.ts'
import { parseStateOverrides } from './callObject.ts'
import { custom, field, ParamError, parseBoolean, parseObject } from './params.ts'

/**
 * The options object of the debug_trace* methods (geth's TraceConfig / TraceCallConfig). Like
 * geth, keys it does not know are ignored; keys it knows are checked.
 */
export interface TraceConfig {
  /** Undefined: the node's default (callTracer for ZKsync style, the struct logger for geth). */
  tracer: TracerName | undefined
  /** The boolean switches of the call and prestate tracers, each false unless set. */
  tracerConfig: Record<TracerFlag, boolean>
  logger: { disableStack: boolean; disableStorage: boolean; enableMemory: boolean; enableReturnData: boolean; limit: number }
  /** debug_traceCall only. */
  stateOverrides: StateOverrides | undefined
}

const TRACER_FLAGS = ['onlyTopCall', 'withLog', 'includePrecompiles', 'convertParityErrors', 'diffMode', 'disableCode', 'disableStorage'] as const
type TracerFlag = (typeof TRACER_FLAGS)[number]

const DURATION_RE = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/

function parseTraceConfig(value: unknown, forCall: boolean): TraceConfig {
  const object = value === undefined ? {} : parseObject(value)
  const flag = (key: string) => (object[key] === undefined ? false : field(object, key, parseBoolean))
  const tracer = object.tracer === undefined ? undefined : field(object, 'tracer', parseTracerName)
  if (object.timeout !== undefined) field(object, 'timeout', parseDuration)
  if (object.reexec !== undefined) field(object, 'reexec', parseCount)
  if (object.blockOverrides !== undefined) {
    throw new ParamError('blockOverrides: block overrides are not supported; the call runs in the block after the one named')
  }
  if (object.stateOverrides !== undefined && !forCall) {
    throw new ParamError('stateOverrides: state overrides apply to debug_traceCall only')
  }
  return {
    tracer,
    tracerConfig: field(object, 'tracerConfig', parseTracerFlags),
    logger: {
      disableStack: flag('disableStack'),
      disableStorage: flag('disableStorage'),
      enableMemory: flag('enableMemory'),
      enableReturnData: flag('enableReturnData'),
      limit: object.limit === undefined ? 0 : field(object, 'limit', parseCount),
    },
    stateOverrides: object.stateOverrides === undefined ? undefined : field(object, 'stateOverrides', parseStateOverrides),
  }
}

function parseTracerFlags(value: unknown): Record<TracerFlag, boolean> {
  const object = value === undefined ? {} : parseObject(value)
  const flags = {} as Record<TracerFlag, boolean>
  for (const key of TRACER_FLAGS) flags[key] = object[key] === undefined ? false : field(object, key, parseBoolean)
  return flags
}

function parseTracerName(value: unknown): TracerName {
  if (typeof value === 'string' && (TRACER_NAMES as readonly string[]).includes(value)) return value as TracerName
  const shown = typeof value === 'string' ? `"${value.length > 40 ? `${value.slice(0, 37)}...` : value}"` : JSON.stringify(value)
  throw new ParamError(`unknown tracer ${shown}; the tracers are ${TRACER_NAMES.join(', ')}`)
}

function parseDuration(value: unknown): string {
  if (typeof value !== 'string' || !DURATION_RE.test(value)) {
    throw new ParamError(`expected a duration like "10s" or "500ms", got ${JSON.stringify(value)}`)
  }
  return value
}

function parseCount(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ParamError(`expected a non-negative integer, got ${JSON.stringify(value)}`)
  }
  return value
}

/** The tracer a config names, or the style's default when it names none. */
export function tracerOptions(config: TraceConfig | undefined, style: TraceStyle): TracerOptions {
  const parsed = config ?? parseTraceConfig(undefined, false)
  const name = parsed.tracer ?? (style === 'geth' ? 'structLogger' : 'callTracer')
  const flags = parsed.tracerConfig
  switch (name) {
    case 'callTracer':
      return { tracer: name, onlyTopCall: flags.onlyTopCall, withLog: flags.withLog }
    case 'flatCallTracer':
      return {
        tracer: name,
        onlyTopCall: flags.onlyTopCall,
        includePrecompiles: flags.includePrecompiles,
        convertParityErrors: flags.convertParityErrors,
      }
    case 'prestateTracer':
      return { tracer: name, diffMode: flags.diffMode, disableCode: flags.disableCode, disableStorage: flags.disableStorage }
    case 'structLogger':
      return { tracer: name, ...parsed.logger }
  }
}

/** The trailing options parameter of debug_traceTransaction / debug_traceBlock*. */
export const traceConfig = (name: string) => custom(name, (value) => parseTraceConfig(value, false))
/** debug_traceCall's options parameter, which may carry state overrides. */
export const traceCallConfig = (name: string) => custom(name, (value) => parseTraceConfig(value, true))
