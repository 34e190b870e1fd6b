// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// ZKsync's Transaction struct (era-contracts' TransactionHelper.sol): what the bootloader passes
/// a paymaster. Addresses are uint256 here, as on ZKsync.
struct Transaction {
    uint256 txType;
    uint256 from;
    uint256 to;
    uint256 gasLimit;
    uint256 gasPerPubdataByteLimit;
    uint256 maxFeePerGas;
    uint256 maxPriorityFeePerGas;
    uint256 paymaster;
    uint256 nonce;
    uint256 value;
    uint256[4] reserved;
    bytes data;
    bytes signature;
    bytes32[] factoryDeps;
    bytes paymasterInput;
    bytes reservedDynamic;
}

enum ExecutionResult {
    Revert,
    Success
}

/// ZKsync's IPaymaster (era-contracts' IPaymaster.sol).
interface IPaymaster {
    function validateAndPayForPaymasterTransaction(bytes32 txHash, bytes32 suggestedSignedHash, Transaction calldata transaction)
        external
        payable
        returns (bytes4 magic, bytes memory context);

    function postTransaction(
        bytes calldata context,
        Transaction calldata transaction,
        bytes32 txHash,
        bytes32 suggestedSignedHash,
        ExecutionResult txResult,
        uint256 maxRefundedGas
    ) external payable;
}

/// Pays the fee of any transaction that names it with the `general(bytes)` flow, so an account
/// with no ETH can use the chain. Fund it first (send it ETH), then in a deployed contract's card
/// fill "Paid by paymaster at" with this contract's address and send a write.
///
/// The same source compiles with zksolc for a real ZKsync chain.
contract GaslessPaymaster is IPaymaster {
    /// The bootloader, the only caller ZKsync lets run a paymaster's steps.
    address public constant BOOTLOADER = address(0x8001);

    /// How many fees it paid, and to whom the last went.
    uint256 public paid;
    address public lastAccount;

    event Paid(address indexed account, uint256 fee);

    modifier onlyBootloader() {
        require(msg.sender == BOOTLOADER, "only the bootloader");
        _;
    }

    /// Step 1: agree to pay, and pay the bootloader the most the transaction can cost
    /// (gasLimit × maxFeePerGas). What the transaction does not use comes back afterwards.
    function validateAndPayForPaymasterTransaction(bytes32, bytes32, Transaction calldata transaction)
        external
        payable
        onlyBootloader
        returns (bytes4 magic, bytes memory context)
    {
        require(transaction.paymasterInput.length >= 4, "no paymaster flow");
        require(bytes4(transaction.paymasterInput[0:4]) == bytes4(keccak256("general(bytes)")), "unsupported paymaster flow");
        uint256 fee = transaction.gasLimit * transaction.maxFeePerGas;
        (bool ok,) = payable(BOOTLOADER).call{value: fee}("");
        require(ok, "the paymaster could not pay the bootloader");
        paid += 1;
        lastAccount = address(uint160(transaction.from));
        emit Paid(lastAccount, fee);
        // The magic value is this function's selector: anything else refuses the transaction.
        return (IPaymaster.validateAndPayForPaymasterTransaction.selector, "");
    }

    /// Step 2, after the transaction ran (succeeded or reverted): nothing to do here.
    function postTransaction(bytes calldata, Transaction calldata, bytes32, bytes32, ExecutionResult, uint256)
        external
        payable
        onlyBootloader
    {}

    /// Funding: send it ETH.
    receive() external payable {}
}
