import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { getMerkleStateProof } from '@ethereumjs/statemanager'
import { bigIntToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { bytesToHex } from '../../hexText.ts'
import type { Node } from '../../node.ts'
import { estimateGasAt } from '../../exec/estimateGas.ts'
import { batchDetails, blockDetails, transactionDetails } from '../../rollup/details.ts'
import { simulateTransaction } from '../../rollup/detailedOutput.ts'
import { batchFeeInput, feeParams, GAS_PER_PUBDATA_LIMIT, L1_GAS_PRICE } from '../../rollup/feeModel.ts'
import { BASE_TOKEN_L1_ADDRESS, BRIDGE_CONTRACTS, ETH_TOKEN, ETH_TOKEN_ADDRESS, L1_CHAIN_ID, MAIN_CONTRACT } from '../../rollup/l1Settlement.ts'
import { PROTOCOL_VERSION, protocolVersion } from '../../rollup/protocolVersion.ts'
import { proofForMessage, proofForTransactionLog } from '../../rollup/proofLookup.ts'
import { rawBlockTransaction } from '../../rollup/rawBlockTransaction.ts'
import { callRequest, stateOverrides } from '../callObject.ts'
import { constant, method, type MethodSpec, type MethodTable } from '../method.ts'
import { address, custom, data, hash, numberish, optional, ParamError, parseArrayOf, parseHash } from '../params.ts'

const LATEST = { kind: 'tag', tag: 'latest' } as const

/**
 * A sealed batch, or undefined: era knows only sealed batches (open ones are not in l1_batches),
 * and readers see a batch sealed once its sealing block is stored.
 */
function sealedBatch(node: Node, number: bigint) {
  return node.chain.sealedBatch(number)
}

function parseInteropMode(value: unknown): undefined {
  throw new ParamError(
    `interop mode ${JSON.stringify(value)} proves against a Gateway's message root; this chain settles on L1 directly (omit it or pass null)`,
  )
}

const parseHashes = parseArrayOf('32-byte storage keys', parseHash)

function parseTokenLimit(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255) return value
  throw new ParamError(`expected an integer from 0 to 255, got ${JSON.stringify(value)}`)
}

/**
 * zks_sendRawTransactionWithDetailedOutput: eth_sendRawTransaction that also says what the
 * transaction will write and emit. The output is optimistic (era's word): the transaction runs
 * on the head state before it is pooled, so it cannot see pooled transactions that are not
 * mined yet. Its events have no block yet; they name the batch the next block joins and the
 * position the transaction takes there. The simulation has eth_call's time limit: past it the
 * transaction is refused, not pooled.
 */
const sendRawTransactionWithDetailedOutput: MethodSpec = method([data('transaction')], async (node, [raw]) => {
  const signed = await node.decodeTransaction(raw)
  await node.admit(signed)
  const head = node.chain.head
  const sandbox = await node.sandbox(head)
  // A simulation like eth_call's, time-limited alike: a looping transaction is refused here
  // (execution aborted) instead of holding the node for as long as its gas lasts.
  const simulated = await sandbox.runTimed(node.config.limits.evmTimeoutMs, 'call', (vm) => simulateTransaction(vm, node.callContext(head, true), signed))
  const placement = node.chain.nextBatchPlacement(node.clock.nextTimestamp(head.header.timestamp))
  const transactionIndex = bigIntToHex(BigInt(placement.txOffset + node.pool.size))
  await node.submit(signed)
  return {
    transactionHash: signed.hash,
    storageLogs: simulated.storageLogs,
    events: simulated.events.map((event) => ({
      ...event,
      blockHash: null,
      blockNumber: null,
      l1BatchNumber: bigIntToHex(placement.number),
      transactionHash: signed.hash,
      transactionIndex,
      logIndex: null,
      transactionLogIndex: null,
      logType: null,
      removed: false,
      blockTimestamp: null,
    })),
  }
})

