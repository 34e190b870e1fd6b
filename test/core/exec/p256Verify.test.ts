/**
 * P256VERIFY at 0x100 (RIP-7212), as ZKsync's P256Verify answers: 1 for a signature that
 * verifies, nothing otherwise, 12,000 gas for a 160-byte input and none for any other length.
 */
import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '@ethereumjs/util'
import { afterEach, expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { DEV, rpc, startNode } from '../../support/chain.ts'

let node: Node | undefined
// A test's node is started once, on its first call (startNode closes it after the test).
afterEach(() => {
  node = undefined
})

const PRECOMPILE = '0x0000000000000000000000000000000000000100' as const
const TRUE = `0x${'00'.repeat(31)}01`

/** hash ‖ r ‖ s ‖ x ‖ y for a fresh key's signature of `hash`. */
function input(hash = p256.utils.randomSecretKey(), { highS = false } = {}): Uint8Array {
  const key = p256.utils.randomSecretKey()
  const signature = p256.Signature.fromBytes(p256.sign(hash, key, { prehash: false, lowS: true }))
  const s = highS ? p256.Point.CURVE().n - signature.s : signature.s
  const publicKey = p256.getPublicKey(key, false).subarray(1) // x ‖ y
  return Uint8Array.from([...hash, ...new p256.Signature(signature.r, s).toBytes('compact'), ...publicKey])
}

async function call(data: Uint8Array | string) {
  node ??= await startNode()
  return rpc(node)<string>('eth_call', { to: PRECOMPILE, data: typeof data === 'string' ? data : bytesToHex(data) }, 'latest')
}

test('a signature that verifies answers the word 1, high s included', async () => {
  expect(await call(input())).toBe(TRUE)
  expect(await call(input(undefined, { highS: true }))).toBe(TRUE)
})

test('what does not verify answers nothing: another hash, r out of range, a point off the curve, another length', async () => {
  const good = input()
  const otherHash = good.slice()
  otherHash[0] ^= 1
  expect(await call(otherHash)).toBe('0x')
  const bigR = good.slice()
  bigR.fill(0xff, 32, 64)
  expect(await call(bigR)).toBe('0x')
  const offCurve = good.slice()
  offCurve[159] ^= 1
  expect(await call(offCurve)).toBe('0x')
  expect(await call(good.subarray(0, 159))).toBe('0x')
  expect(await call('0x')).toBe('0x')
})

test('gas: 12,000 for a 160-byte input, nothing for another length', async () => {
  node = await startNode()
  const call = rpc(node)
  const gasUsed = async (to: `0x${string}`, data: Uint8Array) => {
    const hash = await call<string>('eth_sendTransaction', { from: DEV[0].address, to, data: bytesToHex(data) })
    return BigInt((await call<{ gasUsed: string }>('eth_getTransactionReceipt', hash)).gasUsed)
  }
  const EMPTY_ACCOUNT = '0x00000000000000000000000000000000000c0ffe' as const
  const calldata = (data: Uint8Array) => data.reduce((gas, byte) => gas + (byte === 0 ? 4n : 16n), 0n)
  const good = input()
  // The transaction's own gas, its calldata's, and the precompile's (above EIP-7623's floor).
  expect(await gasUsed(PRECOMPILE, good)).toBe(21_000n + calldata(good) + 12_000n)
  // Another length: the precompile costs nothing, as a call to an account without code.
  const short = good.subarray(0, 100)
  expect(await gasUsed(PRECOMPILE, short)).toBe(await gasUsed(EMPTY_ACCOUNT, short))
})
