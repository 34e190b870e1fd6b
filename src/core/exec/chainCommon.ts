import { createCommonFromGethGenesis, type Common } from '@ethereumjs/common'
import type { KZG } from '@ethereumjs/util'

/**
 * No KZG trusted setup is bundled (it is large and a dev chain has no blobs). Blob transactions are
 * refused before decoding; the 0x0a point-evaluation precompile gets a verifier that rejects every
 * proof, so a call to it fails like a bad proof instead of crashing runTx (reference §7.11).
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

/**
 * A Prague Common for our chain id. Built from a geth genesis with every fork at 0 so that any
 * code re-deriving the hardfork from a block number or timestamp still lands on Prague
 * (reference/ethereumjs.md §1.1: createCustomCommon keeps Mainnet's schedule and breaks there).
 */
export function createChainCommon(chainId: number): Common {
  return createCommonFromGethGenesis(
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
    { chain: `pagenode-${chainId}`, customCrypto: { kzg: noKzg } },
  )
}
