/**
 * The faucet token on this chain: deployed once per chain and remembered in localStorage under
 * the chain id and genesis hash (another chain, or the same name reset to a new genesis, gets its
 * own); deployed again when the remembered address no longer holds the token's code (a reset or
 * a revert in the playground took it away).
 */
import type { Address, Hash, Hex } from 'viem'
import { FAUCET_TOKEN_RUNTIME } from './faucetToken.artifact.ts'

export interface Deployment {
  address: Address
  /** The block it was deployed in: where its Transfer history starts. */
  block: bigint
}

const storageKey = (chainId: number, genesis: Hash) => `pagenode-dapp:faucet-token:${chainId}:${genesis}`

function remembered(key: string): Deployment | undefined {
  try {
    const saved = JSON.parse(localStorage.getItem(key) ?? 'null') as { address?: Address; block?: string } | null
    return saved?.address && saved.block ? { address: saved.address, block: BigInt(saved.block) } : undefined
  } catch {
    return undefined
  }
}

/** The reads this needs (a viem public client has them). */
export interface ChainReader {
  getChainId(): Promise<number>
  getBlock(args: { blockNumber: bigint }): Promise<{ hash: Hash | null }>
  getCode(args: { address: Address }): Promise<Hex | undefined>
  waitForTransactionReceipt(args: { hash: Hash }): Promise<{ status: 'success' | 'reverted'; contractAddress?: Address | null; blockNumber: bigint }>
}

/**
 * The token's deployment on this chain, deploying it (`deploy` sends the creation transaction)
 * when there is none. `onDeploying` hears the deployment's transaction hash before it is mined.
 */
export async function ensureToken(client: ChainReader, deploy: () => Promise<Hash>, onDeploying: (hash: Hash) => void): Promise<Deployment & { deployedNow: boolean }> {
  const [chainId, genesis] = await Promise.all([client.getChainId(), client.getBlock({ blockNumber: 0n })])
  if (!genesis.hash) throw new Error('the node has no genesis block hash')
  const key = storageKey(chainId, genesis.hash)
  const known = remembered(key)
  if (known && (await client.getCode({ address: known.address })) === FAUCET_TOKEN_RUNTIME) return { ...known, deployedNow: false }

  const hash = await deploy()
  onDeploying(hash)
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`the token's deployment ${hash} failed`)
  const deployment = { address: receipt.contractAddress, block: receipt.blockNumber }
  localStorage.setItem(key, JSON.stringify({ address: deployment.address, block: String(deployment.block) }))
  return { ...deployment, deployedNow: true }
}
