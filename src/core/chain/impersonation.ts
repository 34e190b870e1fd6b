import type { PrefixedHexString } from '@ethereumjs/util'

/**
 * Senders the node sends transactions for without their key (anvil_impersonateAccount,
 * anvil_autoImpersonateAccount): eth_sendTransaction from one of them is accepted unsigned.
 * Addresses are lowercase.
 */
export class Impersonation {
  private readonly accounts = new Set<PrefixedHexString>()
  /** Told when the list changes: eth_accounts lists these, so wallets' accountsChanged follows it. */
  private readonly listeners = new Set<() => void>()
  /** Every sender is impersonated. */
  auto = false

  start(address: PrefixedHexString): void {
    if (this.accounts.has(address)) return
    this.accounts.add(address)
    this.changed()
  }

  /** Whether it was impersonated. */
  stop(address: PrefixedHexString): boolean {
    const stopped = this.accounts.delete(address)
    if (stopped) this.changed()
    return stopped
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private changed(): void {
    for (const listener of this.listeners) listener()
  }

  allows(address: PrefixedHexString): boolean {
    return this.auto || this.accounts.has(address)
  }

  /** The accounts impersonated by name, in the order they were added. */
  list(): PrefixedHexString[] {
    return [...this.accounts]
  }

  reset(): void {
    const had = this.accounts.size > 0
    this.accounts.clear()
    this.auto = false
    if (had) this.changed()
  }
}
