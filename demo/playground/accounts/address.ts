/**
 * Reading an address a person typed or pasted: every field that takes one (impersonate, set a
 * balance, send to) says the same thing about the same mistakes, before anything is sent.
 */
import { getAddress, isAddress } from 'viem'
import type { Hex } from '../session.ts'

export type AddressInput = { ok: true; address: Hex } | { ok: false; problem: string }

export function readAddress(text: string): AddressInput {
  const value = text.trim()
  if (value === '') return { ok: false, problem: 'Enter an address (0x followed by 40 hex digits).' }
  if (!/^0x/i.test(value)) return { ok: false, problem: 'An address starts with 0x.' }
  const digits = value.slice(2)
  if (!/^[0-9a-fA-F]*$/.test(digits)) return { ok: false, problem: 'An address holds only hex digits (0-9, a-f) after 0x.' }
  if (digits.length !== 40) return { ok: false, problem: `An address has 40 hex digits after 0x (20 bytes); this has ${digits.length}.` }
  // Mixed case is an EIP-55 checksum: a wrong one usually means a typo, so it is refused as
  // wallets refuse it; all lower or all upper case carries no checksum.
  if (!isAddress(value, { strict: true })) {
    return { ok: false, problem: 'The mixed-case checksum (EIP-55) does not match: check for a typo, or write the address in lower case.' }
  }
  return { ok: true, address: getAddress(value).toLowerCase() as Hex }
}
