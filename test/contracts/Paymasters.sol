// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// ZKsync's Transaction struct (era-contracts' TransactionHelper.sol), as the bootloader passes it.
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

/// The ERC-20 calls the approval-based paymaster makes.
interface IERC20Fee {
    function allowance(address owner, address spender) external view returns (uint256);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

address constant BOOTLOADER = address(0x8001);
bytes4 constant PAYMASTER_VALIDATION_SUCCESS_MAGIC = IPaymaster.validateAndPayForPaymasterTransaction.selector;

/// Pays the fee of every transaction that names it with the `general(bytes)` flow.
contract GeneralPaymaster is IPaymaster {
    event Paid(address indexed account, uint256 fee);
    event PostTransaction(bytes32 indexed txHash, ExecutionResult result, uint256 maxRefundedGas);

    modifier onlyBootloader() {
        require(msg.sender == BOOTLOADER, "only the bootloader");
        _;
    }

    function validateAndPayForPaymasterTransaction(bytes32, bytes32, Transaction calldata transaction)
        external
        payable
        onlyBootloader
        returns (bytes4 magic, bytes memory context)
    {
        require(bytes4(transaction.paymasterInput[0:4]) == bytes4(keccak256("general(bytes)")), "unsupported paymaster flow");
        uint256 fee = transaction.gasLimit * transaction.maxFeePerGas;
        (bool ok,) = payable(BOOTLOADER).call{value: fee}("");
        require(ok, "the paymaster could not pay the bootloader");
        emit Paid(address(uint160(transaction.from)), fee);
        return (PAYMASTER_VALIDATION_SUCCESS_MAGIC, abi.encode(transaction.from));
    }

    function postTransaction(bytes calldata, Transaction calldata, bytes32 txHash, bytes32, ExecutionResult txResult, uint256 maxRefundedGas)
        external
        payable
        onlyBootloader
    {
        emit PostTransaction(txHash, txResult, maxRefundedGas);
    }

    receive() external payable {}
}

/// Pays the fee in ETH for a fixed fee in `token`, taken with the `approvalBased` flow's allowance.
contract ApprovalPaymaster is IPaymaster {
    address public immutable token;
    uint256 public immutable tokenFee;

    constructor(address token_, uint256 tokenFee_) {
        token = token_;
        tokenFee = tokenFee_;
    }

    function validateAndPayForPaymasterTransaction(bytes32, bytes32, Transaction calldata transaction)
        external
        payable
        returns (bytes4 magic, bytes memory context)
    {
        require(msg.sender == BOOTLOADER, "only the bootloader");
        require(bytes4(transaction.paymasterInput[0:4]) == bytes4(keccak256("approvalBased(address,uint256,bytes)")), "unsupported paymaster flow");
        (address feeToken,,) = abi.decode(transaction.paymasterInput[4:], (address, uint256, bytes));
        require(feeToken == token, "unsupported token");
        address user = address(uint160(transaction.from));
        require(IERC20Fee(token).allowance(user, address(this)) >= tokenFee, "allowance too low");
        require(IERC20Fee(token).transferFrom(user, address(this), tokenFee), "token fee not paid");
        (bool ok,) = payable(BOOTLOADER).call{value: transaction.gasLimit * transaction.maxFeePerGas}("");
        require(ok, "the paymaster could not pay the bootloader");
        return (PAYMASTER_VALIDATION_SUCCESS_MAGIC, "");
    }

    function postTransaction(bytes calldata, Transaction calldata, bytes32, bytes32, ExecutionResult, uint256) external payable {}

    receive() external payable {}
}
