/**
 * WebAssembly keccak256 and secp256k1 public-key recovery for the engine, through
 * `common.customCrypto` (recovering a sender in pure JS costs more than running a transfer, and
 * keccak is ~14% of an ERC-20 transfer: docs/ethereumjs-notes.md, "Where a transaction's time
 * goes").
 *
 * Both load in the background: until a module is ready, and wherever it cannot load (a page whose
 * CSP forbids WebAssembly), the pure-JS functions ethereumjs uses by default answer instead. The
 * results never differ, only the speed:
 * - keccak256: hash-wasm's Keccak-256, 5–15× faster than noble on small inputs (5 KB gzip).
 * - ecrecover: libsecp256k1 (Bitcoin Core's C library) in WebAssembly, from @bitauth/libauth:
 *   ~0.2 ms a recovery in Chromium 156 and in Node 20, against noble's ~0.8 ms in Chromium and
 *   ~1.8 ms in Node, and RustCrypto's k256 in WebAssembly at ~0.7 ms in both (measured on this
 *   project's 2-core VM; bench/README.md). Its chunk (~120 KB gzip, the module inlined as base64)
 *   loads after start. libsecp256k1 refuses what a transaction may not carry but the 0x01
 *   precompile must see answered as ethereumjs answers it (r or s out of range, no point for r):
 *   whatever it refuses, noble recovers or throws, so the precompile and every error are
 *   ethereumjs' own.
 */
import { calculateSigRecovery, concatBytes, ecrecover as jsEcrecover, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { keccak_256 } from '@noble/hashes/sha3.js'

type Hash = (message: Uint8Array) => Uint8Array
/** The 64-byte public key (no 0x04 prefix) of a compact signature with its recovery bit. */
type Recover = (hash: Uint8Array, signature: Uint8Array, recovery: number) => Uint8Array

let wasmKeccak: Hash | undefined
let wasmRecover: Recover | undefined
let loading: Promise<void> | undefined

/** keccak256 for `customCrypto.keccak256`: WebAssembly once loaded, noble before. */
export function keccak256(message: Uint8Array): Uint8Array {
  return wasmKeccak ? wasmKeccak(message) : keccak_256(message)
}

/** One sender recovery: `ecrecover`'s arguments and the public key it answered. */
export interface Recovery {
  msgHash: Uint8Array
  v: bigint
  r: Uint8Array
  s: Uint8Array
  chainId?: bigint
  publicKey: Uint8Array
}

/**
 * Public keys another thread recovered ahead of time (src/worker/senderRecovery.ts), by the
 * exact arguments `ecrecover` is called with: the node then decodes and checks the transaction
 * as always and only skips the curve arithmetic, which is most of a transfer's cost.
 */
const remembered = new Map<string, Uint8Array>()
const REMEMBERED_MAX = 4096
let observer: ((recovery: Recovery) => void) | undefined

const recoveryKey = (msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint) =>
  `${bytesToHex(msgHash)}:${v}:${bytesToHex(r)}:${bytesToHex(s)}:${chainId ?? ''}`

/** Makes `ecrecover` answer these arguments with this key (recovered by the same code elsewhere). */
export function rememberRecovery({ msgHash, v, r, s, chainId, publicKey }: Recovery): void {
  if (remembered.size >= REMEMBERED_MAX) remembered.delete(remembered.keys().next().value!)
  remembered.set(recoveryKey(msgHash, v, r, s, chainId), publicKey)
}

/** Calls `watch` with every recovery `ecrecover` computes from now on (undefined: stop). */
export function observeRecoveries(watch: ((recovery: Recovery) => void) | undefined): void {
  observer = watch
}

/** `customCrypto.ecrecover`: the 64-byte public key, as @ethereumjs/util's ecrecover returns it. */
export function ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  if (remembered.size > 0) {
    const known = remembered.get(recoveryKey(msgHash, v, r, s, chainId))
    if (known) return known.slice()
  }
  const publicKey = recover(msgHash, v, r, s, chainId)
  observer?.({ msgHash, v, r, s, chainId, publicKey })
  return publicKey
}

function recover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  if (wasmRecover && r.length <= 32 && s.length <= 32 && msgHash.length === 32) {
    const recovery = calculateSigRecovery(v, chainId)
    if (recovery === 0n || recovery === 1n) {
      try {
        return wasmRecover(msgHash, concatBytes(setLengthLeft(r, 32), setLengthLeft(s, 32)), Number(recovery))
      } catch {
        // Refused (r or s out of range, no point for r): noble decides, and throws alike.
      }
    }
  }
  return jsEcrecover(msgHash, v, r, s, chainId)
}

/**
 * Starts loading both modules (once) and resolves when each is ready or has failed. Callers
 * need not wait: the functions above work meanwhile. Benchmarks wait, to time the steady state.
 */
export function loadFastCrypto(): Promise<void> {
  loading ??= Promise.all([loadKeccak(), loadRecover()]).then(() => {
    loaded = true
  })
  return loading
}

/** Whether loadFastCrypto has settled (each module ready, or refused): no need to wait on it. */
let loaded = false
export const fastCryptoSettled = (): boolean => loaded

/** Which implementations answer now (for benchmarks and tests). */
export function fastCryptoStatus(): { keccak256: 'wasm' | 'js'; ecrecover: 'wasm' | 'js' } {
  return { keccak256: wasmKeccak ? 'wasm' : 'js', ecrecover: wasmRecover ? 'wasm' : 'js' }
}

async function loadKeccak(): Promise<void> {
  try {
    const { createKeccak } = await import('./keccakWasm.ts')
    const hasher = await createKeccak(256)
    const hash: Hash = (message) => hasher.init().update(message).digest('binary')
    // A module that loads but answers wrongly (a broken build) must never be used.
    if (!sameBytes(hash(SELF_TEST), keccak_256(SELF_TEST))) return
    wasmKeccak = hash
  } catch {
    // No WebAssembly here: noble stays.
  }
}

async function loadRecover(): Promise<void> {
  try {
    // The module itself, not the package root: the root instantiates every libauth hash at import.
    const { instantiateSecp256k1 } = await import('@bitauth/libauth/build/lib/crypto/secp256k1.js')
    const secp256k1 = await instantiateSecp256k1()
    const recover: Recover = (hash, signature, recovery) => {
      const key = secp256k1.recoverPublicKeyUncompressed(signature, recovery as 0 | 1, hash)
      // A string is libauth's refusal (unparsable signature, no key): noble decides.
      if (typeof key === 'string') throw new Error(key)
      return key.slice(1)
    }
    const { hash, signature, recovery, publicKey } = RECOVERY_SELF_TEST
    if (!sameBytes(recover(hash, signature, recovery), publicKey.subarray(1))) return
    wasmRecover = recover
  } catch {
    // No WebAssembly here: noble stays.
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i])
}

const SELF_TEST = new TextEncoder().encode('pagenode')

/** A signature by the first dev account's key over keccak256('pagenode'), and that key. */
const RECOVERY_SELF_TEST = {
  hash: keccak_256(SELF_TEST),
  signature: hexToBytes(
    `0x${'77e79a62b1590e03adb52c30b585d9faccffe0b473909562f6e334833bf23fa8'}${'675efd157bc1de8d8ba7a0238271a1171730f371009e8dcdd206b984293ec842'}`,
  ),
  recovery: 1,
  publicKey: hexToBytes(
    `0x04${'8318535b54105d4a7aae60c08fc45f9687181b4fdfc625bd1a753fa7397fed75'}${'3547f11ca8696646f2f3acb08e31016afac23e630c5d11f59f61fef57b0d2aa5'}`,
  ),
}
