import type { Message } from '@ethereumjs/evm'
import { equalsBytes, hexToBytes } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import { decodeConsoleCall } from './decode.ts'
import { formatConsoleLine } from './format.ts'

/** Hardhat's console address (`console.log` in ASCII): console.sol sends its calls there. */
export const CONSOLE_ADDRESS = '0x000000000000000000636f6e736f6c652e6c6f67'
const CONSOLE_BYTES = hexToBytes(CONSOLE_ADDRESS)

/**
 * Runs `run` on `vm` and returns, with its value, the console.log lines its calls to the
 * console address printed, in order (those of frames that later reverted included, as Hardhat
 * and anvil print them). Nothing else changes: the address has no code, so a call to it costs
 * what a call to any empty account costs, as on Hardhat.
 *
 * The listener is on ethereumjs' `beforeMessage` event, which the EVM emits once per call frame
 * whether anyone listens or not: it adds one function call and a byte compare per frame, and no
 * `step` listener (which would make the interpreter report every opcode). It is attached only
 * while `run` runs.
 */
export async function captureConsole<T>(vm: VM, run: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const lines: string[] = []
  const listener = (message: Message) => {
    const to = message.to?.bytes
    if (to === undefined || to[19] !== CONSOLE_BYTES[19] || !equalsBytes(to, CONSOLE_BYTES)) return
    const args = decodeConsoleCall(message.data)
    if (args) lines.push(formatConsoleLine(args))
  }
  const events = vm.evm.events!
  events.on('beforeMessage', listener)
  try {
    return { value: await run(), lines }
  } finally {
    events.off('beforeMessage', listener)
  }
}
