/**
 * ZKsync's fee model, as this chain fills it: L2 gas costs the configured gas price and nothing
 * else. Pubdata (what a rollup pays L1 for data) costs nothing because nothing goes to L1, so the
 * pubdata prices are 0 and any gas-per-pubdata limit suffices.
 */

/** anvil-zksync's default L1 gas price: reported, never charged. */
export const L1_GAS_PRICE = 2_365_348_956n

/**
 * What zks_gasPerPubdata and zks_estimateFee answer: ZKsync's default gas-per-pubdata limit
 * (zksync-ethers' and viem's DEFAULT_GAS_PER_PUBDATA_LIMIT), which clients put in their 0x71
 * transactions. Pubdata is free here, so it never limits anything.
 */
export const GAS_PER_PUBDATA_LIMIT = 50_000n

/** era's batch limits (FeeModelConfigV2 on mainnet), reported with the V2 fee params. */
const BATCH_OVERHEAD_L1_GAS = 800_000
const MAX_GAS_PER_BATCH = 200_000_000
const MAX_PUBDATA_PER_BATCH = 240_000

/** zks_getFeeParams: era's FeeParams::V2 (snake_case keys, plain numbers). */
export function feeParams(l2GasPrice: bigint) {
  return {
    V2: {
      config: {
        minimal_l2_gas_price: Number(l2GasPrice),
        compute_overhead_part: 0.0,
        pubdata_overhead_part: 1.0,
        batch_overhead_l1_gas: BATCH_OVERHEAD_L1_GAS,
        max_gas_per_batch: MAX_GAS_PER_BATCH,
        max_pubdata_per_batch: MAX_PUBDATA_PER_BATCH,
      },
      l1_gas_price: Number(L1_GAS_PRICE),
      l1_pubdata_price: 0,
      conversion_ratio: { numerator: 1, denominator: 1 },
    },
  }
}

/** zks_getBatchFeeInput: era's PubdataIndependentBatchFeeModelInput. */
export function batchFeeInput(l2GasPrice: bigint) {
  return { fair_l2_gas_price: Number(l2GasPrice), fair_pubdata_price: 0, l1_gas_price: Number(L1_GAS_PRICE) }
}
