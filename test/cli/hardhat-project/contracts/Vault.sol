// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Ether locked until a time, released to its owner: custom errors, require strings, panics, events.
contract Vault {
    error TooEarly(uint256 nowTime, uint256 unlockTime);
    error NotOwner(address caller);

    event Deposited(address indexed from, uint256 amount);
    event Withdrawn(address indexed to, uint256 amount, uint256 when);
    event CounterSet(uint256 value);

    address public owner;
    uint256 public unlockTime;
    uint256 public counter;
    uint256[] private entries;

    constructor(uint256 unlockTime_) payable {
        require(unlockTime_ > block.timestamp, "Unlock time should be in the future");
        owner = msg.sender;
        unlockTime = unlockTime_;
    }

    receive() external payable {
        emit Deposited(msg.sender, msg.value);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    function withdraw() external onlyOwner {
        if (block.timestamp < unlockTime) revert TooEarly(block.timestamp, unlockTime);
        uint256 amount = address(this).balance;
        emit Withdrawn(owner, amount, block.timestamp);
        (bool ok, ) = owner.call{value: amount}("");
        require(ok, "Transfer failed");
    }

    function pay(address payable to, uint256 amount) external onlyOwner {
        require(amount <= address(this).balance, "Not enough ether");
        to.transfer(amount);
    }

    function setOwner(address owner_) external onlyOwner {
        owner = owner_;
    }

    function setCounter(uint256 value) external onlyOwner {
        counter = value;
        emit CounterSet(value);
    }

    function fail() external {
        counter += 1;
        revert();
    }

    function divide(uint256 a, uint256 b) external pure returns (uint256) {
        return a / b;
    }

    function add(uint256 a, uint256 b) external pure returns (uint256) {
        return a + b;
    }

    function entry(uint256 index) external view returns (uint256) {
        return entries[index];
    }

    function blockInfo() external view returns (uint256 number, uint256 timestamp, uint256 baseFee) {
        return (block.number, block.timestamp, block.basefee);
    }
}
