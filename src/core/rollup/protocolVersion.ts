import { bytesToHex } from '../hexText.ts'

/** The protocol version this chain speaks (anvil-zksync's default, Version28). */
export const PROTOCOL_VERSION = 28

/** era's `ProtocolVersionId` names, as BlockDetails.protocolVersion shows them. */
export const PROTOCOL_VERSION_NAME = `Version${PROTOCOL_VERSION}`

const ZERO_HASH = bytesToHex(new Uint8Array(32))

/**
 * The hashes of ZKsync's base system contracts. This chain runs EVM bytecode with no bootloader
 * and plain EOAs, not EraVM's system contracts, so there are none to hash: zero hashes say so.
 */
export const BASE_SYSTEM_CONTRACTS_HASHES = { bootloader: ZERO_HASH, default_aa: ZERO_HASH, evm_emulator: null } as const

/**
 * zks_getProtocolVersion's object: the legacy keys (what zksync-ethers types and the interface's
 * table lists, down to verification_keys_hashes.params) and era's current camelCase keys, every
 * key present as era serializes it. Active since genesis (`timestamp`).
 */
export function protocolVersion(genesisTimestamp: bigint) {
  return {
    version_id: PROTOCOL_VERSION,
    minorVersion: PROTOCOL_VERSION,
    timestamp: Number(genesisTimestamp),
    verification_keys_hashes: {
      params: {
        recursion_node_level_vk_hash: ZERO_HASH,
        recursion_leaf_level_vk_hash: ZERO_HASH,
        recursion_circuits_set_vks_hash: ZERO_HASH,
      },
      recursion_scheduler_level_vk_hash: ZERO_HASH,
      fflonk_snark_wrapper_vk_hash: null,
    },
    base_system_contracts: BASE_SYSTEM_CONTRACTS_HASHES,
    bootloaderCodeHash: ZERO_HASH,
    defaultAccountCodeHash: ZERO_HASH,
    evmSimulatorCodeHash: null,
    l2_system_upgrade_tx_hash: null,
    l2SystemUpgradeTxHash: null,
  }
}
