import type { ConsoleLogOutput } from '../core/pagenode.ts'
import type { Outcome, RpcFailure } from '../bridge/protocol.ts'

/** An EIP-1193 error: `code`, `message` and `data` (a revert's bytes) as the node gave them. */
export class ProviderRpcError extends Error {
  readonly code: number
  readonly data?: unknown

  constructor({ code, message, data }: RpcFailure) {
    super(message)
    this.name = 'ProviderRpcError'
    this.code = code
    if (data !== undefined) this.data = data
  }
}

/** EIP-1193 §disconnect: the provider cannot reach the node. */
export const DISCONNECTED = 4900

/** An EIP-1193 `message`: this provider sends subscription notifications. */
export interface ProviderMessage {
  type: 'eth_subscription'
  data: { subscription: string; result: unknown }
}

/** The EIP-1193 events and what their listeners receive. */
export interface ProviderEvents {
  connect: (info: { chainId: string }) => void
  disconnect: (error: ProviderRpcError) => void
  chainChanged: (chainId: string) => void
  accountsChanged: (accounts: string[]) => void
  message: (message: ProviderMessage) => void
  /**
   * pagenode's own: what console.log (Hardhat's console.sol) printed in a mined transaction or a
   * call, from this tab or another tab of the chain (docs/api.md, "console.log output").
   */
  consoleLog: (output: ConsoleLogOutput) => void
}

export type ProviderEvent = keyof ProviderEvents
// Libraries register listeners of their own shape for names of their own; any is what they pass.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Listener = (...args: any[]) => void

/** How to run one call on the node (the worker, through its request port). */
export type Transport = (method: string, params: unknown) => Promise<Outcome>

/**
 * The page's EIP-1193 provider. Calls go to the tab's node worker; subscriptions arrive as
 * `message` events of type `eth_subscription`. After `disconnect` every call fails with 4900.
 */
export class PagenodeProvider {
  private readonly listeners = new Map<string, Set<Listener>>()
  private disconnectedBy: ProviderRpcError | undefined

  constructor(private readonly transport: Transport) {}

  async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
    if (typeof method !== 'string' || method === '') {
      throw new ProviderRpcError({ code: -32600, message: 'invalid request: method must be a non-empty string' })
    }
    if (this.disconnectedBy) throw this.disconnectedBy
    const outcome = await this.transport(method, params ?? [])
    if (!outcome.ok) throw new ProviderRpcError(outcome.error)
    return outcome.result
  }

  on<E extends ProviderEvent>(event: E, listener: ProviderEvents[E]): this
  on(event: string, listener: Listener): this
  on(event: string, listener: Listener): this {
    let set = this.listeners.get(event)
    if (!set) this.listeners.set(event, (set = new Set()))
    set.add(listener)
    return this
  }

  once<E extends ProviderEvent>(event: E, listener: ProviderEvents[E]): this
  once(event: string, listener: Listener): this
  once(event: string, listener: Listener): this {
    const wrapper: Listener = (...args) => {
      this.removeListener(event, wrapper)
      listener(...args)
    }
    return this.on(event, wrapper)
  }

  removeListener<E extends ProviderEvent>(event: E, listener: ProviderEvents[E]): this
  removeListener(event: string, listener: Listener): this
  removeListener(event: string, listener: Listener): this {
    this.listeners.get(event)?.delete(listener)
    return this
  }

  // The aliases libraries reach for (EventEmitter's names).
  // Methods, not `addListener = this.on`: a property typed `this` makes invalid declarations.
  addListener<E extends ProviderEvent>(event: E, listener: ProviderEvents[E]): this
  addListener(event: string, listener: Listener): this
  addListener(event: string, listener: Listener): this {
    return this.on(event, listener)
  }

  off<E extends ProviderEvent>(event: E, listener: ProviderEvents[E]): this
  off(event: string, listener: Listener): this
  off(event: string, listener: Listener): this {
    return this.removeListener(event, listener)
  }

  removeAllListeners(event?: string): this {
    if (event === undefined) this.listeners.clear()
    else this.listeners.delete(event)
    return this
  }

  /** @internal Emits to listeners; a throwing listener does not stop the others. */
  emit<E extends ProviderEvent>(event: E, ...args: Parameters<ProviderEvents[E]>): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        listener(...args)
      } catch (error) {
        queueMicrotask(() => {
          throw error
        })
      }
    }
  }

  /** @internal The node is gone: fail every later call and tell listeners once. */
  disconnect(message: string): void {
    if (this.disconnectedBy) return
    this.disconnectedBy = new ProviderRpcError({ code: DISCONNECTED, message })
    this.emit('disconnect', this.disconnectedBy)
  }

  get connected(): boolean {
    return this.disconnectedBy === undefined
  }
}
