import { createBlock, type BlockHeader } from '@ethereumjs/block'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import { Account, bigIntToBytes, createAddressFromString, hexToBytes, setLengthLeft, type Address, type PrefixedHexString } from '@ethereumjs/util'
import { Bloom, encodeReceipt, type RunTxResult, type VM } from '@ethereumjs/vm'
import { logRecords, type BlockRecord, type LogRecord, type TransactionRecord } from '../chain/records.ts'
import { ExecutionRevertedError, GasLimitTooLowError, SimulationError, SimulationErrorCode } from '../errors.ts'
import { bytesToHex } from '../hexText.ts'
import { recordCalls } from '../trace/callRecorder.ts'
import type { CallFrame } from '../trace/callFrame.ts'
import { blockSize, contextFields, sealedHeader } from './blockProducer.ts'
import { applyStateOverrides, gethExecutionError, isPriced, runCallTransaction, type CallRequest, type StateOverrides } from './call.ts'
import { keccak256 } from './fastCrypto.ts'
import { orderedTrieRoot } from './orderedTrie.ts'
import { decodeRevertReason } from './revertReason.ts'
import { transactionLimits } from './codeSizeLimit.ts'

/** One entry of blockStateCalls, parsed. */
export interface SimulatedBlock {
  overrides: BlockOverrides
  stateOverrides: StateOverrides | undefined
  calls: CallRequest[]
}

export interface BlockOverrides {
  number?: bigint
  time?: bigint
  gasLimit?: bigint
  feeRecipient?: PrefixedHexString
  prevRandao?: Uint8Array
  baseFeePerGas?: bigint
}

export interface SimulationOptions {
  traceTransfers: boolean
  validation: boolean
}

/** What the simulation starts from: the base block, and the node's settings it needs. */
export interface SimulationBase {
  header: BlockHeader
  /** The base fee of simulated blocks under validation (the node's; blocks have a fixed base fee here). */
  baseFee: bigint
  /** The most gas one call may use when it names none (limits.callGasCap). */
  callGasCap: bigint
}

/** One call's outcome, as eth_simulateV1 answers it (before its block's hash is known). */
export interface SimulatedCallResult {
  returnData: PrefixedHexString
  logs: LogRecord[]
  gasUsed: bigint
  maxUsedGas: bigint
  status: 0 | 1
  error?: { code: number; message: string; data?: unknown }
}

export interface SimulatedBlockResult {
  /** A block record as the chain keeps one, so the node's block and transaction formats apply. */
  block: BlockRecord
  calls: SimulatedCallResult[]
}

/** EIP-7528's stand-in address for ETH, the emitter of traceTransfers' Transfer logs. */
export const ETH_TRANSFER_ADDRESS: PrefixedHexString = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const TRANSFER_TOPIC: PrefixedHexString = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const ZERO_ADDRESS: PrefixedHexString = '0x0000000000000000000000000000000000000000'
/** Simulated blocks whose time is not given follow their parent by this much (pagenode mines a block a second or faster). */
const BLOCK_TIME = 1n

/**
 * eth_simulateV1 (execution-apis, "eth_simulate"): blocks of calls on top of `base`, each block's
 * state overrides applied before its calls, each call on the state the ones before it left. Runs
 * on `vm` as it is (the caller's sandbox, which it drops afterwards): state roots are taken
 * between blocks, outside any checkpoint.
 *
 * Without validation the calls run like eth_call (nonces and balances unchecked, a zero base fee
 * unless overridden, gas lent); with it, like transactions from their senders (unsigned): the
 * nonce, the fee against the base fee, the intrinsic gas, the funds and the block's gas are
 * checked, and a violation ends the whole simulation with its code. A call that reverts or fails
 * in the EVM is a result (status 0x0), not an error. Numbers skipped by an override are filled
 * with empty blocks, as geth fills them.
 */
