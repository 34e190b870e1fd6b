/**
 * The node as `pagenode/core` hands it out: what a caller uses (requests, JSON-RPC envelopes,
 * events, close) and nothing of the machinery behind it (chain, miner, pool, store), so those can
 * change without breaking anyone. The CLI uses only this too.
 */
import { bytesToHex } from './hexText.ts'
import type { NodeConfig } from './config.ts'
import { createNode as openNode, type RequestArguments } from './node.ts'
import type { JsonRpcResponse } from './rpc/envelope.ts'

type Hex = `0x${string}`

/** A dev account the node holds the key of (the keys are public: a dev chain only). */
export interface DevAccountKey {
  /** Lowercase, 0x-prefixed. */
  address: Hex
  privateKey: Hex
}

/** A block the node mined, as its `block` event tells it. */
export interface MinedBlock {
  number: bigint
  hash: Hex
  /** Seconds since the epoch. */
  timestamp: bigint
  transactions: Hex[]
}

export interface PagenodeEvents {
  /** A block was mined and stored. */
  block: (block: MinedBlock) => void
  /** A transaction entered the pool. */
  pendingTransaction: (hash: Hex) => void
}

export interface Pagenode {
  readonly chainId: number
  /** The dev accounts: `eth_accounts`, with their keys. */
  readonly accounts: readonly DevAccountKey[]
  /**
   * Whether requests should be logged: the `logging` option, switched by anvil_setLoggingEnabled
   * and hardhat_setLoggingEnabled (viem's setLoggingEnabled). The CLI prints its request log
   * while it is on.
   */
  readonly loggingEnabled: boolean
  /** EIP-1193 style: resolves with the result, or rejects with an RpcError (code, message, data). */
  request(args: RequestArguments): Promise<unknown>
  /** A JSON-RPC request or batch as parsed JSON; undefined for notifications only. `pathMethod`: the method an HTTP path names. */
  handle(body: unknown, pathMethod?: string): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>
  /** The same from and to JSON text, with the size and parse checks an HTTP server needs. */
  handleText(text: string, pathMethod?: string): Promise<string | undefined>
  /** Listens to an event; returns the function that stops listening. */
  on<K extends keyof PagenodeEvents>(event: K, listener: PagenodeEvents[K]): () => void
  /** Waits for a block being stored, then closes the store. Later requests fail. */
  close(): Promise<void>
}

/** Starts a node: a new chain, or the one `options.store` holds. */
export async function createNode(options: NodeConfig = {}): Promise<Pagenode> {
  const node = await openNode(options)
  const accounts = node.accounts.map(({ address, privateKey }) => ({ address: address.toString() as Hex, privateKey: bytesToHex(privateKey) as Hex }))
  return {
    chainId: node.config.chainId,
    accounts,
    get loggingEnabled() {
      return node.loggingEnabled
    },
    request: (args) => node.request(args),
    handle: (body, pathMethod) => node.handle(body, pathMethod),
    handleText: (text, pathMethod) => node.handleText(text, pathMethod),
    on(event, listener) {
      if (event === 'pendingTransaction') return node.on('pendingTransaction', listener as PagenodeEvents['pendingTransaction'])
      const onBlock = listener as PagenodeEvents['block']
      return node.on('block', (block) =>
        onBlock({
          number: block.number,
          hash: block.hash,
          timestamp: block.header.timestamp,
          transactions: block.transactions.map((transaction) => transaction.hash),
        }),
      )
    },
    close: () => node.close(),
  }
}
