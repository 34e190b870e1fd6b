/**
 * The WebAssembly keccak256 and ecrecover load in Chromium too (not only under Node.js), and
 * answer exactly what @ethereumjs/util's pure-JS functions answer.
 */
import { ecrecover as jsEcrecover } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { beforeAll, expect, test } from 'vitest'
import { ecrecover, fastCryptoStatus, loadFastCrypto } from '../../../src/core/exec/fastCrypto.ts'
import { outcome, recoveryCases } from '../../support/ecrecoverCases.ts'

beforeAll(() => loadFastCrypto())

test('both WebAssembly modules load in a browser', () => {
  expect(fastCryptoStatus()).toEqual({ keccak256: 'wasm', ecrecover: 'wasm' })
})

test('ecrecover answers as @ethereumjs/util does: valid, high s, EIP-155, invalid', () => {
  const key = secp256k1.utils.randomSecretKey()
  for (let i = 0; i < 10; i++) {
    for (const args of recoveryCases(key, i)) expect(outcome(ecrecover, ...args)).toBe(outcome(jsEcrecover, ...args))
  }
})
