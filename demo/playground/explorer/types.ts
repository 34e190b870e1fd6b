/**
 * The JSON-RPC shapes the explorer reads, as the node returns them (hex quantities, ZKsync's
 * extra fields). Only the fields the explorer shows are named.
 */
import type { Hex } from '../session.ts'

export interface RpcTransaction {
  hash: Hex
  nonce: Hex
  blockHash: Hex | null
  blockNumber: Hex | null
  transactionIndex: Hex | null
  from: Hex
  to: Hex | null
  value: Hex
  gas: Hex
  gasPrice?: Hex
  maxFeePerGas?: Hex
  maxPriorityFeePerGas?: Hex
  input: Hex
  type: Hex
  l1BatchNumber?: Hex | null
}

export interface RpcBlock<T = Hex | RpcTransaction> {
  hash: Hex
  parentHash: Hex
  number: Hex
  timestamp: Hex
  miner: Hex
  stateRoot: Hex
  transactionsRoot: Hex
  receiptsRoot: Hex
  gasUsed: Hex
  gasLimit: Hex
  baseFeePerGas?: Hex
  size: Hex
  l1BatchNumber?: Hex | null
  transactions: T[]
}

export type FullBlock = RpcBlock<RpcTransaction>

export interface RpcLog {
  address: Hex
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  blockHash: Hex
  transactionHash: Hex
  transactionIndex: Hex
  logIndex: Hex
  removed?: boolean
}

export interface RpcReceipt {
  transactionHash: Hex
  blockNumber: Hex
  blockHash: Hex
  from: Hex
  to: Hex | null
  contractAddress: Hex | null
  gasUsed: Hex
  cumulativeGasUsed: Hex
  effectiveGasPrice: Hex
  status: Hex
  logs: RpcLog[]
  l2ToL1Logs?: unknown[]
  l1BatchNumber?: Hex | null
}

/** zks_getTransactionDetails */
export interface TransactionDetails {
  isL1Originated: boolean
  status: string
  fee: Hex
  gasPerPubdata: Hex
  initiatorAddress: Hex
  receivedAt: string
  ethCommitTxHash: Hex | null
  ethProveTxHash: Hex | null
  ethExecuteTxHash: Hex | null
}

/** zks_getL1BatchDetails (plain numbers, as ZKsync answers) */
export interface BatchDetails {
  number: number
  timestamp: number
  l1TxCount: number
  l2TxCount: number
  rootHash: Hex | null
  status: string
  commitTxHash: Hex | null
  committedAt: string | null
  proveTxHash: Hex | null
  provenAt: string | null
  executeTxHash: Hex | null
  executedAt: string | null
  l1GasPrice: number
  l2FairGasPrice: number
  fairPubdataPrice?: number
}
