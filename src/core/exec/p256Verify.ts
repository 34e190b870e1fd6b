/**
 * P256VERIFY at 0x100: secp256r1 (NIST P-256) signature verification, RIP-7212's precompile,
 * which ZKsync chains serve (passkeys, WebAuthn and secure-enclave signers in smart accounts).
 *
 * As ZKsync's P256Verify system contract answers it: an input of exactly 160 bytes (message hash,
 * r, s, x, y, each 32 bytes) costs 12,000 gas and returns the 32-byte word 1 when the signature
 * verifies, nothing when it does not (r or s out of range, a point off the curve, a wrong
 * signature); any other input length returns nothing and costs nothing. High-s signatures verify
 * (RIP-7212 does not require low s).
 */
import { EVMError, type CustomPrecompile, type ExecResult, type PrecompileInput } from '@ethereumjs/evm'
import { p256 } from '@noble/curves/nist.js'
import { setLengthLeft } from '@ethereumjs/util'

export const P256_VERIFY_ADDRESS = '0x0000000000000000000000000000000000000100'
export const P256_VERIFY_GAS = 12_000n
const INPUT_BYTES = 160

const nothing = (gas: bigint): ExecResult => ({ executionGasUsed: gas, returnValue: new Uint8Array() })

export function p256Verify({ data, gasLimit }: PrecompileInput): ExecResult {
  if (data.length !== INPUT_BYTES) return nothing(0n)
  if (gasLimit < P256_VERIFY_GAS) {
    return { executionGasUsed: gasLimit, returnValue: new Uint8Array(), exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) }
  }
  const hash = data.subarray(0, 32)
  const signature = data.subarray(32, 96)
  const publicKey = new Uint8Array(65)
  publicKey[0] = 0x04 // uncompressed: x then y
  publicKey.set(data.subarray(96, 160), 1)
  let valid: boolean
  try {
    valid = p256.verify(signature, hash, publicKey, { prehash: false, lowS: false, format: 'compact' })
  } catch {
    // A public key that is not a point of the curve (or the point at infinity), r or s of 0.
    valid = false
  }
  return valid ? { executionGasUsed: P256_VERIFY_GAS, returnValue: setLengthLeft(Uint8Array.of(1), 32) } : nothing(P256_VERIFY_GAS)
}

export const P256_VERIFY_PRECOMPILE: CustomPrecompile = { address: P256_VERIFY_ADDRESS, function: p256Verify }
