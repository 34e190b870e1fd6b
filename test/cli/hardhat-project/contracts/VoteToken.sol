// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {ERC20Votes} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Votes.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";

/// An ERC-20 with EIP-2612 permits and vote checkpoints on OpenZeppelin's default clock (block numbers).
contract VoteToken is ERC20, ERC20Permit, ERC20Votes {
    constructor(uint256 supply) ERC20("Vote Token", "VOTE") ERC20Permit("Vote Token") {
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override(ERC20, ERC20Votes) {
        super._update(from, to, value);
    }

    function nonces(address owner) public view override(ERC20Permit, Nonces) returns (uint256) {
        return super.nonces(owner);
    }
}

/// The same token on an ERC-6372 timestamp clock: checkpoints keyed by block timestamps.
contract TimeVoteToken is VoteToken {
    constructor(uint256 supply) VoteToken(supply) {}

    function clock() public view override returns (uint48) {
        return uint48(block.timestamp);
    }

    // solhint-disable-next-line func-name-mixedcase
    function CLOCK_MODE() public view override returns (string memory) {
        if (clock() != uint48(block.timestamp)) revert ERC6372InconsistentClock();
        return "mode=timestamp";
    }
}
