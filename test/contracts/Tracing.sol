// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// A callee for the tracer fixtures: storage, an event, a view, a revert, an endless loop.
contract Leaf {
    uint256 public stored;

    event Stored(uint256 value);

    constructor() payable {}

    /// Payable: a DELEGATECALL into it inherits the caller's msg.value.
    function store(uint256 v) external payable {
        stored = v;
        emit Stored(v);
    }

    function peek() external view returns (uint256) {
        return stored;
    }

    /// Not marked view on purpose: Solidity reaches it with CALL, even from a static context.
    function ping() external returns (uint256) {
        return stored + 1;
    }

    function fail(string calldata reason) external pure {
        revert(reason);
    }

    /// Logs, then reverts: the log never happened.
    function storeThenFail(uint256 v) external {
        stored = v;
        emit Stored(v);
        revert("undone");
    }

    function spin() external pure {
        uint256 i;
        while (true) i++;
    }

    /// Under EIP-6780 a contract created earlier only hands over its balance.
    function destroy(address payable beneficiary) external {
        selfdestruct(beneficiary);
    }

    receive() external payable {}
}

/// Makes every kind of frame the tracers must get right, one scenario per function.
contract Tracing {
    uint256 public counter;

    event Step(uint256 indexed n, address sender);

    /// CALL (which logs), STATICCALL, and DELEGATECALL into the leaf's code on our own storage.
    function nested(Leaf leaf, uint256 v) external payable returns (uint256 seen) {
        emit Step(1, msg.sender);
        leaf.store(v);
        seen = leaf.peek();
        (bool ok, ) = address(leaf).delegatecall(abi.encodeCall(Leaf.store, (v + 1)));
        require(ok, "delegatecall failed");
        emit Step(2, msg.sender);
    }

    /// CREATE, then CREATE2 with `salt`, each funded with `msg.value / 2`.
    function creates(bytes32 salt) external payable returns (address a, address b) {
        a = address(new Leaf{value: msg.value / 2}());
        b = address(new Leaf{value: msg.value / 2, salt: salt}());
    }

    /// A value transfer to any address, with the 2300 gas stipend.
    function pay(address payable to) external payable {
        to.transfer(msg.value);
    }

    /// A revert the caller catches: the transaction succeeds.
    function caught(Leaf leaf) external returns (string memory) {
        try leaf.fail("leaf says no") {
            return "";
        } catch Error(string memory reason) {
            counter += 1;
            return reason;
        }
    }

    /// A callee that logs and then reverts, caught: its log is not part of the transaction.
    function undone(Leaf leaf) external {
        try leaf.storeThenFail(3) {} catch {}
        emit Step(3, msg.sender);
    }

    /// A callee given 50,000 gas runs out of it; the caller carries on.
    function starve(Leaf leaf) external returns (bool ok) {
        (ok, ) = address(leaf).call{gas: 50_000}(abi.encodeCall(Leaf.spin, ()));
        counter += 1;
    }

    /// Two precompiles: sha256 (0x02) and ecrecover (0x01).
    function hashes(bytes calldata data) external view returns (bytes32 digest, address signer) {
        digest = sha256(data);
        signer = ecrecover(digest, 27, bytes32(uint256(1)), bytes32(uint256(2)));
    }

    /// A static frame that makes both a CALL (to a non-view function) and a STATICCALL.
    function staticRelay(Leaf leaf) external view returns (uint256 a, uint256 b) {
        (bool ok, bytes memory out) = address(this).staticcall(abi.encodeCall(this.relay, (leaf)));
        require(ok, "relay failed");
        (a, b) = abi.decode(out, (uint256, uint256));
    }

    function relay(Leaf leaf) external returns (uint256, uint256) {
        return (leaf.ping(), leaf.peek());
    }

    /// Has `leaf` self-destruct in favour of `beneficiary`.
    function destroy(Leaf leaf, address payable beneficiary) external {
        leaf.destroy(beneficiary);
    }

    /// A contract created, funded and destroyed in one transaction (EIP-6780: really deleted).
    function ephemeral(address payable beneficiary) external payable returns (address leaf) {
        Leaf created = new Leaf{value: msg.value}();
        created.destroy(beneficiary);
        leaf = address(created);
    }

    function fail(string calldata reason) external pure {
        revert(reason);
    }
}
