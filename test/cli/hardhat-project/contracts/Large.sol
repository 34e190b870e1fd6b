// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Deploys 30,000 bytes of code (zeros: STOP), over EIP-170's 24,576: needs Hardhat's
/// allowUnlimitedContractSize, or pagenode's --disable-code-size-limit.
contract Large {
    constructor() {
        assembly {
            return(0, 30000)
        }
    }
}
