/**
 * What the page, its node worker and the other tabs' workers say to each other. Errors travel as
 * values ({ok: false, error}) rather than as thrown exceptions: an EIP-1193 error must arrive with
 * its code and data (revert bytes) intact, and structured clone keeps only an Error's message.
 *
 * Two channels between a page and its node worker, no library: control messages on the worker
 * itself (start, stop, the worker's events: `ToWorker`/`FromWorker`), and the page's JSON-RPC
 * calls on a MessagePort of their own (requestPort.ts), where every microsecond is latency.
 */
import type { ConsoleOutput } from '../core/node.ts'
import type { ForkConfig, Limits, MiningConfig } from '../core/config.ts'
import type { RequesterWire, ResponderWire } from './reliableChannel.ts'

export type Durability = 'relaxed' | 'strict'

/** Options a page passes to its worker (the serialisable part of startNode's options). */
export interface WorkerOptions {
  name: string
  persist: boolean
  chainId?: number
  /** The chain to fork (NodeConfig.fork); a persisted chain that is a fork continues without it. */
  fork?: ForkConfig
  /** Bytes of deployed code a contract may have; false: no limit (NodeConfig.codeSizeLimit). */
  codeSizeLimit?: number | false
  /** Hardhat's throwOnTransactionFailures: under automine, a failing transaction's send is an error (it is mined all the same). */
  throwOnTransactionFailures?: boolean
  mining?: MiningConfig
  /** The node's limits (NodeConfig.limits): those given, the rest the defaults. */
  limits?: Partial<Limits>
  durability: Durability
  /** Whether the leader answers the service worker's HTTP requests for this chain. */
  http?: boolean
}

export type Role = 'leader' | 'follower'

export interface NodeInfo {
  role: Role
  chainId: string
  accounts: string[]
}

export interface RpcFailure {
  code: number
  message: string
  data?: unknown
}

export type Outcome = { ok: true; result: unknown } | { ok: false; error: RpcFailure }

/** Pushed from the worker to its page. */
export type WorkerEvent =
  | { type: 'subscription'; subscription: string; result: unknown }
  | { type: 'role'; role: Role }
  /** eth_accounts changed (an address impersonated or no longer): the provider's accountsChanged. */
  | { type: 'accounts'; accounts: string[] }
  /** What console.log printed in a transaction or a call: the provider's consoleLog. */
  | { type: 'consoleLog'; output: ConsoleOutput }

/**
 * Page → node worker. `start` starts (or joins, as a follower) the chain `options.name`; `requests`
 * carries the page's calls, answered from then on (those sent meanwhile wait for the node).
 */
export type ToWorker = { type: 'start'; options: WorkerOptions; requests: MessagePort } | { type: 'stop' }

/** Node worker → page: the answers to `start` and `stop`, then the worker's events. */
export type FromWorker =
  | { type: 'started'; info: NodeInfo }
  /** The node could not start; `message` says why (an Error does not survive structured clone whole). */
  | { type: 'failed'; message: string }
  | { type: 'stopped' }
  | { type: 'event'; event: WorkerEvent }

/** Names of the Web Locks and BroadcastChannels of one chain, shared by every tab. */
export const channelNames = (name: string) => ({
  leaderLock: `pagenode:${name}:leader`,
  /** Held by each tab's worker for its lifetime: free once that tab is gone, however it went. */
  tabLock: (tab: string) => `pagenode:${name}:tab:${tab}`,
  rpc: `pagenode:${name}:rpc`,
})

/** Messages on the rpc channel: followers' calls and their answers, and the leader's pushes. */
export type ChannelMessage =
  /** `retried`: sent again after a leader change, so an earlier leader may have run it already. */
  | { type: 'call'; id: string; method: string; params: unknown; retried?: boolean }
  | { type: 'ack'; id: string }
  | { type: 'outcome'; id: string; outcome: Outcome }
  | { type: 'subscription'; tab: string; subscription: string; result: unknown }
  | { type: 'leader'; epoch: string }
  /** The leader's eth_accounts changed: every tab's provider emits accountsChanged. */
  | { type: 'accounts'; accounts: string[] }
  /** console.log printed in the leader's node: every tab's provider emits consoleLog. */
  | { type: 'consoleLog'; output: ConsoleOutput }

/** A call a follower forwards to the leader. */
export interface ForwardedCall {
  method: string
  params: unknown
}

export type CallMessage = Extract<ChannelMessage, { type: 'call' }>

/**
 * Forwarded calls on the rpc channel (bridge/reliableChannel.ts): a follower's `call`, the
 * leader's `ack` and `outcome`; a `leader` announcement is a new responder (the old one is gone).
 */
export const callRequesterWire: RequesterWire<ForwardedCall, Outcome, ChannelMessage> = {
  request: (id, { method, params }, retried) => ({ type: 'call', id, method, params, retried }),
  read(message) {
    if (message.type === 'ack') return { type: 'ack', id: message.id }
    if (message.type === 'outcome') return { type: 'answer', id: message.id, answer: message.outcome }
    if (message.type === 'leader') return { type: 'responder' }
    return undefined
  },
}

export const callResponderWire: ResponderWire<CallMessage, Outcome, ChannelMessage> = {
  read: (message) => (message.type === 'call' ? { id: message.id, request: message } : undefined),
  ack: (id) => ({ type: 'ack', id }),
  answer: (id, outcome) => ({ type: 'outcome', id, outcome }),
}
