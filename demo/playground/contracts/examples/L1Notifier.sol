// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// ZKsync's L1Messenger system contract: what a contract calls to send a message to L1. The
/// message is proven on L1 once its batch is: see the receipt's l2ToL1Logs, zks_getL2ToL1LogProof
/// and the L2→L1 messages panel.
interface IL1Messenger {
    function sendToL1(bytes calldata _message) external returns (bytes32);
}

/// Sends L2→L1 messages and remembers the hash of the last one.
contract L1Notifier {
    IL1Messenger public constant L1_MESSENGER = IL1Messenger(0x0000000000000000000000000000000000008008);

    uint256 public sent;
    bytes32 public lastHash;

    event Notified(address indexed by, bytes32 indexed hash, bytes message);

    /// Sends `text` (its UTF-8 bytes) to L1; returns the message's keccak256 hash.
    function notify(string calldata text) external returns (bytes32 hash) {
        return _send(bytes(text));
    }

    /// Sends arbitrary bytes to L1.
    function notifyBytes(bytes calldata message) external returns (bytes32 hash) {
        return _send(message);
    }

    function _send(bytes memory message) private returns (bytes32 hash) {
        require(message.length > 0, "L1Notifier: empty message");
        hash = L1_MESSENGER.sendToL1(message);
        sent += 1;
        lastHash = hash;
        emit Notified(msg.sender, hash, message);
    }
}
