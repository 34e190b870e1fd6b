import { createBlock, genRequestsRoot, type Block, type BlockHeader, type HeaderData } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { createAddressFromString, KECCAK256_RLP, type Address } from '@ethereumjs/util'
import { Bloom, encodeReceipt, runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import { captureConsole } from './console/capture.ts'
import { sha256 } from '@noble/hashes/sha2.js'
import { keccak256 } from './fastCrypto.ts'
import { headerBytes, headerHash } from './headerBytes.ts'
import { orderedTrieRoot } from './orderedTrie.ts'
import { senderAddress, transactionBytes, transactionType, type SignedTransaction } from './rawTransaction.ts'
import { runFromAnySender } from './senderCode.ts'
import { runAsBootloader } from './bootloaderEntry.ts'
import { ChainStoreError, UpstreamError } from '../errors.ts'
import { journalHeight, revertJournalTo } from './stateMachine.ts'
import { prepareForkedExecution } from '../fork/forkedStateManager.ts'

/** The header fields the node chooses for a new block; roots and gas come from execution. */
export interface BlockTemplate {
  parent: BlockHeader
  /** The parent's hash when it is not its header's (a fork's first block stands for the upstream's). */
  parentHash?: Uint8Array
  timestamp: bigint
  coinbase: Address
  gasLimit: bigint
  baseFeePerGas: bigint
  /** eth_simulateV1's override: a number beyond parent + 1. */
  number?: bigint
  /**
   * PREVRANDAO when set for this block (hardhat_setPrevRandao, eth_simulateV1's overrides); else
   * the hash of the parent's.
   */
  prevRandao?: Uint8Array
}

export interface IncludedTransaction<T extends SignedTransaction = SignedTransaction> {
  signed: T
  result: RunTxResult
  /** What its console.log calls printed (console/capture.ts), when it made any. */
  consoleLines?: string[]
}

export interface ProducedBlock<T extends SignedTransaction = SignedTransaction> {
  header: BlockHeader
  included: IncludedTransaction<T>[]
  /** Transactions the EVM refused at inclusion time (e.g. a balance spent by an earlier one). */
  dropped: { signed: T; reason: string }[]
  /** Transactions that did not fit the block gas limit; they wait for the next block. */
  deferred: T[]
  size: bigint
}

const ZERO_32 = new Uint8Array(32)
const EMPTY_REQUESTS_HASH = genRequestsRoot([], sha256)

/** The context a transaction executes in: NUMBER, TIMESTAMP, BASEFEE, COINBASE, PREVRANDAO. */
export function executionBlock(common: Common, template: BlockTemplate): Block {
  const { parent, timestamp, coinbase, gasLimit, baseFeePerGas, prevRandao } = template
  const last = lastContext
  if (
    last?.common === common &&
    last.parent === parent &&
    last.timestamp === timestamp &&
    last.gasLimit === gasLimit &&
    last.baseFeePerGas === baseFeePerGas &&
    last.coinbase.equals(coinbase) &&
    last.prevRandao === prevRandao
  ) {
    return last.block
  }
  const block = createBlock({ header: contextFields(template) }, { common })
  lastContext = { common, parent, timestamp, coinbase, gasLimit, baseFeePerGas, prevRandao, block }
  return block
}

/**
 * A mined block as the context of a call in it (eth_call at block N): its own number, timestamp,
 * coinbase, gas limit, base fee and PREVRANDAO, as geth and Hardhat run it. One per header.
 */
export function minedBlockContext(common: Common, header: BlockHeader): Block {
  let block = minedContexts.get(header)
  if (!block) {
    block = createBlock({ header, withdrawals: [] }, { common })
    minedContexts.set(header, block)
  }
  return block
}

const minedContexts = new WeakMap<BlockHeader, Block>()

/**
 * The last context made: every eth_call, estimate and trace on the head within one second asks
 * for the same one, and a Block (frozen, never written to) costs a header's validation and a
 * keccak to make (~0.04 ms of an eth_call in Node's profile).
 */
let lastContext: (BlockTemplate & { common: Common; block: Block }) | undefined

/** The header fields known before execution; the sealed header adds roots, bloom and gas. */
export function contextFields(template: BlockTemplate): HeaderData {
  const { parent } = template
  return {
    parentHash: template.parentHash ?? headerHash(parent),
    number: template.number ?? parent.number + 1n,
    timestamp: template.timestamp,
    gasLimit: template.gasLimit,
    baseFeePerGas: template.baseFeePerGas,
    coinbase: template.coinbase,
    // A deterministic, ever-changing PREVRANDAO: the hash of the parent's, unless one was set.
    mixHash: template.prevRandao ?? keccak256(parent.mixHash),
    excessBlobGas: 0n,
    blobGasUsed: 0n,
    parentBeaconBlockRoot: ZERO_32,
    withdrawalsRoot: KECCAK256_RLP,
    requestsHash: EMPTY_REQUESTS_HASH,
  }
}

/**
 * Runs transactions in order on the VM's current state (the parent's) and seals a block.
 *
 * Linear in the block size, unlike BlockBuilder, which re-creates every earlier transaction on each
 * add (docs/ethereumjs-notes.md, "BlockBuilder is quadratic"). All transactions run under one
 * journal checkpoint so the trie is hashed once per block; the state root is taken only after the
 * checkpoint is committed, never inside it (docs/ethereumjs-notes.md, "The checkpoint cache
 * hazard").
 */
export async function produceBlock<T extends SignedTransaction>(
  vm: VM,
  template: BlockTemplate,
  txs: readonly T[],
): Promise<ProducedBlock<T>> {
  const common = vm.common
  const fields = contextFields(template)
  const context = createBlock({ header: fields }, { common })
  const included: IncludedTransaction<T>[] = []
  const dropped: ProducedBlock<T>['dropped'] = []
  const deferred: T[] = []
  let gasUsed = 0n

  const height = journalHeight(vm)
  await vm.evm.journal.checkpoint()
  try {
    for (const signed of txs) {
      if (signed.tx.gasLimit > template.gasLimit - gasUsed) {
        deferred.push(signed)
        continue
      }
      try {
        // On a fork: the sender and the target in one upstream round trip, and no EraVM target.
        await prepareForkedExecution(vm.stateManager, createAddressFromString(signed.from), signed.tx.to)
        // A sender with code is accepted, as anvil and Hardhat accept it (see runFromAnySender).
        const { value: result, lines } = await captureConsole(vm, () =>
          runAsBootloader(vm, context, signed, (tx) =>
            runFromAnySender(vm, senderAddress(tx), () => runTx(vm, { tx, block: context, blockGasUsed: gasUsed, skipHardForkValidation: true })),
          ),
        )
        gasUsed += result.totalGasSpent
        included.push(lines.length > 0 ? { signed, result, consoleLines: lines } : { signed, result })
      } catch (error) {
        // A fork's upstream that failed is no fault of the transaction: the block is not made, and
        // the caller is told (the transaction may run once the upstream answers again).
        // Nor is a store that lost a node (TrieNodeStore): the state is not what it says.
        if (error instanceof UpstreamError || error instanceof ChainStoreError) throw error
        dropped.push({ signed, reason: error instanceof Error ? error.message : String(error) })
      }
    }
  } catch (error) {
    await revertJournalTo(vm, height)
    throw error
  }
  // The flush: the one write of the block's state to the trie (its caches held it until now), in
  // one batch per trie (exec/batchFlushedState.ts).
  try {
    await vm.evm.journal.commit()
  } catch (error) {
    await revertJournalTo(vm, height)
    throw error
  }
  const stateRoot = await vm.stateManager.getStateRoot()
  const encoded = included.map((entry) => transactionBytes(entry.signed))
  const bloom = new Bloom(undefined, common)
  for (const { result } of included) bloom.or(result.bloom)

  const header = sealedHeader(context.header, {
    stateRoot,
    transactionsTrie: orderedTrieRoot(encoded),
    // A 0x71 receipt is typed like its transaction; encodeReceipt prefixes any type but legacy.
    receiptTrie: orderedTrieRoot(included.map(({ signed, result }) => encodeReceipt(result.receipt, transactionType(signed) as never))),
    logsBloom: bloom.bitvector,
    gasUsed,
  })
  return { header, included, dropped, deferred, size: blockSize(header, encoded) }
}

/** What a block's execution gives its header. */
export type SealedFields = Pick<BlockHeader, 'stateRoot' | 'transactionsTrie' | 'receiptTrie' | 'logsBloom' | 'gasUsed'>

/**
 * The block's header: its execution context's (the fields the node chose, validated when the
 * context was made), with the roots, bloom and gas the execution gave. Copied, not made again
 * with createBlockHeader, which converts every numeric field to bytes through hex and back and
 * validates the same values a second time (2.6% of a transfer in Node's profile, the larger half
 * of a block's two headers). The same header: its raw(), hash() and toJSON() are those
 * createBlockHeader gives (test/core/exec/blockProducer.test.ts); frozen as that one is, with a
 * hash cache of its own. ethereumjs is pinned: a BlockHeader is its own fields, its Common and
 * its hash cache (10.1.3).
 */
export function sealedHeader(context: BlockHeader, sealed: SealedFields): BlockHeader {
  const header = Object.create(Object.getPrototypeOf(context) as object) as BlockHeader
  Object.assign(header, context, sealed, { cache: { hash: undefined } })
  Object.freeze(header)
  return header
}

/**
 * RLP length of [header, transactions, uncles, withdrawals] from the signed bytes (a typed
 * transaction is its bytes as an RLP string, a legacy one its RLP list, embedded as is).
 */
export function blockSize(header: BlockHeader, encodedTxs: readonly Uint8Array[]): bigint {
  let txsLength = 0
  for (const bytes of encodedTxs) txsLength += bytes[0] >= 0xc0 ? bytes.length : stringLength(bytes.length)
  const txList = listHeaderLength(txsLength) + txsLength
  const body = headerBytes(header).length + txList + 1 + 1 // empty uncles and withdrawals lists: 0xc0 each
  return BigInt(listHeaderLength(body) + body)
}

/** RLP length of a byte string of `length` bytes (a typed transaction's bytes are never one byte). */
function stringLength(length: number): number {
  return listHeaderLength(length) + length
}

function listHeaderLength(payload: number): number {
  if (payload < 56) return 1
  let lengthBytes = 0
  for (let n = payload; n > 0; n = Math.floor(n / 256)) lengthBytes++
  return 1 + lengthBytes
}
