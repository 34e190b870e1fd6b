/**
 * Block timestamps: wall-clock seconds, never earlier than the parent's (DESIGN §4). The offset
 * and the one-shot next timestamp are the hooks time-travel methods move.
 */
export class BlockClock {
  /** Seconds added to the wall clock. */
  offsetSeconds = 0n
  /** A timestamp the next block must carry, then forgotten. */
  nextOverride: bigint | undefined

  constructor(readonly nowMs: () => number) {}

  now(): bigint {
    return BigInt(Math.floor(this.nowMs() / 1000)) + this.offsetSeconds
  }

  nextTimestamp(parentTimestamp: bigint): bigint {
    const wanted = this.nextOverride ?? this.now()
    return wanted > parentTimestamp ? wanted : parentTimestamp
  }

  blockMined(): void {
    this.nextOverride = undefined
  }
}
