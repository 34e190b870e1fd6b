import { createBlockHeader, genRequestsRoot } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { Account, bigIntToBytes, createAddressFromString, hexToBytes, KECCAK256_RLP, setLengthLeft } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { sha256 } from '@noble/hashes/sha2.js'
import type { DevAccount } from '../chain/devAccounts.ts'
import type { BlockRecord } from '../chain/records.ts'
import type { ResolvedConfig } from '../config.ts'
import { BASE_TOKEN_L2_ADDRESS } from '../rollup/l1Settlement.ts'
import { NONCE_HOLDER_ADDRESS, NONCE_HOLDER_CODE } from '../rollup/nonceHolder.ts'
import { systemContracts, TOTAL_SUPPLY_SLOT } from '../rollup/systemContracts.ts'
import { blockSize } from './blockProducer.ts'
import type { StateMachine } from './stateMachine.ts'

/**
 * Block 0: the dev accounts and the rich wallets funded, the system contracts installed, a real header over that
 * state. Written into the miner's VM, which must be at the empty state (a new node, anvil_reset).
 *
 * On a fork, the first block stands for the fork block, as anvil's does: its number, timestamp
 * and hash are the upstream's (so the next block's parent hash and BLOCKHASH are the upstream's),
 * and so is its L1 batch on a ZKsync upstream; its state is the upstream's with the changes above.
 * Its own header (state root, base fee) is what the node mines on; readers get the upstream's
 * block (fork/history.ts).
 */
export async function createGenesis(
  state: StateMachine,
  common: Common,
  config: ResolvedConfig,
  accounts: DevAccount[],
  timestamp: bigint,
): Promise<BlockRecord> {
  const sm = state.vm.stateManager
  // Genesis-only data, like the system contracts' code: a chunk the worker loads only here.
  const richWallets = config.richWallets ? (await import('../chain/richWallets.ts')).RICH_WALLETS : []
  const funded = [...accounts.map(({ address }) => address), ...richWallets.map(([address]) => createAddressFromString(address))]
  if (state.fork) {
    // On a fork, as anvil funds its dev accounts: the balance set, the nonce and code kept (asked
    // of the upstream together).
    const forked = await Promise.all(funded.map((address) => sm.getAccount(address)))
    for (const [i, address] of funded.entries()) {
      const account = forked[i] ?? new Account()
      account.balance = config.balance
      await sm.putAccount(address, account)
    }
  } else {
    for (const address of funded) await sm.putAccount(address, new Account(0n, config.balance))
  }
  const installed = [...(await systemContracts()), { address: NONCE_HOLDER_ADDRESS, runtime: NONCE_HOLDER_CODE }]
  for (const { address, runtime } of installed) {
    const at = createAddressFromString(address)
    await sm.putAccount(at, new Account())
    await sm.putCode(at, hexToBytes(runtime))
  }
  // L2BaseToken's totalSupply: the ETH that exists, which withdrawals then burn.
  const supply = config.balance * BigInt(funded.length)
  if (supply > 0n) {
    await sm.putStorage(createAddressFromString(BASE_TOKEN_L2_ADDRESS), setLengthLeft(bigIntToBytes(TOTAL_SUPPLY_SLOT), 32), bigIntToBytes(supply))
  }
  const point = state.fork?.point
  const number = point?.blockNumber ?? 0n
  const time = point?.timestamp ?? timestamp
  const batch = point?.l1Batch ?? 0n
  const header = createBlockHeader(
    {
      number,
      timestamp: time,
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
    hash: point?.blockHash ?? bytesToHex(header.hash()),
    number,
    transactions: [],
    size: blockSize(header, []),
    // Batch 0 (a fork's: the fork block's batch) holds the genesis block alone and is sealed from the start.
    l1BatchNumber: batch,
    l1BatchTimestamp: time,
    l1BatchTxOffset: 0,
    sealsBatch: true,
    batchSealed: true,
  }
}
