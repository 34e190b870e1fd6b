import { Contract, ContractFactory, getCreate2Address, getCreateAddress, keccak256, type InterfaceAbi, type Log } from 'ethers'
import { createPublicClient, createWalletClient, custom, encodeFunctionData, parseAbi, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'
import { eip712WalletActions } from 'viem/zksync'
import { utils } from 'zksync-ethers'
import { expect, test } from 'vitest'
import { bytesToHex } from '../../../src/core/hexText.ts'
import { evmBytecodeHash } from '../../../src/core/rollup/bytecodeHash.ts'
import { artifacts, DEV, devWallet, eip1193, rpc, startNode } from '../../support/chain.ts'
import { startCli } from '../../support/cli.ts'
import { compileContracts } from '../../contracts/compile.mjs'
import { zksyncProvider, zksyncWallet } from '../../support/zksync.ts'
import { hexToBytes } from '@ethereumjs/util'
import { Provider, Wallet } from 'zksync-ethers'

const probe = artifacts.Probe as { abi: InterfaceAbi; bytecode: string; deployedBytecode?: string }
const DEPLOYER_ABI = [
  'function createEVM(bytes initCode) payable returns (uint256, address)',
  'function create2EVM(bytes32 salt, bytes initCode) payable returns (uint256, address)',
  'event ContractDeployed(address indexed deployerAddress, bytes32 indexed bytecodeHash, address indexed contractAddress)',
]

async function deployedProbe(provider: Provider, receipt: { logs: readonly { address: string; topics: readonly string[]; data: string }[] }) {
  const [deployed] = utils.getDeployedContracts(receipt as never)
  return new Contract(deployed.deployedAddress, probe.abi, provider)
}

test('createEVM from a 0x71 transaction (zksync-ethers): the sender deploys at its own CREATE address, a working contract', async () => {
  const node = await startNode()
  const provider = zksyncProvider(node)
  const wallet = zksyncWallet(node, 0, provider)
  const deployer = new Contract(utils.CONTRACT_DEPLOYER_ADDRESS, DEPLOYER_ABI, wallet)
  const nonce = await wallet.getNonce()
  const [, predicted] = await deployer.createEVM.staticCall(probe.bytecode)
  expect(predicted).toBe(getCreateAddress({ from: wallet.address, nonce }))

  const receipt = await (await deployer.createEVM(probe.bytecode)).wait()
  expect(receipt.status).toBe(1)
  expect(receipt.type).toBe(utils.EIP712_TX_TYPE)
  // As on ZKsync: the receipt names the contract, and ContractDeployed says who deployed what.
  expect(receipt.contractAddress).toBe(predicted)
  const contract = await deployedProbe(provider, receipt)
  expect(await contract.getAddress()).toBe(predicted)
  const code = (await rpc(node)('eth_getCode', predicted, 'latest')) as string
  const event = receipt.logs.find((log: Log) => log.address === utils.CONTRACT_DEPLOYER_ADDRESS)!
  expect(event.topics).toEqual([
    keccak256(Buffer.from('ContractDeployed(address,bytes32,address)')),
    `0x${wallet.address.slice(2).toLowerCase().padStart(64, '0')}`,
    bytesToHex(evmBytecodeHash(hexToBytes(code as Hex))),
    `0x${predicted.slice(2).toLowerCase().padStart(64, '0')}`,
  ])
  // The code is the EVM runtime, and it runs.
  await (await (contract.connect(wallet) as Contract).set(42n)).wait()
  expect(await contract.value()).toBe(42n)
  // It cost at least what a plain deployment costs (CREATE's 32,000 and the init code are charged).
  const plain = await devWallet(node, 1).sendTransaction({ data: probe.bytecode })
  const plainReceipt = (await plain.wait())!
  expect(receipt.gasUsed).toBeGreaterThanOrEqual(plainReceipt.gasUsed)
})

test('a createEVM whose gas does not cover the creation fails out of gas, all its gas used, nothing deployed', async () => {
  const node = await startNode()
  const wallet = zksyncWallet(node, 2)
  const deployer = new Contract(utils.CONTRACT_DEPLOYER_ADDRESS, DEPLOYER_ABI, wallet)
  // The intrinsic gas (82,520 with this calldata) leaves less than CREATE's 32,000 for the frame.
  const sent = await deployer.createEVM(probe.bytecode, { gasLimit: 100_000n })
  const failure = (await sent.wait().catch((e: { receipt: unknown }) => e.receipt)) as { status: number; gasUsed: bigint }
  expect(failure.status).toBe(0)
  expect(failure.gasUsed).toBe(100_000n)
  expect(await rpc(node)('eth_getCode', getCreateAddress({ from: wallet.address, nonce: 0 }), 'latest')).toBe('0x')
  const trace = (await rpc(node)('debug_traceTransaction', sent.hash, { tracer: 'callTracer' })) as { error: string }
  expect(trace.error).toBe('out of gas')
})

test('create2EVM: Ethereum CREATE2 address from the sender; a repeat collides and fails', async () => {
  const node = await startNode()
  const wallet = zksyncWallet(node, 1)
  const deployer = new Contract(utils.CONTRACT_DEPLOYER_ADDRESS, DEPLOYER_ABI, wallet)
  const salt = keccak256('0x01')
  const receipt = await (await deployer.create2EVM(salt, probe.bytecode)).wait()
  expect(receipt.contractAddress).toBe(getCreate2Address(wallet.address, salt, keccak256(probe.bytecode)))
  await expect(deployer.create2EVM(salt, probe.bytecode)).rejects.toThrow()
})

/** A contract that deploys through the ContractDeployer, as ZKsync factories do. */
const FACTORY_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;
contract Factory {
    event Made(uint256 gasUsed, address created);
    function make(bytes calldata initCode) external returns (uint256 gasUsed, address created) {
        (bool ok, bytes memory answer) = address(0x8006).call(abi.encodeWithSignature("createEVM(bytes)", initCode));
        require(ok, "createEVM failed");
        (gasUsed, created) = abi.decode(answer, (uint256, address));
        emit Made(gasUsed, created);
    }
}`

test('a contract calling createEVM deploys from itself, its nonce counted as CREATE counts it, and gets (gasUsed, address) back', async () => {
  const node = await startNode()
  const wallet = devWallet(node, 0)
  const { Factory } = compileContracts({ 'Factory.sol': FACTORY_SOURCE })
  const factory = (await new ContractFactory(Factory.abi as InterfaceAbi, Factory.bytecode, wallet).deploy()) as Contract
  await factory.waitForDeployment()
  const address = await factory.getAddress()
  for (const nonce of [1, 2]) {
    const receipt = (await (await factory.make(probe.bytecode)).wait())!
    const made = factory.interface.parseLog(receipt.logs.at(-1)!)!
    expect(made.args.created).toBe(getCreateAddress({ from: address, nonce }))
    expect(made.args.gasUsed).toBeGreaterThan(32_000n)
    expect(await new Contract(made.args.created, probe.abi, wallet.provider).value()).toBe(0n)
    // The deployment event names the factory as the deployer.
    const deployed = utils.getDeployedContracts(receipt as never)
    expect(deployed).toEqual([{ sender: address, deployedAddress: made.args.created, bytecodeHash: expect.stringMatching(/^0x0200/) }])
  }
  expect(await rpc(node)('eth_getTransactionCount', address, 'latest')).toBe('0x3')
})

test("viem's eip712 sendTransaction to createEVM, and over the CLI's HTTP", async () => {
  const node = await startNode()
  const transport = custom(eip1193(node), { retryCount: 0 })
  const publicClient = createPublicClient({ chain: zksyncInMemoryNode, transport, pollingInterval: 10 })
  const wallet = createWalletClient({ account: privateKeyToAccount(DEV[2].key), chain: zksyncInMemoryNode, transport, pollingInterval: 10 }).extend(eip712WalletActions())
  const data = encodeFunctionData({ abi: parseAbi(DEPLOYER_ABI), functionName: 'createEVM', args: [probe.bytecode as Hex] })
  const hash = await wallet.sendTransaction({ to: utils.CONTRACT_DEPLOYER_ADDRESS as Hex, data, type: 'eip712' })
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
  expect(receipt.contractAddress).toBe(getCreateAddress({ from: DEV[2].address, nonce: 0 }).toLowerCase())

  const cli = await startCli()
  const provider = new Provider(cli.url)
  provider.pollingInterval = 10
  const cliWallet = new Wallet(DEV[0].key, provider)
  const sent = await new Contract(utils.CONTRACT_DEPLOYER_ADDRESS, DEPLOYER_ABI, cliWallet).createEVM(probe.bytecode)
  const cliReceipt = await sent.wait()
  const contract = await deployedProbe(provider, cliReceipt)
  expect(await contract.value()).toBe(0n)
  expect(await provider.getCode(await contract.getAddress())).not.toBe('0x')
}, 60_000)

