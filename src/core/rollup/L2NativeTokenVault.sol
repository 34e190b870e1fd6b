// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// EVM stand-in for ZKsync's L2NativeTokenVault at 0x…10004, for what clients read of it:
/// zksync-ethers asks it whether a token is the base token (BASE_TOKEN_ASSET_ID, L1_CHAIN_ID)
/// before a withdrawal, viem for a token's asset id and origin chain. ETH is the base token and
/// the only asset here; asset ids are ZKsync's: keccak256(abi.encode(origin chain, vault, token)).
contract L2NativeTokenVault {
    /// zks_L1ChainId (src/core/rollup/l1Settlement.ts, L1_CHAIN_ID).
    uint256 public constant L1_CHAIN_ID = 9;

    /// ETH as L1 contracts name it (the base token's zks_getBaseTokenL1Address).
    address private constant ETH_TOKEN_ADDRESS = address(1);

    bytes32 public constant BASE_TOKEN_ASSET_ID = keccak256(abi.encode(L1_CHAIN_ID, address(0x10004), ETH_TOKEN_ADDRESS));

    /// 0 for a token the vault does not know, as ZKsync answers.
    function assetId(address _token) external pure returns (bytes32) {
        return _token == ETH_TOKEN_ADDRESS || _token == address(0x800a) ? BASE_TOKEN_ASSET_ID : bytes32(0);
    }

    function originChainId(bytes32 _assetId) external pure returns (uint256) {
        return _assetId == BASE_TOKEN_ASSET_ID ? L1_CHAIN_ID : 0;
    }

    function tokenAddress(bytes32 _assetId) external pure returns (address) {
        return _assetId == BASE_TOKEN_ASSET_ID ? address(0x800a) : address(0);
    }
}
