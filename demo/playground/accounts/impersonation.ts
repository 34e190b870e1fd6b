/**
 * The addresses this page impersonates. The node keeps them (anvil_impersonateAccount) but has
 * no method that lists them, so the page remembers what it asked for: Accounts shows them, Send
 * offers them as senders. A reset forgets them on the node, and `forgetAll` here.
 */
import type { Hex, Session } from '../session.ts'

type Listener = (addresses: readonly Hex[]) => void

export class Impersonation {
  private readonly addresses: Hex[] = []
  private readonly listeners = new Set<Listener>()

  constructor(private readonly session: Session) {}

  get list(): readonly Hex[] {
    return this.addresses
  }

  has(address: Hex): boolean {
    return this.addresses.includes(address)
  }

  /** anvil_impersonateAccount: the node then signs eth_sendTransaction from `address` unchecked. */
  async start(address: Hex): Promise<void> {
    await this.session.request('anvil_impersonateAccount', [address])
    if (this.has(address)) return
    this.addresses.push(address)
    this.changed()
  }

  async stop(address: Hex): Promise<void> {
    await this.session.request('anvil_stopImpersonatingAccount', [address])
    this.addresses.splice(this.addresses.indexOf(address), 1)
    this.changed()
  }

  /** The node dropped every impersonation (anvil_reset). */
  forgetAll(): void {
    this.addresses.length = 0
    this.changed()
  }

  /** Calls `listener` with the list on every change; returns the unsubscribe. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private changed(): void {
    for (const listener of this.listeners) listener(this.addresses)
  }
}

const bySession = new WeakMap<Session, Impersonation>()

/** The page's one list for this session, shared by the panels. */
export function impersonation(session: Session): Impersonation {
  let found = bySession.get(session)
  if (!found) bySession.set(session, (found = new Impersonation(session)))
  return found
}
