import { ContractFactory, JsonRpcApiProvider, Wallet, type Contract, type InterfaceAbi } from 'ethers'
import { BrowserProvider } from 'ethers'
import { afterEach } from 'vitest'
import type { NodeConfig } from '../../src/core/index.ts'
import { createNode, type Node } from '../../src/core/node.ts'
import artifacts from '../contracts/artifacts.json' with { type: 'json' }
import { DEV_ACCOUNTS, GAS_PRICE } from './accounts.ts'

export { artifacts }

export { GAS_PRICE }

/** The first three dev accounts: the senders of the Node.js tests. */
export const DEV = [DEV_ACCOUNTS[0], DEV_ACCOUNTS[1], DEV_ACCOUNTS[2]] as const

/** An EIP-1193 provider over a core node, as the page's provider will be. */
export function eip1193(node: Node) {
  return { request: (args: { method: string; params?: unknown }) => node.request(args) }
}

const started: Node[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((node) => node.close()))
})

/**
 * A fresh node, closed after the test that started it (in the test or in a beforeEach), so a
 * test file needs no afterEach of its own. `shared`: a node for a whole file, started in
 * beforeAll, which the file closes in its afterAll.
 */
export async function startNode(config: NodeConfig = {}, { shared = false } = {}): Promise<Node> {
  const node = await createNode(config)
  if (!shared) started.push(node)
  return node
}

/** Shorthand for `node.request({ method, params })`. */
export function rpc(node: Node) {
  return <T = unknown>(method: string, ...params: unknown[]) => node.request({ method, params }) as Promise<T>
}

/** An ethers wallet for dev account `index`, talking to the node through EIP-1193. */
export function devWallet(node: Node, index = 0): Wallet {
  const provider: JsonRpcApiProvider = new BrowserProvider(eip1193(node), undefined, { pollingInterval: 10, cacheTimeout: -1 })
  return new Wallet(DEV[index].key, provider)
}

/** Deploys a fixture contract with ethers and returns it connected to `wallet`. */
export async function deploy(wallet: Wallet, name: keyof typeof artifacts, ...args: unknown[]) {
  const artifact = artifacts[name] as { abi: InterfaceAbi; bytecode: string }
  const factory = new ContractFactory(artifact.abi, artifact.bytecode, wallet)
  const contract = await factory.deploy(...args)
  await contract.waitForDeployment()
  return contract
}

/**
 * A fresh node (closed after the test) with the Probe fixture deployed by dev account 0: the node,
 * its `rpc`, the contract, and its address in lowercase.
 */
export async function withProbe(config: NodeConfig = {}) {
  const node = await startNode(config)
  const probe = (await deploy(devWallet(node), 'Probe')) as Contract
  return { node, call: rpc(node), probe, address: (await probe.getAddress()).toLowerCase() }
}

/**
 * Mines one block from the pool of a manual-mining node (the miner driven directly, as evm_mine
 * does): the way to get several transactions into one block.
 */
export function mineBlock(node: Node) {
  return node.miner.mine()
}
