// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// EVM stand-in for ZKsync's ContractDeployer system contract at 0x…8006, with its ABI.
///
/// - The address helpers are ZKsync's (EraVM's derivations, with its prefixes), so clients that
///   compute addresses as ZKsync does get the same answers from the chain.
/// - `createEVM` and `create2EVM` deploy EVM bytecode for their caller: the node runs them as the
///   caller's own CREATE / CREATE2 (src/core/exec/contractDeployerHook.ts), so the new contract's
///   address and deployer are ZKsync's (Ethereum's derivation from the caller), and this code's
///   bodies below only run if that hook is missing.
/// - `create`, `create2`, `createAccount` and `create2Account` take the hash of EraVM bytecode
///   (zksolc's output, sent as a factory dependency). This node runs the EVM only, so they revert
///   and say what to do instead: never a success with no contract.
/// - Every account is an EOA or a contract: no contract is a custom account here.
contract ContractDeployer {
    enum AccountAbstractionVersion {
        None,
        Version1
    }

    enum AccountNonceOrdering {
        KeyedSequential,
        __DEPRECATED_Arbitrary
    }

    enum AllowedBytecodeTypes {
        EraVm,
        EraVmAndEVM
    }

    struct AccountInfo {
        AccountAbstractionVersion supportedAAVersion;
        AccountNonceOrdering nonceOrdering;
    }

    event ContractDeployed(address indexed deployerAddress, bytes32 indexed bytecodeHash, address indexed contractAddress);

    /// keccak256("zksyncCreate2") and keccak256("zksyncCreate"): era's Constants.sol.
    bytes32 private constant CREATE2_PREFIX = 0x2020dba91b30cc0006188af794c2fb30dd8520db7e2c088b7fc7c103c00ca494;
    bytes32 private constant CREATE_PREFIX = 0x63bae3a9951d38e8a3fbb7b70909afc1200610fc5bc55ade242f815974674f23;
    uint160 private constant MAX_SYSTEM_CONTRACT_ADDRESS = 0xffff;

    string private constant ERAVM_REFUSED =
        "ContractDeployer: EraVM bytecode (zksolc output) cannot run on this node, which runs EVM bytecode only; compile the contract with solc and deploy its EVM bytecode in a transaction without `to` (ethers' ContractFactory, viem's deployContract from viem/actions), or call createEVM(initCode)";

    /// ZKsync chains with EVM emulation allow both; EVM bytecode is all this node runs.
    function allowedBytecodeTypesToDeploy() external pure returns (AllowedBytecodeTypes) {
        return AllowedBytecodeTypes.EraVmAndEVM;
    }

    function getNewAddressCreate2(address _sender, bytes32 _bytecodeHash, bytes32 _salt, bytes calldata _input)
        public
        pure
        returns (address newAddress)
    {
        bytes32 hash = keccak256(
            bytes.concat(CREATE2_PREFIX, bytes32(uint256(uint160(_sender))), _salt, _bytecodeHash, keccak256(_input))
        );
        newAddress = address(uint160(uint256(hash)));
    }

    function getNewAddressCreate(address _sender, uint256 _senderNonce) public pure returns (address newAddress) {
        bytes32 hash = keccak256(bytes.concat(CREATE_PREFIX, bytes32(uint256(uint160(_sender))), bytes32(_senderNonce)));
        newAddress = address(uint160(uint256(hash)));
    }

    function getAccountInfo(address) external pure returns (AccountInfo memory info) {
        return info;
    }

    /// As era answers: an address without code above the system range is an EOA, an account.
    function extendedAccountVersion(address _address) external view returns (AccountAbstractionVersion) {
        if (uint160(_address) > MAX_SYSTEM_CONTRACT_ADDRESS && _address.code.length == 0) {
            return AccountAbstractionVersion.Version1;
        }
        return AccountAbstractionVersion.None;
    }

    function create(bytes32, bytes32, bytes calldata) external payable returns (address) {
        revert(ERAVM_REFUSED);
    }

    function create2(bytes32, bytes32, bytes calldata) external payable returns (address) {
        revert(ERAVM_REFUSED);
    }

    function createAccount(bytes32, bytes32, bytes calldata, AccountAbstractionVersion) external payable returns (address) {
        revert(ERAVM_REFUSED);
    }

    function create2Account(bytes32, bytes32, bytes calldata, AccountAbstractionVersion)
        external
        payable
        returns (address)
    {
        revert(ERAVM_REFUSED);
    }

    function createEVM(bytes calldata) external payable returns (uint256, address) {
        revert("ContractDeployer: createEVM is run by the node, which did not");
    }

    function create2EVM(bytes32, bytes calldata) external payable returns (uint256, address) {
        revert("ContractDeployer: create2EVM is run by the node, which did not");
    }

    function updateAccountVersion(AccountAbstractionVersion) external pure {
        revert("ContractDeployer: custom accounts do not run on this node (no native account abstraction)");
    }

    function updateNonceOrdering(AccountNonceOrdering) external pure {
        revert("ContractDeployer: only KeyedSequential nonce ordering exists");
    }
}