/** The zks_ namespace (docs/zksync.md, "Response shapes"): era's shapes, numbers and nulls. */
export const zksMethods = {
  zks_estimateFee: method([callRequest('call'), optional(stateOverrides('stateOverrides'))], async (node, [request, overrides]) => ({
    gas_limit: bigIntToHex(await estimateGasAt(node, request, LATEST, overrides)),
    // The base fee is the whole price: era asks no tip, and neither does this chain.
    max_fee_per_gas: bigIntToHex(node.params.gasPrice()),
    max_priority_fee_per_gas: '0x0',
    gas_per_pubdata_limit: bigIntToHex(GAS_PER_PUBDATA_LIMIT),
  })),
  // There are no L1→L2 transactions here; the L2 part of one costs what the same call costs. On
  // ZKsync it runs as its sender without account validation or paymaster, so the 0x71 meta
  // zksync-ethers sends with it (gasPerPubdata) adds no account steps (exec/bootloaderEstimate.ts).
  zks_estimateGasL1ToL2: method([callRequest('call'), optional(stateOverrides('stateOverrides'))], async (node, [{ eip712: _eip712, paymaster: _paymaster, ...call }, overrides]) =>
    bigIntToHex(await estimateGasAt(node, call, LATEST, overrides)),
  ),
  zks_gasPerPubdata: constant(() => bigIntToHex(GAS_PER_PUBDATA_LIMIT)),
  zks_getFeeParams: constant((node) => feeParams(node.params.gasPrice())),
  zks_getBatchFeeInput: constant((node) => batchFeeInput(node.params.gasPrice())),
  zks_getL1GasPrice: constant(() => bigIntToHex(L1_GAS_PRICE)),

  zks_L1ChainId: constant(() => bigIntToHex(L1_CHAIN_ID)),
  zks_getMainContract: constant(() => MAIN_CONTRACT),
  zks_getBridgehubContract: constant(() => null),
  zks_getBridgeContracts: constant(() => BRIDGE_CONTRACTS),
  zks_getBaseTokenL1Address: constant(() => BASE_TOKEN_L1_ADDRESS),
  zks_getTestnetPaymaster: constant(() => null),
  zks_getTimestampAsserter: constant(() => null),
  zks_getL2Multicall3: constant(() => null),

  zks_getConfirmedTokens: method([numberish('from'), custom('limit', parseTokenLimit)], (_node, [from, limit]) =>
    [ETH_TOKEN].slice(Number(from), Number(from) + limit),
  ),
  // Era lists the tokens an account holds; this node knows only the base token.
  zks_getAllAccountBalances: method([address('address')], async (node, [who]) => {
    const balance = (await node.account(who, node.chain.head))?.balance ?? 0n
    return balance > 0n ? { [ETH_TOKEN_ADDRESS]: bigIntToHex(balance) } : {}
  }),

  zks_getProtocolVersion: method([optional(numberish('versionId'))], (node, [id]) =>
    id === undefined || id === BigInt(PROTOCOL_VERSION) ? protocolVersion(node.chain.genesis.header.timestamp) : null,
  ),

  zks_L1BatchNumber: constant((node) => bigIntToHex(node.chain.lastSealedBatch.number)),
  zks_getL1BatchBlockRange: method([numberish('batch')], (node, [number]) => {
    const batch = sealedBatch(node, number)
    return batch ? [bigIntToHex(batch.firstBlock), bigIntToHex(batch.lastBlock)] : null
  }),
  zks_getL1BatchDetails: method([numberish('batch')], (node, [number]) => {
    const batch = sealedBatch(node, number)
    return batch ? batchDetails(batch, node.chain.batchBlocks(batch), node.config.gasPrice) : null
  }),
  zks_getBlockDetails: method([numberish('block')], (node, [number]) => {
    const block = node.chain.byNumber(number)
    return block ? blockDetails(block, node.config.gasPrice) : null
  }),
  zks_getTransactionDetails: method([hash('transactionHash')], (node, [txHash]) => {
    const mined = node.chain.transaction(txHash)
    if (mined) return transactionDetails(mined, mined.receivedAtMs, { record: mined, block: node.chain.byNumber(mined.blockNumber)! })
    const pending = node.pool.stored.get(txHash)
    return pending ? transactionDetails(pending, pending.receivedAtMs) : null
  }),
  // Era answers an empty list for a block it does not have.
  zks_getRawBlockTransactions: method([numberish('block')], (node, [number]) =>
    (node.chain.byNumber(number)?.transactions ?? []).map(rawBlockTransaction),
  ),
  zks_getBytecodeByHash: method([hash('bytecodeHash')], (node, [bytecodeHash]) => {
    const bytecode = node.chain.bytecode(bytecodeHash)
    return bytecode ? Array.from(bytecode) : null
  }),

  zks_getL2ToL1LogProof: method(
    [hash('transactionHash'), optional(numberish('index')), optional(custom('interopMode', parseInteropMode))],
    (node, [txHash, index]) => proofForTransactionLog(node.chain, txHash, Number(index ?? 0n)),
  ),
  zks_getL2ToL1MsgProof: method(
    [numberish('block'), address('sender'), hash('messageHash'), optional(numberish('logPosition'))],
    (node, [block, sender, messageHash, position]) =>
      proofForMessage(node.chain, block, sender, messageHash, position === undefined ? undefined : Number(position)),
  ),

  /**
   * Storage proofs at a sealed batch (its last block's state). This chain's state is a
   * Merkle-Patricia trie, not era's sparse Merkle tree: `proof` holds the trie nodes from the
   * account's storage root (`storageHash`, itself proven by `accountProof` from the state root),
   * and `index` (era's leaf enumeration index) is always 0.
   */
  zks_getProof: method([address('address'), custom('keys', parseHashes), numberish('batch')], async (node, [who, keys, number]) => {
    const batch = sealedBatch(node, number)
    if (!batch) return null
    const sandbox = await node.sandbox(node.chain.byNumber(batch.lastBlock)!)
    const slots = keys.map((key) => hexToBytes(key))
    const proof = await sandbox.read((vm) => getMerkleStateProof(vm.stateManager as MerkleStateManager, createAddressFromString(who), slots))
    return {
      address: who,
      storageProof: proof.storageProof.map((entry, i) => ({
        key: keys[i],
        proof: entry.proof,
        value: bytesToHex(setLengthLeft(hexToBytes(entry.value), 32)),
        index: 0,
      })),
      accountProof: proof.accountProof,
      storageHash: proof.storageHash,
    }
  }),

  zks_sendRawTransactionWithDetailedOutput: sendRawTransactionWithDetailedOutput,
} satisfies MethodTable

/** The detailed output's newer name (era moved it to `unstable_` in 2025). */
export const unstableMethods = {
  unstable_sendRawTransactionWithDetailedOutput: sendRawTransactionWithDetailedOutput,
} satisfies MethodTable
