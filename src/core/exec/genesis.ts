import { createBlockHeader, genRequestsRoot } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { Account, createAddressFromString, hexToBytes, KECCAK256_RLP } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { sha256 } from '@noble/hashes/sha2.js'
import type { DevAccount } from '../chain/devAccounts.ts'
import { RICH_WALLETS } from '../chain/richWallets.ts'
import type { BlockRecord } from '../chain/records.ts'
import type { ResolvedConfig } from '../config.ts'
import { L1_MESSENGER_ADDRESS, L1_MESSENGER_RUNTIME } from '../rollup/l1Messenger.ts'
import { blockSize } from './blockProducer.ts'
import type { StateMachine } from './stateMachine.ts'

/**
 * Block 0: the dev accounts and the rich wallets funded, the system contracts installed, a real header over that
 * state. Written into the miner's VM, which must be at the empty state (a new node, anvil_reset).
 */
export async function createGenesis(
  state: StateMachine,
  common: Common,
  config: ResolvedConfig,
  accounts: DevAccount[],
  timestamp: bigint,
): Promise<BlockRecord> {
  const sm = state.vm.stateManager
  for (const { address } of accounts) await sm.putAccount(address, new Account(0n, config.balance))
  if (config.richWallets) {
    for (const [address] of RICH_WALLETS) await sm.putAccount(createAddressFromString(address), new Account(0n, config.balance))
  }
  const messenger = createAddressFromString(L1_MESSENGER_ADDRESS)
  await sm.putAccount(messenger, new Account())
  await sm.putCode(messenger, hexToBytes(L1_MESSENGER_RUNTIME))
  const header = createBlockHeader(
    {
      number: 0n,
      timestamp,
      gasLimit: config.blockGasLimit,
      baseFeePerGas: config.gasPrice,
      stateRoot: await sm.getStateRoot(),
      withdrawalsRoot: KECCAK256_RLP,
      blobGasUsed: 0n,
      excessBlobGas: 0n,
      parentBeaconBlockRoot: new Uint8Array(32),
      requestsHash: genRequestsRoot([], sha256),
    },
    { common },
  )
  return {
    header,
    hash: bytesToHex(header.hash()),
    number: 0n,
    transactions: [],
    size: blockSize(header, []),
    // Batch 0 holds the genesis block alone and is sealed from the start.
    l1BatchNumber: 0n,
    l1BatchTimestamp: timestamp,
    l1BatchTxOffset: 0,
    sealsBatch: true,
    batchSealed: true,
  }
}