export async function simulate(vm: VM, base: SimulationBase, blocks: readonly SimulatedBlock[], options: SimulationOptions): Promise<SimulatedBlockResult[]> {
  const results: SimulatedBlockResult[] = []
  let parent = base.header
  for (const [position, spec] of blocks.entries()) {
    const number = spec.overrides.number ?? parent.number + 1n
    if (number <= parent.number) {
      throw new SimulationError(
        SimulationErrorCode.blockNumberOrder,
        `block number ${number} of blockStateCalls[${position}] is not above its parent's ${parent.number}`,
      )
    }
    // geth fills the numbers an override skips with empty blocks, each a block time later.
    while (parent.number + 1n < number) {
      const empty = await sealBlock(vm, base, parent, { time: parent.timestamp + BLOCK_TIME }, [], options)
      results.push(empty)
      parent = empty.block.header
    }
    const time = spec.overrides.time ?? parent.timestamp + BLOCK_TIME
    if (time < parent.timestamp) {
      throw new SimulationError(
        SimulationErrorCode.blockTimestampOrder,
        `block timestamp ${time} of blockStateCalls[${position}] is before its parent's ${parent.timestamp}`,
      )
    }
    if (spec.stateOverrides) await applyStateOverrides(vm, spec.stateOverrides)
    const sealed = await sealBlock(vm, base, parent, { ...spec.overrides, time }, spec.calls, options)
    results.push(sealed)
    parent = sealed.block.header
  }
  return results
}

interface RanCall {
  tx: TypedTransaction
  from: PrefixedHexString
  result: RunTxResult
  /** The call's logs in the order they happened, ETH transfers among them under traceTransfers. */
  logs: (readonly [Uint8Array, Uint8Array[], Uint8Array])[]
}

async function sealBlock(
  vm: VM,
  base: SimulationBase,
  parent: BlockHeader,
  overrides: BlockOverrides & { time: bigint },
  calls: readonly CallRequest[],
  options: SimulationOptions,
): Promise<SimulatedBlockResult> {
  const gasLimit = overrides.gasLimit ?? base.header.gasLimit
  const baseFeePerGas = overrides.baseFeePerGas ?? (options.validation ? base.baseFee : 0n)
  const fields = contextFields({
    parent,
    number: parent.number + 1n,
    timestamp: overrides.time,
    coinbase: createAddressFromString(overrides.feeRecipient ?? ZERO_ADDRESS),
    gasLimit,
    baseFeePerGas,
    // The spec's default PREVRANDAO is zero.
    prevRandao: overrides.prevRandao ?? new Uint8Array(32),
  })
  const context = createBlock({ header: fields }, { common: vm.common })

  const ran: RanCall[] = []
  const outcomes: SimulatedCallResult[] = []
  let gasUsed = 0n
  for (const request of calls) {
    const call = await runSimulatedCall(vm, context, request, gasLimit - gasUsed, base.callGasCap, options)
    gasUsed += call.result.totalGasSpent
    ran.push(call)
  }

  // Every transaction has run and committed: the state root can be read.
  const stateRoot = await vm.stateManager.getStateRoot()
  const signedBytes = ran.map(({ tx }) => tx.serialize())
  let cumulative = 0n
  const receipts = ran.map(({ tx, result }) => {
    cumulative += result.totalGasSpent
    return encodeReceipt({ ...result.receipt, cumulativeBlockGasUsed: cumulative } as typeof result.receipt, tx.type as never)
  })
  const bloom = new Bloom(undefined, vm.common)
  for (const { result } of ran) bloom.or(result.bloom)
  const header = sealedHeader(context.header, { stateRoot, transactionsTrie: orderedTrieRoot(signedBytes), receiptTrie: orderedTrieRoot(receipts), logsBloom: bloom.bitvector, gasUsed })
  const blockHash = bytesToHex(header.hash())
  let logIndex = 0
  cumulative = 0n
  const transactions = ran.map(({ tx, from, result, logs: callLogs }, index): TransactionRecord => {
    const logs = logRecords(callLogs, logIndex)
    logIndex += logs.length
    cumulative += result.totalGasSpent
    const failure = result.execResult.exceptionError
    outcomes.push(callResult(result, failure ? [] : logs))
    return {
      tx,
      hash: bytesToHex(keccak256(signedBytes[index])),
      from,
      blockNumber: header.number,
      blockHash,
      index,
      receivedAtMs: Number(header.timestamp) * 1000,
      receipt: {
        status: failure ? 0 : 1,
        gasUsed: result.totalGasSpent,
        cumulativeGasUsed: cumulative,
        effectiveGasPrice: baseFeePerGas,
        contractAddress: result.createdAddress ? result.createdAddress.toString() : null,
        logs,
        logsBloom: result.bloom.bitvector,
      },
    }
  })
  const block: BlockRecord = {
    header,
    hash: blockHash,
    number: header.number,
    transactions,
    size: blockSize(header, signedBytes),
    l1BatchNumber: 0n,
    l1BatchTimestamp: header.timestamp,
    l1BatchTxOffset: 0,
    sealsBatch: false,
    batchSealed: false,
  }
  return { block, calls: outcomes }
}

