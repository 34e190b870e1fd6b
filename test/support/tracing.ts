import { Contract, ContractFactory, Interface, type ContractTransactionResponse, type InterfaceAbi, type TransactionRequest } from 'ethers'
import type { NodeConfig } from '../../src/core/index.ts'
import { artifacts, deploy, devWallet, rpc, startNode } from './chain.ts'

export const leafAbi = new Interface(artifacts.Leaf.abi)
export const tracingAbi = new Interface(artifacts.Tracing.abi)

export interface Receipt {
  transactionHash: string
  transactionIndex: string
  blockNumber: string
  blockHash: string
  gasUsed: string
  status: string
  contractAddress: string | null
  logs: { address: string; topics: string[]; data: string }[]
}

export interface MinedTx {
  hash: string
  /** The transaction as the node reports it (eth_getTransactionByHash). */
  tx: { gas: string; input: string; value: string; from: string; to: string | null }
  receipt: Receipt
}

/**
 * A node with the Tracing and Leaf fixtures deployed, and helpers to send and look up. Under
 * manual mining each deployment is mined into a block of its own.
 */
export async function tracingChain(config: NodeConfig = {}) {
  const node = await startNode(config)
  const call = rpc(node)
  const wallet = devWallet(node)
  const deployFixture = async (name: 'Leaf' | 'Tracing') => {
    if (config.mining?.mode !== 'manual') return (await deploy(wallet, name)) as Contract
    const { abi, bytecode } = artifacts[name] as { abi: InterfaceAbi; bytecode: string }
    const contract = await new ContractFactory(abi, bytecode, wallet).deploy()
    await node.miner.mine()
    await contract.waitForDeployment()
    return contract as Contract
  }
  const leaf = await deployFixture('Leaf')
  const tracing = await deployFixture('Tracing')
  const leafAddress = (await leaf.getAddress()).toLowerCase()
  const tracingAddress = (await tracing.getAddress()).toLowerCase()

  const mined = async (hash: string): Promise<MinedTx> => ({
    hash,
    tx: await call('eth_getTransactionByHash', hash),
    receipt: await call('eth_getTransactionReceipt', hash),
  })

  /** Sends a contract call and waits for its receipt (throws if it failed). */
  const send = async (sent: Promise<ContractTransactionResponse>): Promise<MinedTx> => {
    const response = await sent
    await response.wait()
    return mined(response.hash)
  }

  /** Sends a raw request with a fixed gas limit (no estimate), for transactions that fail. */
  const sendRaw = async (request: TransactionRequest): Promise<MinedTx> => {
    const response = await wallet.sendTransaction({ gasLimit: 500_000, ...request })
    return mined(response.hash)
  }

  return { node, call, wallet, leaf, tracing, leafAddress, tracingAddress, send, sendRaw, mined }
}

export type TracingChain = Awaited<ReturnType<typeof tracingChain>>

/** Hex of a quantity as the node prints it. */
export const hex = (value: bigint | number) => `0x${value.toString(16)}`

export const word = (value: bigint | number) => `0x${value.toString(16).padStart(64, '0')}`
