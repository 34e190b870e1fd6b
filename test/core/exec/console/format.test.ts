import { format } from 'node:util'
import { expect, test } from 'vitest'
import { formatConsoleLine } from '../../../../src/core/exec/console/format.ts'

/** What Hardhat prints: %d/%i after an even number of % become %s, then Node's util.format. */
function hardhat(args: string[]): string {
  if (args.length === 0) return format()
  const [first, ...rest] = args
  return format(first.replace(/((?<!%)(?:%%)*)(%[di])/g, '$1%s'), ...rest)
}

const CASES: string[][] = [
  [],
  ['hello'],
  ['100%'],
  ['%%'],
  ['%s', 'a'],
  ['%s%%', 'a'],
  ['%%d', '5'],
  ['%%%d', '5'],
  ['count is now %d', '115792089237316195423570985008687907853269984665640564039457584007913129639935'],
  ['%i and %d', '-42', '7'],
  ['%s + %s = %s', '1', '2', 'three'],
  ['%s', 'a', 'b', 'c'],
  ['no specifiers', 'x', 'true'],
  ['%o %O', 'plain', "it's"],
  ['%o', 'both \' and "'],
  ['%o', 'tab\there\nnew \\ line'],
  ['%j', 'quote " me'],
  ['%f', '1.5'],
  ['%f', 'abc'],
  ['%c%s', 'color: red', 'styled'],
  ['%x %s', 'a'],
  ['%s %s', 'only one'],
  ['trailing %', 'x'],
  ['0x000000000000000000636f6e736f6c652e6c6f67', 'true'],
]

test.each(CASES.map((args) => [JSON.stringify(args), args] as const))('%s is printed as Hardhat prints it', (_name, args) => {
  expect(formatConsoleLine(args)).toBe(hardhat(args))
})
