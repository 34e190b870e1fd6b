// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// EVM stand-in for ZKsync's L2AssetRouter at 0x…10003 (the L2 shared bridge), for what clients
/// read of it: zksync-ethers' getDefaultBridgeAddresses() asks it for its L1 counterpart. There is
/// no L1 and no bridged token here, so that counterpart is a fixed address (zks_getBridgeContracts
/// names the same one) and token withdrawals are refused with the reason.
contract L2AssetRouter {
    /// keccak256("pagenode: L1 asset router")'s last 20 bytes: nobody's account
    /// (src/core/rollup/l1Settlement.ts, L1_ASSET_ROUTER).
    address public constant L1_ASSET_ROUTER = 0x6E40BCf4DB73B674c14e899EBdcFB42df571D7d9;

    fallback() external payable {
        revert("L2AssetRouter: no bridged tokens on this node; withdraw ETH through L2BaseToken (0x...800a) withdraw(l1Receiver)");
    }
}
