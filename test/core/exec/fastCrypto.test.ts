import { createFeeMarket1559Tx, createTxFromRLP } from '@ethereumjs/tx'
import { ecrecover as jsEcrecover, hexToBytes } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { beforeAll, describe, expect, test } from 'vitest'
import { createChainCommon } from '../../../src/core/exec/chainCommon.ts'
import { outcome, recoveryCases } from '../../support/ecrecoverCases.ts'
import { ecrecover, fastCryptoStatus, keccak256, loadFastCrypto } from '../../../src/core/exec/fastCrypto.ts'


describe('WebAssembly keccak256 and ecrecover (customCrypto)', () => {
  beforeAll(() => loadFastCrypto())

  test('both modules load in Node', () => {
    expect(fastCryptoStatus()).toEqual({ keccak256: 'wasm', ecrecover: 'wasm' })
  })

  test('keccak256 matches noble for every length around the rate (136 bytes)', () => {
    for (const length of [0, 1, 31, 32, 33, 64, 100, 135, 136, 137, 271, 272, 273, 1000, 5000]) {
      const message = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff)
      expect(Buffer.from(keccak256(message)).toString('hex'), `length ${length}`).toBe(Buffer.from(keccak_256(message)).toString('hex'))
    }
  })

  test('ecrecover matches @ethereumjs/util for valid, high-s, EIP-155 and invalid signatures', () => {
    const key = secp256k1.utils.randomSecretKey()
    for (let i = 0; i < 40; i++) {
      for (const args of recoveryCases(key, i)) expect(outcome(ecrecover, ...args)).toBe(outcome(jsEcrecover, ...args))
    }
  })

  test('a transaction decoded with the chain Common recovers the same sender', () => {
    const key = secp256k1.utils.randomSecretKey()
    const plainCommon = createChainCommon(260, { crypto: 'default' })
    const fields = { chainId: 260n, nonce: 3n, maxFeePerGas: 10n ** 9n, gasLimit: 21000n, to: `0x${'11'.repeat(20)}` as const, value: 1n }
    const raw = createFeeMarket1559Tx(fields, { common: plainCommon }).sign(key).serialize()
    const fast = createTxFromRLP(raw, { common: createChainCommon(260) })
    const plain = createTxFromRLP(raw, { common: plainCommon })
    expect(fast.getSenderAddress().toString()).toBe(plain.getSenderAddress().toString())
    expect(fast.hash()).toEqual(plain.hash())
  })
})

describe('recoveries made elsewhere (the node worker’s recovery helper)', () => {
  test('a remembered key answers exactly its arguments; computed recoveries are reported', async () => {
    const { rememberRecovery, observeRecoveries } = await import('../../../src/core/exec/fastCrypto.ts')
    const msgHash = keccak_256(new TextEncoder().encode('remembered'))
    const signature = secp256k1.sign(msgHash, hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'), { format: 'recovered', prehash: false })
    const [recovery, r, s] = [signature[0], signature.subarray(1, 33), signature.subarray(33, 65)]
    const v = BigInt(recovery) + 27n
    const seen: unknown[] = []
    observeRecoveries((computed) => seen.push(computed))
    const real = ecrecover(msgHash, v, r, s)
    observeRecoveries(undefined)
    expect(seen).toEqual([{ msgHash, v, r, s, chainId: undefined, publicKey: real }])

    const planted = new Uint8Array(64).fill(7)
    rememberRecovery({ msgHash, v, r, s, publicKey: planted })
    expect(ecrecover(msgHash, v, r, s)).toEqual(planted)
    // Any other argument is recovered as ever.
    const eip155V = v + 8n + 2n * 260n // the same signature as an EIP-155 one on chain 260
    expect(ecrecover(msgHash, eip155V, r, s, 260n)).toEqual(jsEcrecover(msgHash, eip155V, r, s, 260n))
    const otherV = v === 27n ? 28n : 27n
    expect(ecrecover(msgHash, otherV, r, s)).toEqual(jsEcrecover(msgHash, otherV, r, s))
  })
})
