import {
  createBlock,
  createBlockHeader,
  genRequestsRoot,
  genTransactionsTrieRoot,
  type Block,
  type BlockHeader,
} from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import type { TypedTransaction } from '@ethereumjs/tx'
import { Capability } from '@ethereumjs/tx'
import { KECCAK256_RLP, type Address } from '@ethereumjs/util'
import { Bloom, encodeReceipt, runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import { sha256 } from '@noble/hashes/sha2.js'
import { keccak_256 } from '@noble/hashes/sha3.js'

/** The header fields the node chooses for a new block; roots and gas come from execution. */
export interface BlockTemplate {
  parent: BlockHeader
  timestamp: bigint
  coinbase: Address
  gasLimit: bigint
  baseFeePerGas: bigint
}

export interface IncludedTransaction {
  tx: TypedTransaction
  result: RunTxResult
}

export interface ProducedBlock {
  header: BlockHeader
  included: IncludedTransaction[]
  /** Transactions the EVM refused at inclusion time (e.g. a balance spent by an earlier one). */
  dropped: { tx: TypedTransaction; reason: string }[]
  /** Transactions that did not fit the block gas limit; they wait for the next block. */
  deferred: TypedTransaction[]
  size: bigint
}

const ZERO_32 = new Uint8Array(32)
const EMPTY_REQUESTS_HASH = genRequestsRoot([], sha256)

/** The context a transaction executes in: NUMBER, TIMESTAMP, BASEFEE, COINBASE, PREVRANDAO. */
export function executionBlock(common: Common, template: BlockTemplate): Block {
  const { parent } = template
  return createBlock(
    {
      header: {
        parentHash: parent.hash(),
        number: parent.number + 1n,
        timestamp: template.timestamp,
        gasLimit: template.gasLimit,
        baseFeePerGas: template.baseFeePerGas,
        coinbase: template.coinbase,
        // A deterministic, ever-changing PREVRANDAO: the hash of the parent's.
        mixHash: keccak_256(parent.mixHash),
        excessBlobGas: 0n,
        blobGasUsed: 0n,
        parentBeaconBlockRoot: ZERO_32,
        withdrawalsRoot: KECCAK256_RLP,
        requestsHash: EMPTY_REQUESTS_HASH,
      },
    },
    { common },
  )
}

/**
 * Runs transactions in order on the VM's current state (the parent's) and seals a block.
 *
 * Linear in the block size, unlike BlockBuilder, which re-creates every earlier transaction on
 * each add (reference/ethereumjs.md §1.6). All transactions run under one journal checkpoint so
 * the trie is hashed once per block; the state root is taken only after the checkpoint is
 * committed, never inside it (the cache hazard of §2.3).
 */
export async function produceBlock(
  vm: VM,
  template: BlockTemplate,
  txs: readonly TypedTransaction[],
): Promise<ProducedBlock> {
  const common = vm.common
  const context = executionBlock(common, template)
  const included: IncludedTransaction[] = []
  const dropped: ProducedBlock['dropped'] = []
  const deferred: TypedTransaction[] = []
  let gasUsed = 0n

  await vm.evm.journal.checkpoint()
  try {
    for (const tx of txs) {
      if (tx.gasLimit > template.gasLimit - gasUsed) {
        deferred.push(tx)
        continue
      }
      try {
        const result = await runTx(vm, {
          tx,
          block: context,
          blockGasUsed: gasUsed,
          skipHardForkValidation: true,
        })
        gasUsed += result.totalGasSpent
        included.push({ tx, result })
      } catch (error) {
        dropped.push({ tx, reason: error instanceof Error ? error.message : String(error) })
      }
    }
    await vm.evm.journal.commit()
  } catch (error) {
    await vm.evm.journal.revert()
    throw error
  }

  const stateRoot = await vm.stateManager.getStateRoot()
  const transactions = included.map((entry) => entry.tx)
  const bloom = new Bloom(undefined, common)
  for (const { result } of included) bloom.or(result.bloom)

  const header = createBlockHeader(
    {
      ...context.header.toJSON(),
      stateRoot,
      transactionsTrie: await genTransactionsTrieRoot(transactions, new MerklePatriciaTrie({ common })),
      receiptTrie: await receiptsRoot(included, common),
      logsBloom: bloom.bitvector,
      gasUsed,
    },
    { common },
  )
  return { header, included, dropped, deferred, size: blockSize(header, transactions) }
}

async function receiptsRoot(included: IncludedTransaction[], common: Common): Promise<Uint8Array> {
  if (included.length === 0) return KECCAK256_RLP
  const trie = new MerklePatriciaTrie({ common })
  for (const [i, { tx, result }] of included.entries()) {
    await trie.put(RLP.encode(i), encodeReceipt(result.receipt, tx.type))
  }
  return trie.root()
}

/** RLP length of [header, transactions, uncles, withdrawals] without re-creating tx objects. */
export function blockSize(header: BlockHeader, txs: readonly TypedTransaction[]): bigint {
  const encodedTxs = txs.map((tx) =>
    tx.supports(Capability.EIP2718TypedTransaction) ? tx.serialize() : tx.raw(),
  )
  return BigInt(RLP.encode([header.raw(), encodedTxs as never, [], []]).length)
}
