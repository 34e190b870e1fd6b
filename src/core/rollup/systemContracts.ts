import type { PrefixedHexString } from '@ethereumjs/util'
import { L1_MESSENGER_ADDRESS, L1_MESSENGER_RUNTIME } from './l1Messenger.ts'
import { BASE_TOKEN_L2_ADDRESS, L2_ASSET_ROUTER_ADDRESS, L2_NATIVE_TOKEN_VAULT_ADDRESS } from './l1Settlement.ts'

/** ZKsync's ContractDeployer: deployments and the address helpers. */
export const CONTRACT_DEPLOYER_ADDRESS: PrefixedHexString = '0x0000000000000000000000000000000000008006'

/** ZKsync's Create2Factory, where clients send `create2` deployments; it relays to the ContractDeployer. */
export const CREATE2_FACTORY_ADDRESS: PrefixedHexString = '0x0000000000000000000000000000000000010000'

/** L2BaseToken's storage slot of `totalSupply` (its first variable). */
export const TOTAL_SUPPLY_SLOT = 0n

export interface SystemContract {
  name: string
  address: PrefixedHexString
  /** EVM runtime bytecode, compiled from `src/core/rollup/<name>.sol`. */
  runtime: PrefixedHexString
}

/**
 * The system contracts installed at genesis as EVM code, at ZKsync's addresses with ZKsync's ABIs
 * (docs/zksync.md, "System contracts"). NonceHolder (0x…8003) is not among them: it reads account
 * nonces, which EVM code cannot, so it is a precompile (nonceHolder.ts, NONCE_HOLDER_CODE).
 *
 * Their runtimes (~3.5 KB gzip) load when a genesis is made: a chunk of their own in the worker's
 * bundle, which a page restoring its chain never downloads.
 */
export async function systemContracts(): Promise<readonly SystemContract[]> {
  const runtimes = await import('./systemContractRuntimes.ts')
  return [
    { name: 'ContractDeployer', address: CONTRACT_DEPLOYER_ADDRESS, runtime: runtimes.CONTRACT_DEPLOYER_RUNTIME },
    { name: 'L1Messenger', address: L1_MESSENGER_ADDRESS, runtime: L1_MESSENGER_RUNTIME },
    { name: 'L2BaseToken', address: BASE_TOKEN_L2_ADDRESS, runtime: runtimes.L2_BASE_TOKEN_RUNTIME },
    { name: 'Create2Factory', address: CREATE2_FACTORY_ADDRESS, runtime: runtimes.CREATE2_FACTORY_RUNTIME },
    { name: 'L2AssetRouter', address: L2_ASSET_ROUTER_ADDRESS, runtime: runtimes.L2_ASSET_ROUTER_RUNTIME },
    { name: 'L2NativeTokenVault', address: L2_NATIVE_TOKEN_VAULT_ADDRESS, runtime: runtimes.L2_NATIVE_TOKEN_VAULT_RUNTIME },
  ]
}
