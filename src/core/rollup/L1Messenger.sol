// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// EVM stand-in for ZKsync's L1Messenger system contract at 0x…8008. On ZKsync it also writes
/// the L2→L1 log through the bootloader; here the node derives that log from the event when it
/// mines the block, so the event is the whole contract. Same selector (sendToL1(bytes) =
/// 0x62f84b24), same event, same return value as the real one.
contract L1Messenger {
    event L1MessageSent(address indexed _sender, bytes32 indexed _hash, bytes _message);

    function sendToL1(bytes calldata _message) external returns (bytes32 hash) {
        hash = keccak256(_message);
        emit L1MessageSent(msg.sender, hash, _message);
    }
}
