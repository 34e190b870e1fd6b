/**
 * Go's duration syntax ("5s", "1m30s", "500ms", "1.5s"), which geth's tracer `timeout` and its
 * --rpc.evmtimeout flag take: the trace config and the CLI read it alike.
 */
const DURATION_RE = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/
const PART_RE = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g
const MS_PER_UNIT: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** The duration `text` names, in milliseconds; undefined when it is not one ("0" is zero, as in Go). */
export function goDurationMs(text: string): number | undefined {
  if (text === '0') return 0
  if (!DURATION_RE.test(text)) return undefined
  let ms = 0
  for (const [, amount, unit] of text.matchAll(PART_RE)) ms += Number(amount) * MS_PER_UNIT[unit]
  return ms
}
