/** The call an internal error happened in. */
export interface FailedCall {
  method: string
  params: unknown
}

/** Causes followed at most (a cycle, or a pathological chain, must not loop). */
const MAX_CAUSES = 10
/** Params shown at most, in characters (a contract deployment's calldata can be megabytes). */
const PARAMS_CHARS = 2000

/**
 * What the CLI prints on stderr for an internal error (a bug in pagenode; the caller got -32603):
 *
 * - without --verbose, one line: the error's message (which names the method) and where to
 *   see more;
 * - with --verbose, the method's params, then the error's stack and each of its causes' stacks
 *   (`caused by:`), so the bug can be traced to the line that threw.
 */
export function formatInternalError(error: Error, call: FailedCall, verbose: boolean): string {
  if (!verbose) return `pagenode: ${firstLine(error.message)} (run with --verbose for its stack)`
  const lines = [`pagenode: ${error.message}`, `  params: ${paramsText(call.params)}`, indent(stackOf(error))]
  const seen = new Set<unknown>([error])
  let cause = error.cause
  for (let depth = 0; cause !== undefined && !seen.has(cause) && depth < MAX_CAUSES; depth++) {
    seen.add(cause)
    lines.push(indent(`caused by: ${stackOf(cause)}`))
    cause = cause instanceof Error ? cause.cause : undefined
  }
  return lines.join('\n')
}

/** An error's stack (which starts with its name and message), or what was thrown as text. */
function stackOf(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`
  return `${typeof error === 'string' ? JSON.stringify(error) : String(error)} (thrown, not an Error: no stack)`
}

function paramsText(params: unknown): string {
  let text: string
  try {
    text = JSON.stringify(params ?? [], (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value)) ?? String(params)
  } catch {
    text = String(params)
  }
  return text.length > PARAMS_CHARS ? `${text.slice(0, PARAMS_CHARS)}… (${text.length} characters)` : text
}

function firstLine(text: string): string {
  const end = text.indexOf('\n')
  return end === -1 ? text : `${text.slice(0, end)} …`
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ')
}
