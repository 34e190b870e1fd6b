/// <reference lib="webworker" />
/**
 * The node worker: one per tab. It becomes the leader of its chain (the tab that runs the node
 * on IndexedDB) or a follower that forwards to the leader, and takes over when the leader goes.
 *
 * `expose` runs synchronously at load, before any await: a call posted by the page while the
 * module was still starting would otherwise be lost (Comlink #665).
 */
import { expose } from 'comlink'
import { ErrorCode } from '../core/rpc/errors.ts'
import { channelNames, type NodeInfo, type Outcome, type WorkerApi, type WorkerEvent, type WorkerOptions } from '../bridge/protocol.ts'
import { Follower } from './follower.ts'
import { Leader } from './leader.ts'

let leader: Leader | undefined
let follower: Follower | undefined
let releaseLock: (() => void) | undefined
let stopped = false

const tab = crypto.randomUUID()

const api: WorkerApi = {
  async start(options: WorkerOptions, events: (event: WorkerEvent) => void): Promise<NodeInfo> {
    const toPage = (subscription: string, result: unknown) => events({ type: 'subscription', subscription, result })
    if (options.persist && (await holdLeaderLock(options.name, false)) === false) {
      follower = new Follower(options.name, tab, toPage)
      // Wait in line for the lock: it is granted when the leader's tab goes away.
      void holdLeaderLock(options.name, true).then(async (granted) => {
        if (!granted || stopped) return
        leader = await Leader.open(options, ({ subscription, result }) => toPage(subscription, result))
        follower?.leaderChanged((method, params) => leader!.call(method, params, 'page'))
        follower?.close()
        follower = undefined
        events({ type: 'role', role: 'leader' })
      })
      const chainId = await follower.call('eth_chainId', [])
      const accounts = await follower.call('eth_accounts', [])
      if (!chainId.ok) throw new Error(chainId.error.message)
      return { role: 'follower', chainId: chainId.result as string, accounts: accounts.ok ? (accounts.result as string[]) : [] }
    }
    leader = await Leader.open(options, ({ subscription, result }) => toPage(subscription, result))
    return {
      role: 'leader',
      chainId: `0x${leader.node.chainId.toString(16)}`,
      accounts: leader.node.accounts.map((account) => account.address.toString()),
    }
  },

  async request(method: string, params: unknown): Promise<Outcome> {
    if (leader) return leader.call(method, params, 'page')
    if (follower) return follower.call(method, params)
    return { ok: false, error: { code: ErrorCode.internal, message: 'the node is not started' } }
  },

  async stop(): Promise<void> {
    stopped = true
    follower?.close()
    await leader?.close()
    releaseLock?.()
  },
}

expose(api)

/**
 * Takes the chain's leader lock and holds it until `stop` (or the worker's end, when the browser
 * frees it). Resolves true once held; with `wait` false, resolves false at once if another tab
 * holds it.
 */
function holdLeaderLock(name: string, wait: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    void navigator.locks
      .request(channelNames(name).leaderLock, { ifAvailable: !wait }, (lock) => {
        if (!lock || stopped) {
          resolve(false)
          return undefined
        }
        resolve(true)
        return new Promise<void>((release) => (releaseLock = release))
      })
      .catch(() => resolve(false))
  })
}
