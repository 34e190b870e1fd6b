import type { PrefixedHexString } from '@ethereumjs/util'

/**
 * Senders the node sends transactions for without their key (anvil_impersonateAccount,
 * anvil_autoImpersonateAccount): eth_sendTransaction from one of them is accepted unsigned.
 * Addresses are lowercase.
 */
export class Impersonation {
  private readonly accounts = new Set<PrefixedHexString>()
  /** Every sender is impersonated. */
  auto = false

  start(address: PrefixedHexString): void {
    this.accounts.add(address)
  }

  /** Whether it was impersonated. */
  stop(address: PrefixedHexString): boolean {
    return this.accounts.delete(address)
  }

  allows(address: PrefixedHexString): boolean {
    return this.auto || this.accounts.has(address)
  }

  /** The accounts impersonated by name, in the order they were added. */
  list(): PrefixedHexString[] {
    return [...this.accounts]
  }

  reset(): void {
    this.accounts.clear()
    this.auto = false
  }
}
