import type { ConsoleLogOutput } from '../core/index.ts'

/**
 * What console.log printed in one execution, as Hardhat's node prints it: a `console.log:` block,
 * its lines indented, under the line that says where they come from (the transaction and its
 * block, or the call's method):
 *
 *   Transaction: 0x3f…9a (block #5)
 *     console.log:
 *       count is now 5
 */
export function formatConsoleLog(output: ConsoleLogOutput): string {
  const heading = output.kind === 'transaction' ? `Transaction: ${output.transactionHash} (block #${output.blockNumber})` : output.method
  return [heading, '  console.log:', ...output.lines.map((line) => `    ${line}`)].join('\n')
}
