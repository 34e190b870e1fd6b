import { utf8ToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { keccak_256 } from '@noble/hashes/sha3.js'

/**
 * The L1 this chain would settle on. There is none: batches seal in the node itself and no proof
 * ever leaves it. These are the answers a ZKsync client needs to find its way, fixed and
 * documented so nothing mistakes them for a live L1.
 */

/** era's local development L1 (zkstack's localhost chain) has chain id 9. */
export const L1_CHAIN_ID = 9n

/**
 * The address zks_getMainContract names as the L1 diamond proxy: derived from a label, so it is
 * nobody's account on any chain and stays the same on every node.
 */
export const MAIN_CONTRACT: PrefixedHexString = bytesToHex(keccak_256(utf8ToBytes('pagenode: L1 diamond proxy')).subarray(12))

/** ETH as ZKsync names it in L1 contracts (the base token of an ETH-based chain). */
export const BASE_TOKEN_L1_ADDRESS: PrefixedHexString = '0x0000000000000000000000000000000000000001'

/** The base token's L2 system contract, where ZKsync keeps ETH balances. */
export const BASE_TOKEN_L2_ADDRESS: PrefixedHexString = '0x000000000000000000000000000000000000800a'

/** How era names ETH in token lists and balance maps. */
export const ETH_TOKEN_ADDRESS: PrefixedHexString = '0x0000000000000000000000000000000000000000'

/** ZKsync's L2AssetRouter, the L2 shared bridge zksync-ethers and viem name (L2AssetRouter.sol). */
export const L2_ASSET_ROUTER_ADDRESS: PrefixedHexString = '0x0000000000000000000000000000000000010003'

/** ZKsync's L2NativeTokenVault, which clients ask whether a token is the base token. */
export const L2_NATIVE_TOKEN_VAULT_ADDRESS: PrefixedHexString = '0x0000000000000000000000000000000000010004'

/**
 * The L1 asset router (L1 shared bridge) that the L2AssetRouter at 0x…10003 names as its
 * counterpart (L2AssetRouter.sol holds the same address; a test checks it): derived from a label
 * like MAIN_CONTRACT, nobody's account.
 */
export const L1_ASSET_ROUTER: PrefixedHexString = bytesToHex(keccak_256(utf8ToBytes('pagenode: L1 asset router')).subarray(12))

/**
 * zks_getBridgeContracts: the shared bridge, whose L2 side is the L2AssetRouter zksync-ethers'
 * getDefaultBridgeAddresses() reads; no legacy ERC-20 or WETH bridges (null, as anvil-zksync
 * answers them).
 */
export const BRIDGE_CONTRACTS = {
  l1SharedDefaultBridge: L1_ASSET_ROUTER,
  l2SharedDefaultBridge: L2_ASSET_ROUTER_ADDRESS,
  l1Erc20DefaultBridge: null,
  l2Erc20DefaultBridge: null,
  l1WethBridge: null,
  l2WethBridge: null,
  l2LegacySharedBridge: null,
} as const

/** zks_getConfirmedTokens: the base token is the only token the node knows of. */
export const ETH_TOKEN = {
  l1Address: ETH_TOKEN_ADDRESS,
  l2Address: BASE_TOKEN_L2_ADDRESS,
  name: 'Ether',
  symbol: 'ETH',
  decimals: 18,
} as const
