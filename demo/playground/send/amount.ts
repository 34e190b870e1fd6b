/** Reading an amount of ether a person typed ("1.5"), as wei, with a message for what is wrong. */
import { parseEther } from 'viem'

export type AmountInput = { ok: true; wei: bigint } | { ok: false; problem: string }

export function readEther(text: string): AmountInput {
  const value = text.trim()
  if (value === '') return { ok: false, problem: 'Enter an amount in ETH, e.g. 1.5 (0 is allowed).' }
  if (!/^\d*\.?\d*$/.test(value) || value === '.') return { ok: false, problem: 'An amount is a plain decimal number of ETH, like 0.25.' }
  const decimals = value.split('.')[1] ?? ''
  if (decimals.length > 18) return { ok: false, problem: 'ETH has 18 decimals at most (1 wei = 0.000000000000000001 ETH).' }
  const wei = parseEther(value)
  if (wei >= 2n ** 256n) return { ok: false, problem: 'That is more than a 256-bit balance can hold.' }
  return { ok: true, wei }
}
