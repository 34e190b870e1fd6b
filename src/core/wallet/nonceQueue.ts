import type { PrefixedHexString } from '@ethereumjs/util'

/**
 * Sends that leave the nonce to the node (eth_sendTransaction, eth_sendUnsignedTransaction) take
 * their sender's nonces one after another: each fills its nonce once the previous send of that
 * sender is in the pool (or refused), so a dApp that fires several sends at once gets consecutive
 * nonces instead of two with the same one ("already known"), as Hardhat and anvil give them. Only
 * admission is serialized: the sends are still mined and stored together (group commit).
 */
export class NonceQueue {
  private readonly tails = new Map<string, Promise<void>>()

  /** Runs `send` after the sender's earlier sends were admitted; it calls `admitted` once its own is. */
  async run<T>(from: PrefixedHexString, send: (admitted: () => void) => Promise<T>): Promise<T> {
    const key = from.toLowerCase()
    const previous = this.tails.get(key) ?? Promise.resolve()
    let release!: () => void
    const admitted = new Promise<void>((resolve) => (release = resolve))
    const tail = previous.then(() => admitted)
    this.tails.set(key, tail)
    await previous
    try {
      return await send(release)
    } finally {
      release()
      if (this.tails.get(key) === tail) this.tails.delete(key)
    }
  }
}
