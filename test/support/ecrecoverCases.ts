/**
 * ecrecover arguments around one fresh signature, for comparing the node's ecrecover
 * (WebAssembly, falling back to noble) with @ethereumjs/util's: valid, high s, EIP-155, invalid.
 */
import { bytesToBigInt, bytesToHex, hexToBytes, type ecrecover as jsEcrecover } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'

type Recover = typeof jsEcrecover
const N = secp256k1.Point.CURVE().n
const toBytes32 = (n: bigint) => hexToBytes(`0x${n.toString(16).padStart(64, '0')}`)

/** The key (hex) or the error's message. */
export function outcome(recover: Recover, ...args: Parameters<Recover>): string {
  try {
    return bytesToHex(recover(...args))
  } catch (error) {
    return `error: ${(error as Error).message}`
  }
}

/** The cases for signature number `i` by `key`. */
export function recoveryCases(key: Uint8Array, i: number): Parameters<Recover>[] {
  const hash = keccak_256(Uint8Array.of(i, 7))
  const signature = secp256k1.sign(hash, key, { prehash: false, format: 'recovered' })
  const recovery = BigInt(signature[0])
  const r = signature.subarray(1, 33)
  const s = signature.subarray(33)
  return [
    [hash, recovery + 27n, r, s],
    [hash, recovery, r, s],
    [hash, recovery + 35n + 2n * 260n, r, s, 260n],
    // The 0x01 precompile must accept a high s (with the other recovery bit).
    [hash, (recovery ^ 1n) + 27n, r, toBytes32(N - bytesToBigInt(s))],
    // Invalid: v, r = 0, s = 0, s ≥ n, r ≥ n, an r with no point.
    [hash, 29n, r, s],
    [hash, recovery + 27n, new Uint8Array(32), s],
    [hash, recovery + 27n, r, new Uint8Array(32)],
    [hash, recovery + 27n, r, toBytes32(N)],
    [hash, recovery + 27n, toBytes32(N + 1n), s],
    [hash, recovery + 27n, toBytes32(5n), s],
    // Short r and s (leading zeros stripped) as RLP decoding gives them.
    [hash, recovery + 27n, r.subarray(r.findIndex((b) => b !== 0)), s],
  ]
}
