/**
 * The node as `pagenode/core` hands it out: what a caller uses (requests, JSON-RPC envelopes,
 * events, close) and nothing of the machinery behind it (chain, miner, pool, store), so those can
 * change without breaking anyone. The CLI uses only this too.
 */
import { bytesToHex } from './hexText.ts'
import type { NodeConfig } from './config.ts'
import { createNode as openNode, type ConsoleOutput, type RequestArguments } from './node.ts'
import type { JsonRpcResponse } from './rpc/envelope.ts'
import { RpcSession } from './rpc/session.ts'

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

/** An eth_subscribe notification, as EIP-1193's `message` event carries it. */
export interface SubscriptionNotification {
  type: 'eth_subscription'
  data: { subscription: Hex; result: unknown }
}

export interface PagenodeEvents {
  /** A block was mined and stored. */
  block: (block: MinedBlock) => void
  /** A transaction entered the pool. */
  pendingTransaction: (hash: Hex) => void
  /** A notification of a subscription made with `request({ method: 'eth_subscribe' })`. */
  message: (message: SubscriptionNotification) => void
  /** What console.log (Hardhat's console.sol) printed in a mined transaction or a call. */
  consoleLog: (output: ConsoleLogOutput) => void
}

/**
 * console.log output of one execution, a line per call, formatted as Hardhat prints them: a mined
 * transaction's (told once its block is stored), or a call's (`eth_call`, `debug_traceCall`; not
 * `eth_estimateGas`'s, as in Hardhat).
 */
export type ConsoleLogOutput = ConsoleOutput

/**
 * A caller with subscriptions of its own (a WebSocket connection): its eth_subscribe
 * notifications go to the function that opened it, and end with `close()`.
 */
export interface PagenodeSession {
  /** As `Pagenode.request`, eth_subscribe and eth_unsubscribe included. */
  request(args: RequestArguments): Promise<unknown>
  /** A JSON-RPC request or batch as text, with the node's limits; undefined for notifications only. */
  handleText(text: string): Promise<string | undefined>
  /** Ends the session's subscriptions. */
  close(): void
}

/** What a forked chain forked (`Pagenode.fork`). */
export interface ForkInfo {
  /** The upstream's URL, as given. */
  url: string
  /** The block forked at: the local chain's state starts from the upstream's after it. */
  blockNumber: bigint
}

export interface Pagenode {
  readonly chainId: number
  /** What this chain forked, if it is a fork (the `fork` option, a stored fork, anvil_reset). */
  readonly fork: ForkInfo | undefined
  /** The dev accounts: `eth_accounts`, with their keys. */
  readonly accounts: readonly DevAccountKey[]
  /**
   * Whether requests should be logged: the `logging` option, switched by anvil_setLoggingEnabled
   * and hardhat_setLoggingEnabled (viem's setLoggingEnabled). The CLI prints its request log
   * while it is on.
   */
  readonly loggingEnabled: boolean
  /**
   * EIP-1193 style: resolves with the result, or rejects with an RpcError (code, message, data).
   * eth_subscribe works here: its notifications are `message` events.
   */
  request(args: RequestArguments): Promise<unknown>
  /**
   * A JSON-RPC request or batch as parsed JSON; undefined for notifications only. `pathMethod`:
   * the method an HTTP path names. This is the HTTP envelope: no eth_subscribe (see openSession).
   */
  handle(body: unknown, pathMethod?: string): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>
  /** The same from and to JSON text, with the size and parse checks an HTTP server needs. */
  handleText(text: string, pathMethod?: string): Promise<string | undefined>
  /** Listens to an event; returns the function that stops listening. */
  on<K extends keyof PagenodeEvents>(event: K, listener: PagenodeEvents[K]): () => void
  /** A caller with subscriptions of its own, for a transport that can push (a WebSocket server). */
  openSession(onMessage: (message: SubscriptionNotification) => void): PagenodeSession
  /** Waits for a block being stored, then closes the store. Later requests fail. */
  close(): Promise<void>
}

/** Starts a node: a new chain, or the one `options.store` holds. */
export async function createNode(options: NodeConfig = {}): Promise<Pagenode> {
  const node = await openNode(options)
  const accounts = node.accounts.map(({ address, privateKey }) => ({ address: address.toString() as Hex, privateKey: bytesToHex(privateKey) as Hex }))
  const sessions = new Set<RpcSession>()
  const openSession = (onMessage: (message: SubscriptionNotification) => void) => {
    const session = new RpcSession(node, ({ subscription, result }) => onMessage({ type: 'eth_subscription', data: { subscription, result } }))
    sessions.add(session)
    return session
  }
  // request()'s own subscriptions: their notifications are `message` events.
  const messageListeners = new Set<PagenodeEvents['message']>()
  const own = openSession((message) => {
    for (const listener of [...messageListeners]) listener(message)
  })
  return {
    chainId: node.config.chainId,
    get fork() {
      const point = node.fork?.point
      return point && { url: point.url, blockNumber: point.blockNumber }
    },
    accounts,
    get loggingEnabled() {
      return node.loggingEnabled
    },
    request: (args) => own.request(args),
    handle: (body, pathMethod) => node.handle(body, pathMethod),
    handleText: (text, pathMethod) => node.handleText(text, pathMethod),
    openSession(onMessage) {
      const session = openSession(onMessage)
      return {
        request: (args) => session.request(args),
        handleText: (text) => session.handleText(text),
        close() {
          session.close()
          sessions.delete(session)
        },
      }
    },
    on(event, listener) {
      if (event === 'pendingTransaction') return node.on('pendingTransaction', listener as PagenodeEvents['pendingTransaction'])
      if (event === 'consoleLog') return node.on('consoleLog', listener as PagenodeEvents['consoleLog'])
      if (event === 'message') {
        const onMessage = listener as PagenodeEvents['message']
        messageListeners.add(onMessage)
        return () => messageListeners.delete(onMessage)
      }
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
    close() {
      for (const session of sessions) session.close()
      sessions.clear()
      return node.close()
    },
  }
}
