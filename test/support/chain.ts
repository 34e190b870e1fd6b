import { ContractFactory, JsonRpcApiProvider, Wallet, type Contract, type InterfaceAbi } from 'ethers'
import { BrowserProvider } from 'ethers'
import { afterEach } from 'vitest'
import type { NodeConfig } from '../../src/core/index.ts'
import { createNode, type Node } from '../../src/core/node.ts'
import artifacts from '../contracts/artifacts.json' with { type: 'json' }

export { artifacts }

/** The first dev accounts of the `test … junk` mnemonic (public keys of a dev chain). */
export const DEV = [
  { address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', key: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' },
  { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', key: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' },
  { address: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', key: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a' },
] as const

/** The L2 gas price of the dev chain, also every block's base fee. */
export const GAS_PRICE = 45_250_000n

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
