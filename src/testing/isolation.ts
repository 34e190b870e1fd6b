import type { Hex } from 'viem'
import type { MiningConfig } from '../core/index.ts'

interface Requester {
  request<T = unknown>(method: string, ...params: unknown[]): Promise<T>
  readonly accounts: readonly string[]
}

export interface Isolation {
  /** Back to how the chain was when the test started. */
  restore(): Promise<void>
}

type Mode = MiningConfig['mode']

async function miningMode(chain: Requester): Promise<Mode> {
  if (await chain.request<boolean>('anvil_getAutomine')) return 'auto'
  return (await chain.request<boolean>('eth_mining')) ? 'interval' : 'manual'
}

/**
 * What keeps one test's chain from the next's. evm_revert brings back the blocks, the state,
 * the pool, the clock and the next block's coinbase and base fee; the node's own settings are
 * not part of a snapshot (as in anvil and Hardhat), so the ones a test may change are put back
 * here: the mining mode (a test that turns automine off would leave the next one waiting for
 * receipts forever), impersonations, the block gas limit and the minimum gas price.
 */
export async function isolateTests(chain: Requester, mining: MiningConfig): Promise<Isolation> {
  const snapshot = await chain.request<Hex>('evm_snapshot')
  const info = await chain.request<{ environment: { gasLimit: number | Hex } }>('anvil_nodeInfo')
  return {
    async restore() {
      if (!(await chain.request<boolean>('evm_revert', snapshot))) {
        throw new Error(
          'pagenode/testing: the snapshot taken before this test is gone (the test reverted to an earlier snapshot, or reset the chain), so the next test would not start from the same chain',
        )
      }
      // Only a mode the test changed is set again: the RPC takes whole seconds, so setting an
      // unchanged sub-second interval would change it.
      if ((await miningMode(chain)) !== mining.mode) {
        if (mining.mode === 'auto') await chain.request('evm_setAutomine', true)
        else await chain.request('evm_setIntervalMining', mining.mode === 'interval' ? Math.max(1, Math.round(mining.intervalMs / 1000)) : 0)
      }
      await chain.request('anvil_autoImpersonateAccount', false)
      const impersonated = (await chain.request<string[]>('eth_accounts')).filter((a) => !chain.accounts.includes(a))
      for (const account of impersonated) await chain.request('anvil_stopImpersonatingAccount', account)
      await chain.request('evm_setBlockGasLimit', info.environment.gasLimit)
      await chain.request('anvil_setMinGasPrice', 0)
    },
  }
}
