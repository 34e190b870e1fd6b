// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {BOOTLOADER, Transaction} from "./Paymasters.sol";

/// ZKsync's IAccount (era-contracts' IAccount.sol): what the bootloader calls on a contract account.
interface IAccount {
    function validateTransaction(bytes32 txHash, bytes32 suggestedSignedHash, Transaction calldata transaction)
        external
        payable
        returns (bytes4 magic);

    function executeTransaction(bytes32 txHash, bytes32 suggestedSignedHash, Transaction calldata transaction) external payable;

    function payForTransaction(bytes32 txHash, bytes32 suggestedSignedHash, Transaction calldata transaction) external payable;

    function prepareForPaymaster(bytes32 txHash, bytes32 possibleSignedHash, Transaction calldata transaction) external payable;
}

/// The NonceHolder call an account makes while it validates (era-contracts' INonceHolder.sol).
interface INonceHolder {
    function incrementMinNonceIfEquals(uint256 expectedNonce) external;
}

interface IERC20Allowance {
    function allowance(address owner, address spender) external view returns (uint256);
    function approve(address spender, uint256 value) external returns (bool);
}

address constant NONCE_HOLDER = address(0x8003);
bytes4 constant ACCOUNT_VALIDATION_SUCCESS_MAGIC = IAccount.validateTransaction.selector;

/// What every account here does the same way; a subclass says whose signature is valid.
/// Written as ZKsync's guides write accounts, so the same source compiles with zksolc too
/// (there the NonceHolder call would go through SystemContractsCaller).
abstract contract BootloaderAccount is IAccount {
    event Executed(address indexed to, uint256 value);

    modifier onlyBootloader() {
        require(msg.sender == BOOTLOADER, "only the bootloader");
        _;
    }

    function validateTransaction(bytes32, bytes32 suggestedSignedHash, Transaction calldata transaction)
        external
        payable
        onlyBootloader
        returns (bytes4 magic)
    {
        useNonce(transaction.nonce);
        // With a paymaster the account needs only the value; without one, the fee as well.
        uint256 fee = transaction.paymaster == 0 ? transaction.gasLimit * transaction.maxFeePerGas : 0;
        require(fee + transaction.value <= address(this).balance, "Not enough balance for fee + value");
        // A wrong signature is not a revert: fee estimation runs this with a dummy signature.
        return isValidSignature(suggestedSignedHash, transaction.signature) ? ACCOUNT_VALIDATION_SUCCESS_MAGIC : bytes4(0);
    }

    function payForTransaction(bytes32, bytes32, Transaction calldata transaction) external payable onlyBootloader {
        (bool ok,) = payable(BOOTLOADER).call{value: transaction.gasLimit * transaction.maxFeePerGas}("");
        require(ok, "the account could not pay the bootloader");
    }

    function prepareForPaymaster(bytes32, bytes32, Transaction calldata transaction) external payable onlyBootloader {
        bytes calldata input = transaction.paymasterInput;
        require(input.length >= 4, "paymaster input shorter than a selector");
        if (bytes4(input[0:4]) == bytes4(keccak256("approvalBased(address,uint256,bytes)"))) {
            (address token, uint256 minAllowance) = abi.decode(input[4:68], (address, uint256));
            address paymaster = address(uint160(transaction.paymaster));
            if (IERC20Allowance(token).allowance(address(this), paymaster) < minAllowance) {
                require(IERC20Allowance(token).approve(paymaster, minAllowance), "approval refused");
            }
        } else {
            require(bytes4(input[0:4]) == bytes4(keccak256("general(bytes)")), "unsupported paymaster flow");
        }
    }

    function executeTransaction(bytes32, bytes32, Transaction calldata transaction) external payable onlyBootloader {
        address to = address(uint160(transaction.to));
        (bool ok, bytes memory result) = to.call{value: transaction.value}(transaction.data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        emit Executed(to, transaction.value);
    }

    /// Marks the nonce used, as ZKsync's DefaultAccount does, with the interface call ZKsync's
    /// guides write (with zksolc it goes through SystemContractsCaller).
    function useNonce(uint256 nonce) internal virtual {
        INonceHolder(NONCE_HOLDER).incrementMinNonceIfEquals(nonce);
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) internal view virtual returns (bool);

    /// The signer of a 65-byte r‖s‖v signature, or 0 when it is not one.
    function recover(bytes32 hash, bytes calldata signature) internal pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        // The lower half of s only, as ZKsync's DefaultAccount accepts.
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) return address(0);
        if (v != 27 && v != 28) return address(0);
        return ecrecover(hash, v, r, s);
    }

    receive() external payable {}
}

/// An account that one ECDSA key owns (zksync-ethers' ECDSASmartAccount, viem's toSinglesigSmartAccount).
contract EcdsaAccount is BootloaderAccount {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) internal view override returns (bool) {
        address signer = recover(hash, signature);
        return signer != address(0) && signer == owner;
    }
}

/// An EcdsaAccount that never calls NonceHolder: its nonce is used all the same.
contract SilentNonceAccount is EcdsaAccount {
    constructor(address owner_) EcdsaAccount(owner_) {}

    function useNonce(uint256) internal pure override {}
}

/// An EcdsaAccount that marks the wrong nonce: NonceHolder refuses, and so its validation fails.
contract WrongNonceAccount is EcdsaAccount {
    constructor(address owner_) EcdsaAccount(owner_) {}

    function useNonce(uint256 nonce) internal override {
        super.useNonce(nonce + 1);
    }
}

/// An account whose signature is not ECDSA at all: any bytes whose keccak256 it was given.
contract PasswordAccount is BootloaderAccount {
    bytes32 public immutable passwordHash;

    constructor(bytes32 passwordHash_) {
        passwordHash = passwordHash_;
    }

    function isValidSignature(bytes32, bytes calldata signature) internal view override returns (bool) {
        return keccak256(signature) == passwordHash;
    }
}

/// A two-owner multisig: both sign, their signatures concatenated (zksync-ethers' MultisigECDSASmartAccount).
contract TwoOwnerAccount is BootloaderAccount {
    address public immutable owner1;
    address public immutable owner2;

    constructor(address owner1_, address owner2_) {
        owner1 = owner1_;
        owner2 = owner2_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) internal view override returns (bool) {
        if (signature.length != 130) return false;
        address first = recover(hash, signature[0:65]);
        address second = recover(hash, signature[65:130]);
        return first != address(0) && first == owner1 && second == owner2;
    }
}
