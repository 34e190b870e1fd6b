// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "hardhat/console.sol";

/// Prints with Hardhat's console.log (shipped with the playground, like OpenZeppelin): in its
/// constructor, in a transaction and in a view call. The playground shows the lines under the
/// deployment, the transaction and the call's result, and in the explorer's transaction view.
contract Greeter {
    string public greeting;

    constructor(string memory greeting_) {
        console.log("Deploying a Greeter with greeting:", greeting_);
        greeting = greeting_;
    }

    function setGreeting(string calldata greeting_) external {
        console.log("Changing the greeting from '%s' to '%s'", greeting, greeting_);
        greeting = greeting_;
    }

    /// A view prints too: console.log is a static call.
    function greet(string calldata name) external view returns (string memory) {
        console.log("greet(%s) called by %s", name, msg.sender);
        return string.concat(greeting, ", ", name, "!");
    }
}
