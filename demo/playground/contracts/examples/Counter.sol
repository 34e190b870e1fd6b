// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A counter anyone can bump or set, with the two ways a contract refuses: `require` with a
/// reason string, and a custom error carrying values.
contract Counter {
    uint256 public constant MAX = 1_000_000;

    uint256 public count;
    address public lastCaller;
    mapping(address => uint256) public tips;

    event Incremented(address indexed by, uint256 count);
    event CountSet(address indexed by, uint256 previous, uint256 count);
    event Tipped(address indexed by, uint256 amount);

    error TooLarge(uint256 value, uint256 max);

    function increment() external {
        count += 1;
        lastCaller = msg.sender;
        emit Incremented(msg.sender, count);
    }

    /// Try 0 (a `require` reason) or more than MAX (a custom error).
    function set(uint256 value) external {
        require(value > 0, "Counter: value must be positive");
        if (value > MAX) revert TooLarge(value, MAX);
        emit CountSet(msg.sender, count, value);
        count = value;
        lastCaller = msg.sender;
    }

    /// A payable function: the playground shows a value field for it.
    function tip() external payable {
        require(msg.value > 0, "Counter: send some ether");
        tips[msg.sender] += msg.value;
        emit Tipped(msg.sender, msg.value);
    }

    function balance() external view returns (uint256) {
        return address(this).balance;
    }
}
