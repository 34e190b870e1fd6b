import { Common, createCommonFromGethGenesis, type ParamsDict } from '@ethereumjs/common'
import type { KZG } from '@ethereumjs/util'
import { ecrecover, keccak256, loadFastCrypto } from './fastCrypto.ts'

/**
 * No KZG trusted setup is bundled (it is large and a dev chain has no blobs). Blob transactions are
 * refused before decoding; the 0x0a point-evaluation precompile gets a verifier that rejects every
 * proof, so a call to it fails like a bad proof instead of crashing runTx
 * (docs/ethereumjs-notes.md, "KZG").
 */
const unsupported = (): never => {
  throw new Error('blob transactions are not supported')
}
const noKzg: KZG = {
  verifyProof: () => false,
  blobToKzgCommitment: unsupported,
  computeBlobProof: unsupported,
  verifyBlobProofBatch: unsupported,
  computeCells: unsupported,
  computeCellsAndProofs: unsupported,
  recoverCellsAndProofs: unsupported,
  verifyCellKzgProofBatch: unsupported,
}

export interface ChainCommonOptions {
  /**
   * 'fast' (the default): keccak256 and sender recovery in WebAssembly once loaded (fastCrypto.ts),
   * the same results as ethereumjs' pure-JS defaults, which 'default' keeps (benchmark floors).
   */
  crypto?: 'fast' | 'default'
}

/**
 * A Prague Common for our chain id. Built from a geth genesis with every fork at 0 so that any code
 * re-deriving the hardfork from a block number or timestamp still lands on Prague
 * (createCustomCommon keeps Mainnet's schedule and breaks there: docs/ethereumjs-notes.md, "Common:
 * geth genesis, not createCustomCommon").
 */
export function createChainCommon(chainId: number, { crypto = 'fast' }: ChainCommonOptions = {}): Common {
  if (crypto === 'fast') void loadFastCrypto()
  const common = createCommonFromGethGenesis(
    {
      config: {
        chainId,
        homesteadBlock: 0,
        eip150Block: 0,
        eip155Block: 0,
        eip158Block: 0,
        byzantiumBlock: 0,
        constantinopleBlock: 0,
        petersburgBlock: 0,
        istanbulBlock: 0,
        muirGlacierBlock: 0,
        berlinBlock: 0,
        londonBlock: 0,
        arrowGlacierBlock: 0,
        grayGlacierBlock: 0,
        mergeNetsplitBlock: 0,
        terminalTotalDifficulty: 0,
        terminalTotalDifficultyPassed: true,
        shanghaiTime: 0,
        cancunTime: 0,
        pragueTime: 0,
        blobSchedule: {
          cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
          prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
        },
      },
      // createCommonFromGethGenesis reads these header fields of the genesis; ours are set per block.
      difficulty: '0x0',
      gasLimit: '0x0',
      extraData: '0x',
      nonce: '0x0',
      timestamp: '0x0',
      alloc: {},
    },
    {
      chain: `pagenode-${chainId}`,
      customCrypto: crypto === 'fast' ? { kzg: noKzg, keccak256, ecrecover } : { kzg: noKzg },
    },
  )
  if (crypto === 'fast') skipRepeatedParamUpdates(common)
  return common
}

/**
 * Every transaction, header and block ethereumjs builds copies its Common and calls
 * `updateParams` with its package's parameter set, which deep-copies the set by JSON and rebuilds
 * the whole parameter cache: 15% of a transfer's time in the node (profiled), twice per
 * transaction (decoding, then the block header). A copy shares its original's parameter sets
 * (`copy()` is shallow), so after the first time such a call usually changes nothing but the
 * caller's cache, which then comes out the same as the last one built from the same sets for the
 * same hardfork and EIPs: this hands that cache over instead (a cache is never changed once
 * built: each build makes a new object).
 *
 * A call whose values differ from the shared sets' (ethereumjs' vm and evm sets disagree on
 * EIP-2935's historyServeWindow, so the last one merged wins) runs in full, as before.
 * Copies inherit the override (`copy()` copies own properties).
 */
function skipRepeatedParamUpdates(common: Common): void {
  type Internals = { _params: ParamsDict; _paramsCache: object }
  /** Bumped whenever a call changes the shared parameter sets. */
  let version = 0
  const latest = new Map<string, { cache: object; version: number }>()
  /** The version at which a package's set (a module constant) was last found merged. */
  const mergedAt = new WeakMap<ParamsDict, number>()
  const update = Common.prototype.updateParams
  common.updateParams = function (this: Common, params: ParamsDict): void {
    const self = this as unknown as Internals
    const key = `${this.hardfork()}|${this.eips().join(',')}`
    if (mergedAt.get(params) === version || alreadyMerged(self._params, params)) {
      mergedAt.set(params, version)
      const built = latest.get(key)
      if (built?.version === version) {
        self._paramsCache = built.cache
        return
      }
    } else {
      version++
    }
    update.call(this, params)
    latest.set(key, { cache: self._paramsCache, version })
  }
}

/** Whether merging `params` into `shared` would change no value. */
function alreadyMerged(shared: ParamsDict, params: ParamsDict): boolean {
  for (const eip in params) {
    const have = shared[eip]
    if (have === undefined) return false
    const values = params[eip]
    for (const name in values) if (have[name] !== values[name]) return false
  }
  return true
}
