import { createCommonFromGethGenesis, type Common } from '@ethereumjs/common'
import type { KZG } from '@ethereumjs/util'
import { keepHardforkList, skipRepeatedParamUpdates } from './enginePatches.ts'
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
  // 'default' is ethereumjs as it is (the benchmark floors): its Common is not patched either.
  if (crypto === 'fast') {
    skipRepeatedParamUpdates(common)
    keepHardforkList(common)
  }
  return common
}
