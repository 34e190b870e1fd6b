import type { MiningConfig } from '../config.ts'

/**
 * How blocks are produced, switchable at run time (evm_setAutomine, evm_setIntervalMining) as
 * anvil switches it: one mode at a time. Automine mines each accepted transaction at once; an
 * interval mines a block (possibly empty) every period; manual mining waits for evm_mine.
 * Turning automine off leaves manual mining; an interval replaces automine, and an interval of
 * 0 stops interval mining.
 */
export class MiningMode {
  private mode: MiningConfig
  private timer: ReturnType<typeof setInterval> | undefined

  constructor(
    initial: MiningConfig,
    /** Mines one block from the pool (the interval's tick). */
    private readonly mineBlock: () => Promise<unknown>,
  ) {
    this.mode = initial
    this.arm()
  }

  get current(): MiningConfig {
    return this.mode
  }

  get automine(): boolean {
    return this.mode.mode === 'auto'
  }

  /** Whether blocks appear without evm_mine (eth_mining). */
  get mining(): boolean {
    return this.mode.mode !== 'manual'
  }

  setAutomine(enabled: boolean): void {
    if (enabled) this.switchTo({ mode: 'auto' })
    else if (this.automine) this.switchTo({ mode: 'manual' })
  }

  /** A block every `intervalMs`; 0 stops interval mining. */
  setInterval(intervalMs: number): void {
    this.switchTo(intervalMs > 0 ? { mode: 'interval', intervalMs } : { mode: 'manual' })
  }

  /** Back to a stored mode (a restart). */
  restore(mode: MiningConfig): void {
    this.switchTo(mode)
  }

  /** For good: the node is closing. */
  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  private switchTo(mode: MiningConfig): void {
    this.stop()
    this.mode = mode
    this.arm()
  }

  private arm(): void {
    if (this.mode.mode !== 'interval') return
    this.timer = setInterval(() => {
      // A failed block is rolled back by the miner; the next tick tries again.
      this.mineBlock().catch(() => {})
    }, this.mode.intervalMs)
  }
}
