/**
 * What the page, its node worker and the other tabs' workers say to each other. Errors travel as
 * values ({ok: false, error}) rather than as thrown exceptions: an EIP-1193 error must arrive with
 * its code and data (revert bytes) intact, and structured clone keeps only an Error's message.
 *
 * Two channels between a page and its node worker, no library: control messages on the worker
 * itself (start, stop, the worker's events: `ToWorker`/`FromWorker`), and the page's JSON-RPC
 * calls on a MessagePort of their own (requestPort.ts), where every microsecond is latency.
 */
import type { MiningConfig } from '../core/config.ts'

export type Durability = 'relaxed' | 'strict'

/** Options a page passes to its worker (the serialisable part of startNode's options). */
export interface WorkerOptions {
  name: string
  persist: boolean
  chainId?: number
  mining?: MiningConfig
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

/** Messages on the rpc channel: calls from followers (and, later, the service worker). */
export type ChannelMessage =
  /** `retried`: sent again after a leader change, so an earlier leader may have run it already. */
  | { type: 'call'; id: string; method: string; params: unknown; retried?: boolean }
  | { type: 'ack'; id: string }
  | { type: 'outcome'; id: string; outcome: Outcome }
  | { type: 'subscription'; tab: string; subscription: string; result: unknown }
  | { type: 'leader'; epoch: string }
  /** The leader's eth_accounts changed: every tab's provider emits accountsChanged. */
  | { type: 'accounts'; accounts: string[] }
