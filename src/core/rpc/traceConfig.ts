import type { StateOverrides } from '../exec/call.ts'
import { TRACER_NAMES, type SingleTracerOptions, type TracerName, type TracerOptions, type TraceStyle } from '../trace/tracer.ts'
import { parseStateOverrides } from './callObject.ts'
import { goDurationMs } from '../goDuration.ts'
import { custom, field, isCount, ParamError, parseBoolean, parseObject } from './params.ts'

/**
 * The options object of the debug_trace* methods (geth's TraceConfig / TraceCallConfig). Like
 * geth, keys it does not know are ignored; keys it knows are checked.
 */
export interface TraceConfig {
  /** Undefined: the node's default (callTracer for ZKsync style, the struct logger for geth). */
  tracer: TracerName | undefined
  /** The boolean switches of the call and prestate tracers, each false unless set. */
  tracerConfig: Record<TracerFlag, boolean>
  /** muxTracer only: the tracers its tracerConfig names, each with its own switches, in the order given. */
  muxTracers: { name: Exclude<TracerName, 'muxTracer'>; flags: Record<TracerFlag, boolean> }[] | undefined
  logger: { disableStack: boolean; disableStorage: boolean; enableMemory: boolean; enableReturnData: boolean; limit: number }
  /** debug_traceCall only. */
  stateOverrides: StateOverrides | undefined
  /** geth's tracer `timeout`, in ms (0: none); undefined: the node's limits.evmTimeoutMs. */
  timeoutMs: number | undefined
}

const TRACER_FLAGS = ['onlyTopCall', 'withLog', 'includePrecompiles', 'convertParityErrors', 'diffMode', 'disableCode', 'disableStorage'] as const
type TracerFlag = (typeof TRACER_FLAGS)[number]


/** A key of a trace config: undefined when absent, else as `field` (a null is checked like any value). */
function given<T>(object: Record<string, unknown>, key: string, parse: (value: unknown) => T): T | undefined {
  return object[key] === undefined ? undefined : field(object, key, parse)
}

function parseTraceConfig(value: unknown, forCall: boolean): TraceConfig {
  const object = value === undefined ? {} : parseObject(value)
  const flag = (key: string) => given(object, key, parseBoolean) ?? false
  const tracer = given(object, 'tracer', parseTracerName)
  const timeoutMs = given(object, 'timeout', parseDuration)
  // Checked and not used: every block's state is kept, nothing is re-executed to reach it.
  given(object, 'reexec', parseCount)
  if (object.blockOverrides !== undefined) {
    throw new ParamError('blockOverrides: block overrides are not supported; the call runs in the block after the one named')
  }
  if (object.stateOverrides !== undefined && !forCall) {
    throw new ParamError('stateOverrides: state overrides apply to debug_traceCall only')
  }
  return {
    tracer,
    tracerConfig: field(object, 'tracerConfig', parseTracerFlags),
    muxTracers: tracer === 'muxTracer' ? field(object, 'tracerConfig', parseMuxConfig) : undefined,
    logger: {
      disableStack: flag('disableStack'),
      disableStorage: flag('disableStorage'),
      enableMemory: flag('enableMemory'),
      enableReturnData: flag('enableReturnData'),
      limit: given(object, 'limit', parseCount) ?? 0,
    },
    stateOverrides: given(object, 'stateOverrides', parseStateOverrides),
    timeoutMs,
  }
}

function parseTracerFlags(value: unknown): Record<TracerFlag, boolean> {
  const object = value === undefined ? {} : parseObject(value)
  const flags = {} as Record<TracerFlag, boolean>
  for (const key of TRACER_FLAGS) flags[key] = given(object, key, parseBoolean) ?? false
  return flags
}

/** muxTracer's tracerConfig: `{ <tracer name>: <its tracerConfig> }` (geth's), a mux not among them. */
function parseMuxConfig(value: unknown): NonNullable<TraceConfig['muxTracers']> {
  const object = value === undefined ? {} : parseObject(value)
  return Object.keys(object).map((key) => {
    const name = parseTracerName(key)
    if (name === 'muxTracer') throw new ParamError('muxTracer: a muxTracer cannot combine another muxTracer')
    return { name, flags: field(object, key, parseTracerFlags) }
  })
}

function parseTracerName(value: unknown): TracerName {
  if (typeof value === 'string' && (TRACER_NAMES as readonly string[]).includes(value)) return value as TracerName
  const shown = typeof value === 'string' ? `"${value.length > 40 ? `${value.slice(0, 37)}...` : value}"` : JSON.stringify(value)
  throw new ParamError(`unknown tracer ${shown}; the tracers are ${TRACER_NAMES.join(', ')}`)
}

/** A Go duration ("10s", "1m30s", "500ms") in milliseconds, as geth's tracer `timeout` reads it. */
function parseDuration(value: unknown): number {
  const ms = typeof value === 'string' ? goDurationMs(value) : undefined
  if (ms === undefined) throw new ParamError(`expected a duration like "10s" or "500ms", got ${JSON.stringify(value)}`)
  return ms
}

function parseCount(value: unknown): number {
  if (!isCount(value)) throw new ParamError(`expected a non-negative integer, got ${JSON.stringify(value)}`)
  return value
}

/** The tracer a config names, or the style's default when it names none. */
export function tracerOptions(config: TraceConfig | undefined, style: TraceStyle): TracerOptions {
  const parsed = config ?? parseTraceConfig(undefined, false)
  const name = parsed.tracer ?? (style === 'geth' ? 'structLogger' : 'callTracer')
  if (name === 'muxTracer') {
    return { tracer: name, tracers: (parsed.muxTracers ?? []).map((child) => singleTracerOptions(child.name, child.flags, parsed.logger)) }
  }
  return singleTracerOptions(name, parsed.tracerConfig, parsed.logger)
}

function singleTracerOptions(name: SingleTracerOptions['tracer'], flags: Record<TracerFlag, boolean>, logger: TraceConfig['logger']): SingleTracerOptions {
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
    case '4byteTracer':
    case 'noopTracer':
      return { tracer: name }
    case 'structLogger':
      return { tracer: name, ...logger }
  }
}

/** The trailing options parameter of debug_traceTransaction / debug_traceBlock*. */
export const traceConfig = (name: string) => custom(name, (value) => parseTraceConfig(value, false))
/** debug_traceCall's options parameter, which may carry state overrides. */
export const traceCallConfig = (name: string) => custom(name, (value) => parseTraceConfig(value, true))
