import { createZeroAddress, type Address } from '@ethereumjs/util'

/**
 * The header fields the node chooses for the blocks it mines, and the price a transaction must
 * pay, as the dev-node methods set them at run time (evm_setBlockGasLimit, anvil_setCoinbase,
 * anvil_setNextBlockBaseFeePerGas, anvil_setMinGasPrice, hardhat_setPrevRandao). They start from
 * the node's options.
 *
 * The base fee is fixed on this chain (the L2 gas price: docs/zksync.md, "Chain model"), so a base
 * fee set for the next block holds for that block only; the one after is back at the configured
 * price.
 */
export class BlockParams {
  coinbase: Address = createZeroAddress()
  gasLimit: bigint
  /** The next block's base fee, when one was set for it. */
  nextBaseFee: bigint | undefined
  /**
   * The next block's PREVRANDAO (its mixHash), when one was set for it; the blocks after it derive
   * theirs from it (the hash of the parent's), as Hardhat's do.
   */
  nextPrevRandao: Uint8Array | undefined
  /** The least a transaction may offer per gas (0: the base fee is the only floor). */
  minGasPrice = 0n

  constructor(private readonly defaults: { gasLimit: bigint; baseFee: bigint }) {
    this.gasLimit = defaults.gasLimit
  }

  /** The next block's base fee. */
  baseFee(): bigint {
    return this.nextBaseFee ?? this.defaults.baseFee
  }

  /** What eth_gasPrice answers: enough for the next block and the node's minimum. */
  gasPrice(): bigint {
    const baseFee = this.baseFee()
    return this.minGasPrice > baseFee ? this.minGasPrice : baseFee
  }

  blockMined(): void {
    this.nextBaseFee = undefined
    this.nextPrevRandao = undefined
  }

  /** What a snapshot keeps: what shapes the next block (the rest are node settings). */
  save(): NextBlockSettings {
    return { coinbase: this.coinbase, nextBaseFee: this.nextBaseFee, nextPrevRandao: this.nextPrevRandao }
  }

  restore(saved: NextBlockSettings): void {
    this.coinbase = saved.coinbase
    this.nextBaseFee = saved.nextBaseFee
    this.nextPrevRandao = saved.nextPrevRandao
  }

  reset(): void {
    this.coinbase = createZeroAddress()
    this.gasLimit = this.defaults.gasLimit
    this.nextBaseFee = undefined
    this.nextPrevRandao = undefined
    this.minGasPrice = 0n
  }
}

interface NextBlockSettings {
  coinbase: Address
  nextBaseFee: bigint | undefined
  nextPrevRandao: Uint8Array | undefined
}
