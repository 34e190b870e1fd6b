// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

interface IL1Messenger {
    function sendToL1(bytes calldata _message) external returns (bytes32);
}

/// EVM stand-in for ZKsync's L2BaseToken system contract at 0x…800a, with its ABI. On ZKsync it
/// holds every ETH balance; here balances are the EVM's own, so it reads them (`balanceOf` takes
/// the address as a uint256 and truncates it, as the BALANCE opcode does) and keeps only
/// `totalSupply`: the ETH funded at genesis, less what withdrawals burnt. Withdrawals are
/// ZKsync's: burn msg.value, send the L2→L1 message through the L1Messenger, emit the event.
contract L2BaseToken {
    /// Slot 0: set at genesis to the ETH funded there (src/core/exec/genesis.ts).
    uint256 public totalSupply;

    address private constant L1_MESSENGER = 0x0000000000000000000000000000000000008008;

    /// IMailbox.finalizeEthWithdrawal(uint256,uint256,uint16,bytes,bytes32[]): the L1 call a
    /// withdrawal message is made for.
    bytes4 private constant FINALIZE_ETH_WITHDRAWAL = 0x6c0960f9;

    event Mint(address indexed account, uint256 amount);
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Withdrawal(address indexed _l2Sender, address indexed _l1Receiver, uint256 _amount);
    event WithdrawalWithMessage(address indexed _l2Sender, address indexed _l1Receiver, uint256 _amount, bytes _additionalData);

    error Unauthorized(address);

    function name() external pure returns (string memory) {
        return "Ether";
    }

    function symbol() external pure returns (string memory) {
        return "ETH";
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function balanceOf(uint256 _account) external view returns (uint256) {
        return address(uint160(_account)).balance;
    }

    /// On ZKsync only the bootloader and the system contracts that move msg.value call these; none
    /// of them exists here (the EVM moves ETH itself), so every caller is unauthorized.
    function transferFromTo(address, address, uint256) external view {
        revert Unauthorized(msg.sender);
    }

    function mint(address, uint256) external view {
        revert Unauthorized(msg.sender);
    }

    function withdraw(address _l1Receiver) external payable {
        uint256 amount = _burnMsgValue();
        IL1Messenger(L1_MESSENGER).sendToL1(abi.encodePacked(FINALIZE_ETH_WITHDRAWAL, _l1Receiver, amount));
        emit Withdrawal(msg.sender, _l1Receiver, amount);
    }

    function withdrawWithMessage(address _l1Receiver, bytes calldata _additionalData) external payable {
        uint256 amount = _burnMsgValue();
        IL1Messenger(L1_MESSENGER).sendToL1(
            abi.encodePacked(FINALIZE_ETH_WITHDRAWAL, _l1Receiver, amount, msg.sender, _additionalData)
        );
        emit WithdrawalWithMessage(msg.sender, _l1Receiver, amount, _additionalData);
    }

    /// The ETH must leave circulation, as on ZKsync. An account created in this transaction that
    /// self-destructs to itself burns its balance (EIP-6780 keeps that for same-transaction
    /// creations), so msg.value goes to a fresh contract whose init code is ADDRESS SELFDESTRUCT
    /// (0x30ff): after the call no account holds it.
    function _burnMsgValue() private returns (uint256 amount) {
        amount = msg.value;
        if (amount == 0) return 0;
        totalSupply -= amount;
        address burner;
        assembly {
            mstore(0, shl(240, 0x30ff))
            burner := create(amount, 0, 2)
        }
        require(burner != address(0), "L2BaseToken: the burn failed");
    }
}