/** geth's simCallResult: the revert as code 3 with its data, another EVM failure as -32015. */
function callResult(result: RunTxResult, logs: LogRecord[]): SimulatedCallResult {
  const { exceptionError, returnValue } = result.execResult
  const outcome: SimulatedCallResult = {
    returnData: bytesToHex(returnValue),
    logs,
    gasUsed: result.totalGasSpent,
    // Before refunds: what the call needed at its peak.
    maxUsedGas: result.totalGasSpent + result.gasRefund,
    status: exceptionError ? 0 : 1,
  }
  if (exceptionError?.error === 'revert') outcome.error = new ExecutionRevertedError(decodeRevertReason(returnValue), bytesToHex(returnValue)).toJSON()
  else if (exceptionError) outcome.error = { code: -32015, message: `vm execution error: ${gethExecutionError(exceptionError.error)}` }
  return outcome
}

async function runSimulatedCall(
  vm: VM,
  context: ReturnType<typeof createBlock>,
  request: CallRequest,
  gasLeft: bigint,
  callGasCap: bigint,
  options: SimulationOptions,
): Promise<RanCall> {
  const from = (request.from ?? ZERO_ADDRESS).toLowerCase() as PrefixedHexString
  const sender = createAddressFromString(from)
  const baseFee = context.header.baseFeePerGas ?? 0n
  if (request.gas !== undefined && request.gas > gasLeft) {
    throw new SimulationError(SimulationErrorCode.blockGasLimit, `block gas limit reached: the call asks for ${request.gas} gas, the block has ${gasLeft} left`)
  }
  const gas = request.gas ?? (gasLeft < callGasCap ? gasLeft : callGasCap)
  const call = options.validation ? await validated(vm, sender, request, gas, baseFee) : request
  // runCall lends an unpriced call its gas money at the base fee (see below).
  const lent = !options.validation && !isPriced(call)

  let ran: { tx: TypedTransaction; result: RunTxResult } | undefined
  const execute = async () => {
    try {
      ran = await runCallTransaction(vm, context, call, gas, { validate: options.validation })
    } catch (error) {
      if (error instanceof GasLimitTooLowError) throw new SimulationError(SimulationErrorCode.intrinsicGas, error.message, { cause: error })
      throw error
    }
    return ran.result
  }
  let logs: RanCall['logs']
  if (options.traceTransfers) {
    const { root } = await recordCalls(vm, { onlyTopCall: false, withLog: true }, execute, gas)
    logs = root.error === undefined ? orderedLogs(root) : []
  } else {
    await execute()
    logs = ran!.result.execResult.exceptionError ? [] : ran!.result.receipt.logs
  }
  const { tx, result } = ran!
  // An unpriced call pays nothing, as geth runs it at price 0: the gas money lent at an
  // overridden base fee is taken back, refund included.
  if (lent && baseFee > 0n) await takeBackLentGas(vm, sender, (gas - result.totalGasSpent) * baseFee)
  return { tx: withZeroSignature(vm, tx, sender), from, result, logs }
}

