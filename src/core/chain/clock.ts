/**
 * Block timestamps: wall-clock seconds, always after the parent's (docs/zksync.md, "Chain model"):
 * Ethereum's rule, which Hardhat keeps too. Blocks mined within one second take the parent's
 * timestamp + 1, so the chain's clock may run ahead of the wall clock for a while. The offset, the one-shot next timestamp and the fixed interval are what the time-travel
 * methods move (evm_increaseTime, evm_setNextBlockTimestamp, evm_setTime,
 * anvil_setBlockTimestampInterval).
 */
export class BlockClock {
  /** Seconds added to the wall clock. */
  offsetSeconds = 0n
  /** A timestamp the next block must carry, then forgotten. */
  nextOverride: bigint | undefined
  /** Each block this many seconds after its parent, whatever the clock says (anvil's interval). */
  interval: bigint | undefined

  constructor(readonly nowMs: () => number) {}

  private wallSeconds(): bigint {
    return BigInt(Math.floor(this.nowMs() / 1000))
  }

  now(): bigint {
    return this.wallSeconds() + this.offsetSeconds
  }

  nextTimestamp(parentTimestamp: bigint): bigint {
    const wanted = this.nextOverride ?? (this.interval !== undefined ? parentTimestamp + this.interval : this.now())
    return wanted > parentTimestamp ? wanted : parentTimestamp + 1n
  }

  /**
   * After a block with this timestamp. A block that took an explicit timestamp moves the clock
   * there, so later blocks carry on from it rather than from the wall clock (as anvil and Hardhat
   * do: setting a timestamp a day ahead leaves the chain a day ahead).
   */
  blockMined(timestamp: bigint): void {
    if (this.nextOverride !== undefined) this.offsetSeconds = timestamp - this.wallSeconds()
    this.nextOverride = undefined
  }

  /** Moves the clock forward (or back) by `seconds`; returns the total offset. */
  increase(seconds: bigint): bigint {
    this.offsetSeconds += seconds
    return this.offsetSeconds
  }

  /** Sets the clock to `timestamp` (seconds); returns how far it moved. */
  setTime(timestamp: bigint): bigint {
    const before = this.now()
    this.offsetSeconds = timestamp - this.wallSeconds()
    this.nextOverride = undefined
    return timestamp - before
  }

  /** What a snapshot keeps of the clock. */
  save(): ClockState {
    return { offsetSeconds: this.offsetSeconds, nextOverride: this.nextOverride, interval: this.interval, atMs: this.nowMs() }
  }

  /**
   * Back to a saved clock, and to the moment it was saved: the wall time passed since then is
   * taken off the offset (Hardhat's evm_revert), so a test reverted to a fixture sees the same
   * time it did when the fixture was taken, however long the test ran.
   */
  restore(state: ClockState): void {
    const elapsedSeconds = BigInt(Math.floor((this.nowMs() - state.atMs) / 1000))
    this.offsetSeconds = state.offsetSeconds - elapsedSeconds
    this.nextOverride = state.nextOverride
    this.interval = state.interval
  }

  reset(): void {
    this.offsetSeconds = 0n
    this.nextOverride = undefined
    this.interval = undefined
  }
}

export interface ClockState {
  offsetSeconds: bigint
  nextOverride: bigint | undefined
  interval: bigint | undefined
  atMs: number
}
