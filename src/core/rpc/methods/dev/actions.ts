import { bigIntToHex, createAddressFromString, hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { mineBlocks, checkNextTimestamp } from '../../../dev/mining.ts'
import { revertToSnapshot, takeSnapshot } from '../../../dev/snapshots.ts'
import { setBalance, setCode, setNonce, setStorageAt } from '../../../dev/stateEdits.ts'
import type { Node } from '../../../node.ts'
import { parseMineOptions, parseResetOptions, parseSnapshotId, parseUpstreamUrl, uint, word } from '../../devParams.ts'
import { InvalidParamsError, ServerError } from '../../../errors.ts'
import { address, boolean, custom, data, hash, optional } from '../../params.ts'
import { action } from './action.ts'

/**
 * The dev-node operations (docs/methods.md, "Dev-node methods"), each once; evm.ts, anvil.ts and
 * hardhat.ts serve them under their names.
 */

// ---- state edits (dev/stateEdits.ts: at once, no block, stored before the answer) ----

export const setBalanceAction = action([address('address'), uint('balance')], (node, [who, balance]) => setBalance(node, who, balance))
export const setNonceAction = action([address('address'), uint('nonce')], (node, [who, nonce]) => setNonce(node, who, nonce))
export const setCodeAction = action([address('address'), data('code')], (node, [who, code]) => setCode(node, who, code))
export const setStorageAtAction = action([address('address'), word('slot'), word('value')], (node, [who, slot, value]) =>
  setStorageAt(node, who, slot, value),
)
// The state dump's code, and the reset's, load on first use (core/onDemand.ts: a lazy chunk in the worker's bundle).
const onDemand = () => import('../../../onDemand.ts')
export const dumpStateAction = action([], async (node) => (await onDemand()).dumpState(node))
export const loadStateAction = action([data('state')], async (node, [state]) => {
  await (await onDemand()).loadState(node, state)
  return true
})

// ---- snapshots and reset ----

export const snapshotAction = action([], async (node) => bigIntToHex(await takeSnapshot(node)))
/** true once reverted; false for an id never taken or already used up, as Hardhat, anvil and ganache answer. */
export const revertAction = action([custom('id', parseSnapshotId)], (node, [id]) => revertToSnapshot(node, id))
export const resetAction = action([optional(custom('options', parseResetOptions))], async (node, [forking]) => (await onDemand()).resetChain(node, forking))
/** anvil_setRpcUrl: the fork's upstream is fetched from another URL (the same chain) from now on. */
export const setRpcUrlAction = action([custom('url', parseUpstreamUrl)], async (node, [url]) => (await onDemand()).setUpstreamUrl(node, url))

// ---- mining ----

/** evm_mine: one block (or anvil's {blocks}), the first at the timestamp given; answers "0x0". */
export const evmMineAction = action([optional(custom('options', parseMineOptions), {})], async (node, [{ timestamp, blocks }]) => {
  await mineBlocks(node, { blocks: blocks ?? 1n, timestamp })
  return '0x0'
})
/** anvil_mine / hardhat_mine: `blocks` blocks (1 by default), `interval` seconds apart. */
export const mineAction = action([optional(uint('blocks'), 1n), optional(uint('interval'))], (node, [blocks, interval]) =>
  mineBlocks(node, { blocks, interval: interval || undefined }),
)
export const setAutomineAction = action([boolean('enabled')], (node, [enabled]) => node.mining.setAutomine(enabled))
export const getAutomineAction = action([], (node) => node.mining.automine)

// ---- logging ----

/** Switches request logging (the CLI's request log: Pagenode.loggingEnabled). */
export const setLoggingEnabledAction = action([boolean('enabled')], (node, [enabled]) => {
  node.loggingEnabled = enabled
})
/** Seconds, as anvil (and viem's anvil mode) send it; 0 stops interval mining. */
export const setIntervalMiningAction = action([uint('interval')], (node, [seconds]) => {
  if (seconds > 2n ** 31n / 1000n) throw new InvalidParamsError(`invalid argument 0 (interval): ${seconds} seconds is too long an interval`)
  node.mining.setInterval(Number(seconds) * 1000)
})

// ---- time ----

/** Moves the clock; answers the total offset in seconds. */
export const increaseTimeAction = action([uint('seconds')], (node, [seconds]) => Number(node.clock.increase(seconds)))
export const setNextBlockTimestampAction = action([uint('timestamp')], (node, [timestamp]) => {
  checkNextTimestamp(node, timestamp)
  node.clock.nextOverride = timestamp
  return null
})
/** Sets the clock; answers how many seconds it moved. */
export const setTimeAction = action([uint('timestamp')], (node, [timestamp]) => Number(node.clock.setTime(timestamp)))
/** anvil's takes seconds; hardhat_setBlockTimestampInterval milliseconds (what viem's hardhat mode sends). */
export function setBlockTimestampIntervalAction(unit: 'seconds' | 'milliseconds') {
  return action([uint('interval')], (node, [interval]) => {
    if (unit === 'seconds') {
      node.clock.interval = interval
      return
    }
    if (interval % 1000n !== 0n) {
      throw new InvalidParamsError(`invalid argument 0 (interval): ${interval} ms is not a whole number of seconds (block timestamps are in seconds)`)
    }
    node.clock.interval = interval / 1000n
  })
}
export const removeBlockTimestampIntervalAction = action([], (node) => {
  const had = node.clock.interval !== undefined
  node.clock.interval = undefined
  return had
})

// ---- the next block ----

export const setBlockGasLimitAction = action([uint('gasLimit')], (node, [gasLimit]) => {
  if (gasLimit === 0n) throw new InvalidParamsError('invalid argument 0 (gasLimit): the block gas limit must be greater than 0')
  node.params.gasLimit = gasLimit
  return true
})
export const setNextBlockBaseFeePerGasAction = action([uint('baseFeePerGas')], (node, [fee]) => {
  node.params.nextBaseFee = fee
})
export const setMinGasPriceAction = action([uint('gasPrice')], (node, [price]) => {
  node.params.minGasPrice = price
})
export const setCoinbaseAction = action([address('address')], (node, [coinbase]) => {
  node.params.coinbase = createAddressFromString(coinbase)
})
/** The next block's PREVRANDAO: 32 bytes exactly, as Hardhat takes it. */
export const setPrevRandaoAction = action([hash('prevRandao')], (node, [prevRandao]) => {
  node.params.nextPrevRandao = hexToBytes(prevRandao)
})

// ---- impersonation ----

export const impersonateAction = action([address('address')], (node, [who]) => node.impersonation.start(who))
export const stopImpersonatingAction = action([address('address')], (node, [who]) => node.impersonation.stop(who))
export const autoImpersonateAction = action([boolean('enabled')], (node, [enabled]) => {
  node.impersonation.auto = enabled
})

// ---- the pool ----

/** Removes a pooled transaction; answers its hash, or null when the pool does not hold it (anvil). */
export const dropTransactionAction = action([hash('transactionHash')], (node, [txHash]) => dropTransaction(node, txHash))
/** Hardhat's: true when removed, false when unknown, an error for a mined one. */
export const hardhatDropTransactionAction = action([hash('transactionHash')], (node, [txHash]) => {
  if (node.chain.transaction(txHash)) throw new ServerError(`transaction ${txHash} cannot be dropped because it is already mined`)
  return dropTransaction(node, txHash) !== null
})
export const dropAllTransactionsAction = action([], (node) => node.pool.clear())

function dropTransaction(node: Node, txHash: PrefixedHexString): PrefixedHexString | null {
  return node.pool.remove(txHash)?.hash ?? null
}

// ---- about the node ----

export const nodeInfoAction = action([], (node) => {
  const head = node.chain.head
  const number = (value: bigint) => (value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : bigIntToHex(value))
  return {
    currentBlockNumber: number(head.number),
    currentBlockTimestamp: number(head.header.timestamp),
    currentBlockHash: head.hash,
    hardFork: node.common.hardfork(),
    transactionOrder: 'fifo',
    environment: {
      baseFee: number(node.params.baseFee()),
      chainId: node.config.chainId,
      gasLimit: number(node.params.gasLimit),
      gasPrice: number(node.params.gasPrice()),
    },
    // anvil's shape; the URL as given (the caller's own endpoint, its key included).
    forkConfig: node.fork
      ? { forkUrl: node.fork.point.url, forkBlockNumber: number(node.fork.point.blockNumber), forkRetryBackoff: null }
      : { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
  }
})
