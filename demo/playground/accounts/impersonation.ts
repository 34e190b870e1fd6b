/**
 * The addresses the node impersonates by name: eth_accounts lists them after the dev accounts (as
 * anvil does), and the provider's accountsChanged says when that list changes — from this panel,
 * the RPC console, another tab or an HTTP client alike. Accounts shows them, Send offers them as
 * senders.
 */
import type { Hex, Session } from '../session.ts'

type Listener = (addresses: readonly Hex[]) => void

export class Impersonation {
  private addresses: Hex[] = []
  private readonly listeners = new Set<Listener>()

  constructor(private readonly session: Session) {
    session.provider.on('accountsChanged', (accounts: Hex[]) => this.update(accounts))
    void this.refresh()
  }

  get list(): readonly Hex[] {
    return this.addresses
  }

  has(address: Hex): boolean {
    return this.addresses.includes(address.toLowerCase() as Hex)
  }

  /** anvil_impersonateAccount: the node then signs eth_sendTransaction from `address` unchecked. */
  async start(address: Hex): Promise<void> {
    await this.session.request('anvil_impersonateAccount', [address])
    await this.refresh()
  }

  async stop(address: Hex): Promise<void> {
    await this.session.request('anvil_stopImpersonatingAccount', [address])
    await this.refresh()
  }

  /** Reads the list again (after a reset, which drops every impersonation). */
  async refresh(): Promise<void> {
    this.update(await this.session.request<Hex[]>('eth_accounts'))
  }

  /** Calls `listener` with the list on every change; returns the unsubscribe. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private update(accounts: Hex[]): void {
    const dev = new Set(this.session.accounts.map((a) => a.toLowerCase()))
    const next = accounts.map((a) => a.toLowerCase() as Hex).filter((a) => !dev.has(a))
    if (next.length === this.addresses.length && next.every((a, i) => a === this.addresses[i])) return
    this.addresses = next
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
