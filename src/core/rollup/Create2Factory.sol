// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// EVM stand-in for ZKsync's Create2Factory at 0x…10000, where zksync-ethers' and viem's
/// `create2` deployments go. As on ZKsync it relays the call, calldata and value unchanged, to the
/// ContractDeployer (0x…8006), and answers what that answers: for EraVM bytecode hashes, the
/// ContractDeployer's refusal, which says what to do instead.
contract Create2Factory {
    address private constant DEPLOYER = 0x0000000000000000000000000000000000008006;

    function create2(bytes32, bytes32, bytes calldata) external payable returns (address) {
        _relayCall();
    }

    function create2Account(bytes32, bytes32, bytes calldata, uint8) external payable returns (address) {
        _relayCall();
    }

    function _relayCall() private {
        (bool ok, bytes memory answer) = DEPLOYER.call{value: msg.value}(msg.data);
        assembly {
            switch ok
            case 0 { revert(add(answer, 32), mload(answer)) }
            default { return(add(answer, 32), mload(answer)) }
        }
    }
}