/** The checks of validation mode, in the order a block builder makes them; the call with its nonce and fee filled in. */
async function validated(vm: VM, sender: Address, request: CallRequest, gas: bigint, baseFee: bigint): Promise<CallRequest> {
  const account = await vm.stateManager.getAccount(sender)
  const stateNonce = account?.nonce ?? 0n
  const nonce = request.nonce ?? stateNonce
  if (nonce < stateNonce) {
    throw new SimulationError(SimulationErrorCode.nonceTooLow, `nonce too low: address ${sender.toString()}, tx: ${nonce} state: ${stateNonce}`)
  }
  if (nonce > stateNonce) {
    throw new SimulationError(SimulationErrorCode.nonceTooHigh, `nonce too high: address ${sender.toString()}, tx: ${nonce} state: ${stateNonce}`)
  }
  // A call that names no fee pays the base fee (viem's simulateBlocks sends none).
  const filled: CallRequest = isPriced(request) ? { ...request, nonce } : { ...request, nonce, maxFeePerGas: baseFee, gasPrice: undefined }
  const feeCap = filled.gasPrice ?? filled.maxFeePerGas ?? 0n
  if (feeCap < baseFee) {
    throw new SimulationError(
      SimulationErrorCode.baseFeeTooLow,
      `max fee per gas less than block base fee: address ${sender.toString()}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`,
    )
  }
  const balance = account?.balance ?? 0n
  const want = gas * feeCap + (request.value ?? 0n)
  if (balance < want) {
    throw new SimulationError(
      SimulationErrorCode.insufficientFunds,
      `insufficient funds for gas * price + value: address ${sender.toString()} have ${balance} want ${want}`,
    )
  }
  return filled
}

async function takeBackLentGas(vm: VM, sender: Address, amount: bigint): Promise<void> {
  const account = (await vm.stateManager.getAccount(sender)) ?? new Account()
  account.balance = account.balance > amount ? account.balance - amount : 0n
  await vm.stateManager.putAccount(sender, account)
}

/**
 * The transaction as a block holds it: unsigned, so with a zero signature (v, r, s 0), as geth
 * puts simulated transactions in its blocks; its hash is that of these bytes.
 */
function withZeroSignature(vm: VM, tx: TypedTransaction, sender: Address): TypedTransaction {
  const zero = createTx({ ...tx.toJSON(), v: 0n, r: 0n, s: 0n }, { common: vm.common, freeze: false, ...transactionLimits(vm.common) })
  zero.getSenderAddress = () => sender
  return zero
}

/**
 * A call's logs with its ETH transfers among them (traceTransfers), in execution order: a frame's
 * transfer first, then its logs and its sub-calls' as they happened (a log's position is the
 * number of sub-calls made before it). Failed frames and everything under them left nothing.
 */
function orderedLogs(frame: CallFrame): RanCall['logs'] {
  if (frame.error !== undefined) return []
  const out: RanCall['logs'] = []
  const value = frame.value ?? 0n
  if (value > 0n && frame.kind !== 'DELEGATECALL' && frame.kind !== 'STATICCALL') {
    // CALLCODE runs another's code on the caller's own account: the value stays with it.
    out.push(transferLog(frame.from, frame.kind === 'CALLCODE' ? frame.from : frame.to, value))
  }
  const logsAt = (position: number) =>
    frame.logs.filter((log) => log.position === position).map((log) => [hexToBytes(log.address), log.topics.map((topic) => hexToBytes(topic)), log.data] as const)
  for (const [i, child] of frame.calls.entries()) {
    out.push(...logsAt(i), ...orderedLogs(child))
  }
  out.push(...logsAt(frame.calls.length))
  return out
}

/** ERC-20's Transfer(from, to, value), emitted by the ETH stand-in address. */
function transferLog(from: PrefixedHexString, to: PrefixedHexString, value: bigint): readonly [Uint8Array, Uint8Array[], Uint8Array] {
  const word = (address: PrefixedHexString) => setLengthLeft(hexToBytes(address), 32)
  return [hexToBytes(ETH_TRANSFER_ADDRESS), [hexToBytes(TRANSFER_TOPIC), word(from), word(to)], setLengthLeft(bigIntToBytes(value), 32)]
}
