import { Contract, ContractFactory as EthersFactory, hexlify, keccak256, randomBytes, ZeroHash } from 'ethers'
import { createWalletClient, custom, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'
import { eip712WalletActions } from 'viem/zksync'
import { ContractFactory, utils } from 'zksync-ethers'
import { expect, test } from 'vitest'
import { isEraVmBytecode } from '../../../src/core/rollup/eraVmBytecode.ts'
import { artifacts, DEV, devWallet, eip1193, rpc, startNode } from '../../support/chain.ts'
import { post, startCli } from '../../support/cli.ts'
import { signTx } from '../../support/rawTx.ts'
import { zksyncProvider, zksyncWallet } from '../../support/zksync.ts'

/**
 * Bytecode with zksolc's shape: whole 32-byte words, an odd number of them, the first EraVM
 * instruction starting with a zero byte (as zksolc's output does: 0x0000008003000039…).
 */
const ERAVM_BYTECODE = hexlify(new Uint8Array([...[0, 0, 0, 0x80, 3, 0, 0, 0x39], ...randomBytes(32 * 5 - 8)]))
const REFUSAL = /EraVM bytecode \(zksolc output\) cannot run on this node, which runs EVM bytecode only/

test("the address helpers are ZKsync's (zksync-ethers' utils compute the same)", async () => {
  const node = await startNode()
  const provider = zksyncProvider(node)
  const deployer = new Contract(utils.CONTRACT_DEPLOYER_ADDRESS, [...utils.CONTRACT_DEPLOYER.fragments, 'function extendedAccountVersion(address) view returns (uint8)'], provider)
  expect(await deployer.getNewAddressCreate(DEV[0].address, 7n)).toBe(utils.createAddress(DEV[0].address, 7n))
  const hash = utils.hashBytecode(ERAVM_BYTECODE)
  const salt = keccak256('0x02')
  expect(await deployer.getNewAddressCreate2(DEV[0].address, hash, salt, '0xabcd')).toBe(utils.create2Address(DEV[0].address, hash, salt, '0xabcd'))
  expect(await deployer.getAccountInfo(DEV[0].address)).toEqual([0n, 0n])
  // An EOA is an account (Version1), a contract or a system address is not.
  expect(await deployer.extendedAccountVersion(DEV[0].address)).toBe(1n)
  expect(await deployer.extendedAccountVersion(utils.L1_MESSENGER_ADDRESS)).toBe(0n)
  const probe = await new EthersFactory(artifacts.Probe.abi, artifacts.Probe.bytecode, devWallet(node)).deploy()
  expect(await deployer.extendedAccountVersion(await probe.getAddress())).toBe(0n)
})

test("zksync-ethers' ContractFactory with zksolc output: refused with the reason and the way out, nothing deployed", async () => {
  const node = await startNode()
  const wallet = zksyncWallet(node)
  const factory = new ContractFactory([], ERAVM_BYTECODE, wallet)
  await expect(factory.deploy()).rejects.toThrow(REFUSAL)
  await expect(new ContractFactory([], ERAVM_BYTECODE, wallet, 'create2').deploy({ customData: { salt: ZeroHash } })).rejects.toThrow(REFUSAL)
  expect(await rpc(node)('eth_blockNumber')).toBe('0x0')
  // Sent anyway (with a gas limit, so nothing is estimated), it is mined as a failure: never a silent success.
  const deployTx = await factory.getDeployTransaction()
  const sent = await wallet.sendTransaction({ ...deployTx, gasLimit: 5_000_000n })
  await expect(sent.wait()).rejects.toMatchObject({ receipt: { status: 0 } })
})

test("viem's zksync deployContract with zksolc output: refused", async () => {
  const node = await startNode()
  const wallet = createWalletClient({ account: privateKeyToAccount(DEV[1].key), chain: zksyncInMemoryNode, transport: custom(eip1193(node), { retryCount: 0 }) }).extend(eip712WalletActions())
  await expect(wallet.deployContract({ abi: [], bytecode: ERAVM_BYTECODE as Hex, chain: zksyncInMemoryNode })).rejects.toThrow(REFUSAL)
})

test('zksolc output as a plain deployment (no `to`): refused at the send, over createNode and HTTP', async () => {
  const node = await startNode()
  await expect(devWallet(node, 0).sendTransaction({ data: ERAVM_BYTECODE, gasLimit: 1_000_000n })).rejects.toThrow(REFUSAL)
  expect(await rpc(node)('eth_blockNumber')).toBe('0x0')

  const cli = await startCli()
  const signed = await signTx(DEV[0].key, { to: null, value: 0n, data: ERAVM_BYTECODE, gasLimit: 1_000_000n })
  const answer = await (await post(cli.url, { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [signed] })).json()
  expect(answer.error.code).toBe(-32000)
  expect(answer.error.message).toMatch(REFUSAL)
  expect(answer.error.message).toContain('compile the contract with solc and deploy its EVM bytecode')
}, 60_000)

test('the EraVM shape rule: words, odd count, leading zero byte; EVM init code does not match', () => {
  expect(isEraVmBytecode(Uint8Array.from(Buffer.from(ERAVM_BYTECODE.slice(2), 'hex')))).toBe(true)
  expect(isEraVmBytecode(new Uint8Array(64))).toBe(false) // an even word count
  expect(isEraVmBytecode(new Uint8Array(33))).toBe(false)
  const evm = new Uint8Array(96)
  evm[0] = 0x60 // PUSH1: how solc's init code starts
  expect(isEraVmBytecode(evm)).toBe(false)
  for (const { bytecode } of Object.values(artifacts)) expect(isEraVmBytecode(Buffer.from(bytecode.slice(2), 'hex'))).toBe(false)
})
