import { BrowserProvider, type JsonRpcSigner } from 'ethers'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  custom,
  defineChain,
  publicActions,
  type Address,
  type Chain,
  type CustomTransport,
  type Hex,
  type JsonRpcAccount,
  type PublicActions,
  type PublicClient,
  type TestClient,
  type WalletClient,
} from 'viem'
import { zksyncInMemoryNode } from 'viem/chains'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { startNode, type PageNode } from '../client/startNode.ts'
import type { PagenodeProvider } from '../client/provider.ts'
import type { Limits, MiningConfig } from '../core/index.ts'
import { isolateTests, type Isolation } from './isolation.ts'

export interface TestChainOptions {
  /** Keep the chain in IndexedDB (a database of its own, deleted at the end) rather than in memory. */
  persist?: boolean
  chainId?: number
  /** How blocks are produced at the start of every test (automine by default). */
  mining?: MiningConfig
  /** Bytes of deployed code a contract may have (EIP-170: 24,576); false: no limit, initcode included. */
  codeSizeLimit?: number | false
  /** Hardhat's throwOnTransactionFailures: under automine, a failing transaction's send is an error (it is mined all the same). */
  throwOnTransactionFailures?: boolean
  /** The node's limits (startNode's `limits`). */
  limits?: Partial<Limits>
  /** Announce the provider through EIP-6963 too (for code that discovers wallets, like wagmi). */
  announce?: boolean
  /** Revert to a snapshot after each test (default true). */
  isolate?: boolean
}

export interface TestChain {
  readonly node: PageNode
  /** The EIP-1193 provider of the chain. */
  readonly provider: PagenodeProvider
  /** The dev accounts (the node signs for them), lowercase. */
  readonly accounts: readonly Address[]
  /** The viem chain: viem's zksyncInMemoryNode for chain 260, else one defined for the id. */
  readonly chain: Chain
  readonly publicClient: PublicClient<CustomTransport, Chain>
  /** A wallet client for the first dev account (a JSON-RPC account: the node signs). */
  readonly walletClient: DevWalletClient
  /** viem's test client (anvil mode) with the public actions. */
  readonly testClient: DevTestClient
  /** ethers' BrowserProvider on the chain. */
  readonly ethersProvider: BrowserProvider
  /** A wallet client for dev account `index`. */
  wallet(index: number): DevWalletClient
  /** ethers' signer for dev account `index`. */
  signer(index?: number): Promise<JsonRpcSigner>
  /** Sends a request to the node. */
  request<T = unknown>(method: string, ...params: unknown[]): Promise<T>
  /** Stops the node (and deletes its database when persisted). */
  stop(): Promise<void>
}

// Client types written out: what the declarations ship must not depend on viem's internal paths.
/** A viem wallet client for a dev account (a JSON-RPC account: the node signs). */
export type DevWalletClient = WalletClient<CustomTransport, Chain, JsonRpcAccount>
/** viem's test client in anvil mode, with the public actions. */
export type DevTestClient = TestClient<'anvil', CustomTransport, Chain> & PublicActions<CustomTransport, Chain>

function walletFor(account: Address, chain: Chain, transport: CustomTransport): DevWalletClient {
  return createWalletClient({ account, chain, transport, pollingInterval: 50 })
}

function publicFor(chain: Chain, transport: CustomTransport): PublicClient<CustomTransport, Chain> {
  return createPublicClient({ chain, transport, pollingInterval: 50 })
}

function createTestClientFor(chain: Chain, provider: PagenodeProvider): DevTestClient {
  return createTestClient({ chain, mode: 'anvil', transport: custom(provider), pollingInterval: 50 }).extend(publicActions)
}

/** Starts a chain for tests, outside of any test runner's hooks; `useChain` is the Vitest way. */
export async function startTestChain(options: TestChainOptions = {}): Promise<TestChain> {
  const name = `pagenode-test-${crypto.randomUUID()}`
  const persist = options.persist ?? false
  const node = await startNode({
    name,
    persist,
    chainId: options.chainId,
    mining: options.mining,
    codeSizeLimit: options.codeSizeLimit,
    throwOnTransactionFailures: options.throwOnTransactionFailures,
    limits: options.limits,
    announce: options.announce ?? false,
    // No HTTP endpoint: a service worker is per origin, shared by every test file of the run.
    serviceWorker: false,
  })
  const provider = node.provider
  const request = <T>(method: string, ...params: unknown[]) => provider.request({ method, params }) as Promise<T>
  const chainId = Number(await request<Hex>('eth_chainId'))
  const chain = chainId === zksyncInMemoryNode.id ? zksyncInMemoryNode : defineChain({
    id: chainId,
    name: 'pagenode',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [] } },
  })
  const accounts = (await request<Address[]>('eth_accounts')).slice()
  const transport = custom(provider)
  const wallet = (index: number) => walletFor(accounts[index], chain, transport)
  const ethersProvider = new BrowserProvider(provider, chainId, { pollingInterval: 50, cacheTimeout: -1 })
  return {
    node,
    provider,
    accounts,
    chain,
    publicClient: publicFor(chain, transport),
    walletClient: wallet(0),
    testClient: createTestClientFor(chain, provider),
    ethersProvider,
    wallet,
    signer: (index = 0) => ethersProvider.getSigner(index),
    request,
    async stop() {
      await node.stop()
      if (persist) await deleteDatabase(name)
    },
  }
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const deletion = indexedDB.deleteDatabase(name)
    // Blocked by a connection that lingers after the worker ended: it completes later, unwaited.
    deletion.onsuccess = deletion.onerror = deletion.onblocked = () => resolve()
  })
}

/**
 * A chain for the test file (or `describe` block) it is called in: started in beforeAll, stopped
 * in afterAll, and — unless `isolate` is false — a snapshot taken before each test and reverted
 * after it, with the node's settings a test may change (mining mode, impersonations, gas limit,
 * minimum gas price) put back too. Read its fields inside tests and hooks: they exist once
 * beforeAll ran.
 */
export function useChain(options: TestChainOptions = {}): TestChain {
  let current: TestChain | undefined
  let isolation: Isolation | undefined
  beforeAll(async () => {
    current = await startTestChain(options)
  })
  afterAll(async () => {
    await current?.stop()
    current = undefined
  })
  if (options.isolate ?? true) {
    beforeEach(async () => {
      isolation = await isolateTests(chainOf(), options.mining ?? { mode: 'auto' })
    })
    afterEach(async () => {
      await isolation?.restore()
      isolation = undefined
    })
  }
  const chainOf = (): TestChain => {
    if (!current) throw new Error('useChain(): the chain starts in beforeAll; use it inside tests and hooks, not at the top level of the file')
    return current
  }
  return new Proxy({} as TestChain, {
    get: (_, key) => Reflect.get(chainOf(), key),
  })
}
