/**
 * How a mined transaction failed, in Hardhat's words: with `throwOnTransactionFailures`, the send
 * of a transaction that reverts is itself an error, as in Hardhat's network, whose revert
 * matchers (`expect(tx).to.be.revertedWith(…)`) expect it. The wording was read off Hardhat 2.29's
 * node (EDR) for each case below: Error(string), every panic code, a bare revert, an unknown
 * custom error, an exceptional halt, running out of gas.
 */
import { EVMError } from '@ethereumjs/evm'
import { bytesToHex } from '../hexText.ts'
import { errorStringOf, panicCodeOf } from './revertReason.ts'

/** What the EVM left of a failed execution. */
export interface ExecutionFailure {
  returnValue: Uint8Array
  /** ethereumjs' EVMError message: 'revert', 'out of gas', 'invalid opcode', … */
  error: string
}

/** Hardhat's words for Solidity's panic codes. */
const PANICS: Record<string, string> = {
  '1': 'Assertion error',
  '17': 'Arithmetic operation overflowed outside of an unchecked block',
  '18': 'Division or modulo division by zero',
  '33': 'Tried to convert a value into an enum, but the value was too big or negative',
  '34': 'Incorrectly encoded storage byte array',
  '49': '.pop() was called on an empty array',
  '50': 'Array accessed at an out-of-bounds or negative index',
  '65': 'Too much memory was allocated, or an array was created that is too large',
  '81': 'Called a zero-initialized variable of internal function type',
}

const VM_EXCEPTION = 'Error: VM Exception while processing transaction:'

/** The message, and whether it is running out of gas (Hardhat answers that one -32000, the rest -32603). */
export function describeFailure({ returnValue, error }: ExecutionFailure): { message: string; outOfGas: boolean } {
  if (error === EVMError.errorMessages.OUT_OF_GAS) return { message: 'Transaction ran out of gas', outOfGas: true }
  if (error !== EVMError.errorMessages.REVERT) return { message: `${VM_EXCEPTION} ${error}`, outOfGas: false }
  if (returnValue.length === 0) return { message: 'Error: Transaction reverted without a reason string', outOfGas: false }
  return { message: `${VM_EXCEPTION} ${describeRevert(returnValue)}`, outOfGas: false }
}

function describeRevert(data: Uint8Array): string {
  const message = errorStringOf(data)
  if (message !== undefined) return `reverted with reason string '${message}'`
  const code = panicCodeOf(data)
  if (code !== undefined) {
    const meaning = PANICS[code.toString()]
    return meaning ? `reverted with panic code 0x${code.toString(16)} (${meaning})` : `reverted with unknown panic code 0x${code.toString(16)}`
  }
  return `reverted with an unrecognized custom error (return data: ${bytesToHex(data)})`
}
