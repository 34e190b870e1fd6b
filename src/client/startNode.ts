import { proxy, wrap, type Remote } from 'comlink'
import type { MiningConfig } from '../core/config.ts'
import type { Durability, NodeInfo, Outcome, Role, WorkerApi, WorkerEvent } from '../bridge/protocol.ts'
import { DISCONNECTED, PagenodeProvider } from './provider.ts'

export interface StartOptions {
  /** IndexedDB database name and channel namespace: one chain per name. */
  name?: string
  /** false: a memory chain, fresh on every load and private to this tab. */
  persist?: boolean
  chainId?: number
  mining?: MiningConfig
  /** IndexedDB commit durability: 'relaxed' survives tab and browser crashes; 'strict' also an OS crash. */
  durability?: Durability
}

export interface PageNode {
  readonly provider: PagenodeProvider
  /** 'leader' runs the chain in this tab; 'follower' forwards to the tab that does. */
  readonly role: Role
  /** Stops the node: waits for a block being stored, releases the worker, locks and channels. */
  stop(): Promise<void>
  /** Ends the worker at once, as a crash would: for tests of what survives one. */
  terminate(): void
}

/**
 * Starts a pagenode in a module Web Worker and returns its EIP-1193 provider. Resolves once the
 * node answers (the chain loaded from IndexedDB, or this tab joined the tab that runs it).
 */
export async function startNode(options: StartOptions = {}): Promise<PageNode> {
  const worker = new Worker(new URL('../worker/nodeWorker.ts', import.meta.url), { type: 'module', name: 'pagenode' })
  const api: Remote<WorkerApi> = wrap<WorkerApi>(worker)

  // Comlink never rejects a call whose worker died: every call races this instead.
  let reportDeath: (message: string) => void = () => {}
  const death = new Promise<never>((_, reject) => {
    reportDeath = (message) => reject(new Error(message))
  })
  death.catch(() => {})
  worker.addEventListener('error', (event) => {
    event.preventDefault()
    end(`the node worker failed: ${event.message || 'unknown error'}`)
  })

  let role: Role = 'leader'
  const onEvent = (event: WorkerEvent) => {
    if (event.type === 'role') role = event.role
    else provider.emit('message', { type: 'eth_subscription', data: { subscription: event.subscription, result: event.result } })
  }

  let ended = false
  const end = (message: string) => {
    if (ended) return
    ended = true
    reportDeath(message)
    provider.disconnect(message)
    worker.terminate()
  }

  const transport = (method: string, params: unknown): Promise<Outcome> =>
    Promise.race([api.request(method, params), death]).catch((error: Error) => ({
      ok: false as const,
      error: { code: DISCONNECTED, message: error.message },
    }))
  const provider = new PagenodeProvider(transport)

  let info: NodeInfo
  try {
    info = await Promise.race([
      api.start(
        { name: options.name ?? 'pagenode', persist: options.persist ?? true, chainId: options.chainId, mining: options.mining, durability: options.durability ?? 'relaxed' },
        proxy(onEvent),
      ),
      death,
    ])
  } catch (error) {
    end('the node could not start')
    throw error
  }
  role = info.role
  // On a later task, so that listeners attached right after `await startNode()` hear it.
  setTimeout(() => provider.emit('connect', { chainId: info.chainId }))

  return {
    provider,
    get role() {
      return role
    },
    async stop() {
      if (ended) return
      await Promise.race([api.stop(), death]).catch(() => {})
      end('the node was stopped')
    },
    terminate() {
      end('the node worker was terminated')
    },
  }
}
