// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// A test fixture that exercises what the node must get right: storage and refunds, every kind
/// of revert, events, block context, and gas-hungry loops.
contract Probe {
    uint256 public value;
    mapping(uint256 => uint256) public slots;

    event ValueSet(address indexed by, uint256 indexed value, string note);
    event Ping(uint256 indexed n);

    error Custom(uint256 code, string why);

    function set(uint256 v) external {
        value = v;
        emit ValueSet(msg.sender, v, "set");
    }

    /// Fills `n` slots, then `clear` empties them: clearing refunds gas, which a single run's
    /// gasUsed hides from a naive estimate.
    function fill(uint256 n) external {
        for (uint256 i = 0; i < n; i++) slots[i] = i + 1;
    }

    function clear(uint256 n) external {
        for (uint256 i = 0; i < n; i++) slots[i] = 0;
    }

    function ping(uint256 count) external {
        for (uint256 i = 0; i < count; i++) emit Ping(i);
    }

    function failWith(string calldata reason) external pure {
        revert(reason);
    }

    function failCustom(uint256 code) external pure {
        revert Custom(code, "custom");
    }

    function failBare() external pure {
        revert();
    }

    function divide(uint256 a, uint256 b) external pure returns (uint256) {
        return a / b;
    }

    function assertFalse() external pure {
        assert(false);
    }

    function burn(uint256 rounds) external pure returns (uint256 acc) {
        for (uint256 i = 0; i < rounds; i++) acc = uint256(keccak256(abi.encode(acc, i)));
    }

    function context() external view returns (uint256 number, uint256 timestamp, uint256 basefee, uint256 chainid, address coinbase) {
        return (block.number, block.timestamp, block.basefee, block.chainid, block.coinbase);
    }

    function hashOf(uint256 number) external view returns (bytes32) {
        return blockhash(number);
    }

    function balanceOfCaller() external view returns (uint256) {
        return msg.sender.balance;
    }

    receive() external payable {}
}
