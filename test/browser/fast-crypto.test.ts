/**
 * The WebAssembly keccak256 and ecrecover load in Chromium too (not only under Node.js), and
 * answer exactly what @ethereumjs/util's pure-JS functions answer.
 */
import { bytesToBigInt, bytesToHex, ecrecover as jsEcrecover, hexToBytes } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { beforeAll, expect, test } from 'vitest'
import { ecrecover, fastCryptoStatus, loadFastCrypto } from '../../src/core/exec/fastCrypto.ts'

const N = secp256k1.Point.CURVE().n
const toBytes32 = (n: bigint) => hexToBytes(`0x${n.toString(16).padStart(64, '0')}`)

function outcome(recover: typeof jsEcrecover, ...args: Parameters<typeof jsEcrecover>): string {
  try {
    return bytesToHex(recover(...args))
  } catch (error) {
    return `error: ${(error as Error).message}`
  }
}

beforeAll(() => loadFastCrypto())

test('both WebAssembly modules load in a browser', () => {
  expect(fastCryptoStatus()).toEqual({ keccak256: 'wasm', ecrecover: 'wasm' })
})

test('ecrecover answers as @ethereumjs/util does: valid, high s, EIP-155, out of range', () => {
  const key = secp256k1.utils.randomSecretKey()
  for (let i = 0; i < 10; i++) {
    const hash = keccak_256(Uint8Array.of(i, 9))
    const signature = secp256k1.sign(hash, key, { prehash: false, format: 'recovered' })
    const recovery = BigInt(signature[0])
    const r = signature.subarray(1, 33)
    const s = signature.subarray(33)
    const cases: Parameters<typeof jsEcrecover>[] = [
      [hash, recovery + 27n, r, s],
      [hash, recovery + 35n + 2n * 260n, r, s, 260n],
      [hash, (recovery ^ 1n) + 27n, r, toBytes32(N - bytesToBigInt(s))],
      [hash, recovery + 27n, r, toBytes32(N)],
      [hash, recovery + 27n, toBytes32(5n), s],
    ]
    for (const args of cases) expect(outcome(ecrecover, ...args)).toBe(outcome(jsEcrecover, ...args))
  }
})
