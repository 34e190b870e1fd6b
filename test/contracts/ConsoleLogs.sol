// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// console.log as contracts call it: a library sending ABI-encoded `log(...)` calls to Hardhat's
/// console address, as Hardhat's console.sol does (written here with the overloads the tests need,
/// and one with the `uint` spelling early console.sol copies sent).
library console {
    address constant CONSOLE_ADDRESS = 0x000000000000000000636F6e736F6c652e6c6f67;

    function send(bytes memory payload) private view {
        (bool ok, ) = CONSOLE_ADDRESS.staticcall(payload);
        ok;
    }

    function log() internal view { send(abi.encodeWithSignature("log()")); }
    function log(string memory p0) internal view { send(abi.encodeWithSignature("log(string)", p0)); }
    function log(string memory p0, uint256 p1) internal view { send(abi.encodeWithSignature("log(string,uint256)", p0, p1)); }
    function log(string memory p0, address p1) internal view { send(abi.encodeWithSignature("log(string,address)", p0, p1)); }
    function log(bool p0, address p1) internal view { send(abi.encodeWithSignature("log(bool,address)", p0, p1)); }
    function log(string memory p0, uint256 p1, uint256 p2, string memory p3) internal view {
        send(abi.encodeWithSignature("log(string,uint256,uint256,string)", p0, p1, p2, p3));
    }
    function logInt(int256 p0) internal view { send(abi.encodeWithSignature("log(int256)", p0)); }
    function logLegacyUint(uint256 p0) internal view { send(abi.encodeWithSignature("log(uint)", p0)); }
    function logBytes(bytes memory p0) internal view { send(abi.encodeWithSignature("log(bytes)", p0)); }
    function logBytes32(bytes32 p0) internal view { send(abi.encodeWithSignature("log(bytes32)", p0)); }
}

/// A test fixture printing with console.log in a constructor, in transactions, in calls, in a
/// frame that reverts, and in every argument shape the decoder handles.
contract ConsoleLogs {
    uint256 public count;

    constructor() {
        console.log("deployed by %s", msg.sender);
    }

    function add(uint256 n) external returns (uint256) {
        count += n;
        console.log("count is now %d", count);
        return count;
    }

    function everyKind() external view {
        console.log();
        console.logInt(-42);
        console.logLegacyUint(7);
        console.log(true, address(this));
        console.logBytes32(bytes32("pagenode"));
        console.logBytes(hex"c0ffee");
        console.log("%s + %s = %s", 1, 2, "three");
        console.log("100%% %o", 5);
    }

    function fail() external view {
        console.log("about to fail");
        revert("nope");
    }

    /// A console call in a frame that reverts is printed all the same, as Hardhat and anvil do.
    function survive() external {
        try this.fail() {} catch {}
        count += 1;
        console.log("survived");
    }

    /// The same call to `target`: the console address costs what any empty account costs.
    function ping(address target) external returns (bool ok) {
        (ok, ) = target.staticcall(abi.encodeWithSignature("log(string)", "ping"));
        count += 1;
    }
}
