/**
 * One console.log line as Hardhat prints it. Hardhat turns every argument into a string first
 * (decode.ts), changes the first argument's `%d`/`%i` into `%s` (a uint256 does not fit a JS
 * number), then calls Node's util.format. This is util.format for string arguments, written out
 * because the node also runs in the page, where Node's util does not exist: `%s` the argument,
 * `%o`/`%O` it quoted as util.inspect quotes a string, `%j` as JSON, `%f` parseFloat of it, `%c`
 * nothing (it is CSS, in browsers), `%%` a percent sign; arguments left over are appended, space
 * separated. test/core/exec/console/format.test.ts compares it with Node's util.format.
 */
export function formatConsoleLine(args: readonly string[]): string {
  if (args.length === 0) return ''
  const [first, ...rest] = args
  // Hardhat's rule: %d and %i after an even number of % (none included) become %s.
  const template = first.replace(/((?<!%)(?:%%)*)(%[di])/g, '$1%s')
  if (rest.length === 0) return template
  let next = 0
  let line = ''
  let literalFrom = 0
  for (let i = 0; i < template.length - 1; i++) {
    if (template[i] !== '%') continue
    const specifier = template[i + 1]
    let replacement: string | undefined
    if (specifier === '%') replacement = '%'
    else if (next < rest.length) {
      const arg = rest[next]
      if (specifier === 's') replacement = arg
      else if (specifier === 'o' || specifier === 'O') replacement = inspectString(arg)
      else if (specifier === 'j') replacement = JSON.stringify(arg)
      else if (specifier === 'f') replacement = String(Number.parseFloat(arg))
      else if (specifier === 'c') replacement = ''
      if (replacement !== undefined) next++
    }
    if (replacement === undefined) continue
    line += template.slice(literalFrom, i) + replacement
    literalFrom = i + 2
    i++
  }
  line += template.slice(literalFrom)
  for (; next < rest.length; next++) line += ` ${rest[next]}`
  return line
}

/** util.inspect of a string: single quotes, or the first of ", ` that the text does not hold. */
function inspectString(text: string): string {
  const quote = !text.includes("'") ? "'" : !text.includes('"') ? '"' : !text.includes('`') && !text.includes('${') ? '`' : "'"
  // eslint-disable-next-line no-control-regex -- control characters are what inspect escapes
  const escaped = text.replace(/[\\\x00-\x1f\x7f]/g, (c) => ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f', '\v': '\\v' }
