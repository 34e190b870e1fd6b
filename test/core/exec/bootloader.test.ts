import { Contract, ContractFactory, Wallet as EthersWallet, type InterfaceAbi, type Log, type LogDescription } from 'ethers'
import { beforeEach, describe, expect, test } from 'vitest'
import { utils, Wallet } from 'zksync-ethers'
import { createPublicClient, createWalletClient, custom, parseAbi, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'
import { eip712WalletActions, getApprovalBasedPaymasterInput, getGeneralPaymasterInput } from 'viem/zksync'
import type { Node } from '../../../src/core/node.ts'
import { artifacts, DEV, eip1193, mineBlock, rpc, startNode } from '../../support/chain.ts'
import { zksyncProvider, zksyncWallet } from '../../support/zksync.ts'

const BOOTLOADER = '0x0000000000000000000000000000000000008001'

let node: Node

beforeEach(async () => {
  node = await startNode()
})

/** A fixture deployed by dev account 0 as ethers makes it (an EIP-1559 transaction). */
async function deployFixture(funder: Wallet, name: 'GeneralPaymaster' | 'ApprovalPaymaster' | 'Token' | 'Probe', ...args: unknown[]) {
  const artifact = artifacts[name] as { abi: InterfaceAbi; bytecode: string }
  const deployment = await new ContractFactory(artifact.abi, artifact.bytecode).getDeployTransaction(...args)
  const receipt = (await (await funder.sendTransaction({ ...deployment, type: 2 })).wait())!
  return new Contract(receipt.contractAddress!, artifact.abi, funder)
}

/** A General paymaster holding 1 ETH, and the paymaster params that name it. */
async function fundedGeneralPaymaster(funder: Wallet) {
  const paymaster = await deployFixture(funder, 'GeneralPaymaster')
  const address = await paymaster.getAddress()
  await (await funder.transfer({ to: address, amount: 10n ** 18n })).wait()
  return { paymaster, paymasterParams: utils.getPaymasterParams(address, { type: 'General', innerInput: '0x' }) }
}

/** A new account with no ETH at all: only a paymaster can pay for what it sends. */
function emptyWallet(node: Node): Wallet {
  return new Wallet(EthersWallet.createRandom().privateKey, zksyncProvider(node))
}

describe('a General paymaster (zksync-ethers)', () => {
  test('pays the fee of an account that has no ETH; the receipt covers its validation, and it gets back what was not used', async () => {
    const provider = zksyncProvider(node)
    const funder = zksyncWallet(node, 0, provider)
    const paymaster = await deployFixture(funder, 'GeneralPaymaster')
    const paymasterAddress = await paymaster.getAddress()
    await (await funder.transfer({ to: paymasterAddress, amount: 10n ** 18n })).wait()
    const probe = await deployFixture(funder, 'Probe')

    const user = emptyWallet(node)
    const paymasterParams = utils.getPaymasterParams(paymasterAddress, { type: 'General', innerInput: '0x' })
    const before = await provider.getBalance(paymasterAddress)
    const target = (probe.connect(user) as Contract)
    const sent = await target.getFunction('set')(42n, { customData: { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT, paymasterParams } })
    const receipt = (await sent.wait())!

    expect(receipt.status).toBe(1)
    expect(await probe.getFunction('value')()).toBe(42n)
    expect(await provider.getBalance(user.address)).toBe(0n)
    expect(await provider.getTransactionCount(user.address)).toBe(1)
    // The paymaster paid exactly the receipt's fee: gasLimit × maxFeePerGas up front, the rest back.
    const after = await provider.getBalance(paymasterAddress)
    expect(before - after).toBe(receipt.gasUsed * receipt.gasPrice)
    expect(await provider.getBalance(BOOTLOADER)).toBe(0n)

    // The paymaster's own events are in the receipt: its payment (validation) and postTransaction.
    const events = receipt.logs.filter((log: Log) => log.address === paymasterAddress).map((log: Log) => paymaster.interface.parseLog(log)!)
    expect(events.map((event: LogDescription) => event.name)).toEqual(['Paid', 'PostTransaction'])
    expect(events[0].args[0]).toBe(user.address)
    expect(events[1].args[0]).toBe(receipt.hash)
    expect(events[1].args[1]).toBe(1n) // ExecutionResult.Success

    const [raw] = await provider.getRawBlockTransactions(receipt.blockNumber)
    expect(raw.common_data.L2.paymasterParams.paymaster.toLowerCase()).toBe(paymasterAddress.toLowerCase())
    const details = await provider.getTransactionDetails(receipt.hash)
    expect(details.initiatorAddress.toLowerCase()).toBe(user.address.toLowerCase())
    expect(details.status).toBe('included')
    expect(BigInt(details.fee)).toBe(receipt.gasUsed * receipt.gasPrice)

    // A replay computes what mining did: the traces of the block agree with its receipt.
    const trace = (await rpc(node)('debug_traceTransaction', receipt.hash, { tracer: 'callTracer' })) as { from: string; to: string; gasUsed: string }
    expect(trace.from).toBe(user.address.toLowerCase())
    expect(trace.to).toBe((await probe.getAddress()).toLowerCase())
  })

  test('a paymaster that cannot pay, or refuses, is named in the refusal and nothing of the transaction stays', async () => {
    const funder = zksyncWallet(node)
    const paymaster = await deployFixture(funder, 'GeneralPaymaster')
    const paymasterAddress = await paymaster.getAddress()
    const probe = await deployFixture(funder, 'Probe')
    const user = emptyWallet(node)
    const general = utils.getPaymasterParams(paymasterAddress, { type: 'General', innerInput: '0x' })
    const overrides = { gasLimit: 1_000_000n, customData: { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT, paymasterParams: general } }

    // No ETH in the paymaster: refused at admission, naming it.
    await expect((probe.connect(user) as Contract).getFunction('set')(1n, overrides)).rejects.toThrow(
      new RegExp(`insufficient funds for gas \\* price \\+ value: address ${paymasterAddress.toLowerCase()}`),
    )

    // Funded, but asked for a flow it does not take: its revert reason, in ZKsync's wording.
    await (await funder.transfer({ to: paymasterAddress, amount: 10n ** 18n })).wait()
    const approval = utils.getPaymasterParams(paymasterAddress, { type: 'ApprovalBased', token: paymasterAddress, minimalAllowance: 1n, innerInput: '0x' })
    await expect(
      (probe.connect(user) as Contract).getFunction('set')(1n, { ...overrides, customData: { ...overrides.customData, paymasterParams: approval } }),
    ).rejects.toThrow(/failed to validate the transaction\. reason: Validation revert: Paymaster validation error: /)
    expect(await user.provider.getTransactionCount(user.address)).toBe(0)
    expect(await probe.getFunction('value')()).toBe(0n)
  })
})

test('a paymaster that can no longer pay when the block is mined: the transaction is dropped and nothing of it stays', async () => {
  const manual = await startNode({ mining: { mode: 'manual' } })
  const provider = zksyncProvider(manual)
  const funder = zksyncWallet(manual, 0, provider)
  const artifact = artifacts.GeneralPaymaster as { abi: InterfaceAbi; bytecode: string }
  const deployment = await funder.sendTransaction({ ...(await new ContractFactory(artifact.abi, artifact.bytecode).getDeployTransaction()), type: 2 })
  await mineBlock(manual)
  const paymasterAddress = (await provider.getTransactionReceipt(deployment.hash))!.contractAddress!
  await rpc(manual)('hardhat_setBalance', paymasterAddress, '0xde0b6b3a7640000')
  const user = emptyWallet(manual)
  const paymasterParams = utils.getPaymasterParams(paymasterAddress, { type: 'General', innerInput: '0x' })
  const sent = await user.sendTransaction({ to: DEV[1].address, gasLimit: 200_000n, customData: { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT, paymasterParams } })
  // Admitted (its validation passed on the head's state), then the paymaster is emptied.
  expect(await rpc(manual)('eth_getTransactionByHash', sent.hash)).not.toBeNull()
  await rpc(manual)('hardhat_setBalance', paymasterAddress, '0x0')
  await mineBlock(manual)
  expect(await rpc(manual)('eth_getTransactionReceipt', sent.hash)).toBeNull()
  expect(await provider.getTransactionCount(user.address)).toBe(0)
  expect(await provider.getBalance('0x0000000000000000000000000000000000008001')).toBe(0n)
})

test('a signed zero-address paymaster is no paymaster: the account pays, as on ZKsync', async () => {
  const provider = zksyncProvider(node)
  const wallet = zksyncWallet(node, 0, provider)
  const before = await provider.getBalance(wallet.address)
  const paymasterParams = { paymaster: '0x0000000000000000000000000000000000000000', paymasterInput: new Uint8Array() }
  const receipt = (await (await wallet.sendTransaction({ to: DEV[1].address, value: 1n, gasLimit: 100_000n, customData: { paymasterParams } })).wait())!
  expect(receipt.status).toBe(1)
  expect(before - (await provider.getBalance(wallet.address))).toBe(1n + receipt.gasUsed * receipt.gasPrice)
})

describe('an ApprovalBased paymaster (zksync-ethers)', () => {
  test('the account approves the paymaster for the token before its validation, and pays its fee in the token', async () => {
    const provider = zksyncProvider(node)
    const funder = zksyncWallet(node, 0, provider)
    const token = await deployFixture(funder, 'Token', 'Fee Token', 'FEE', 1_000_000n)
    const tokenAddress = await token.getAddress()
    const paymaster = await deployFixture(funder, 'ApprovalPaymaster', tokenAddress, 5n)
    const paymasterAddress = await paymaster.getAddress()
    await (await funder.transfer({ to: paymasterAddress, amount: 10n ** 18n })).wait()
    const user = emptyWallet(node)
    await (await token.getFunction('transfer')(user.address, 100n)).wait()

    const paymasterParams = utils.getPaymasterParams(paymasterAddress, { type: 'ApprovalBased', token: tokenAddress, minimalAllowance: 5n, innerInput: '0x' })
    const sent = await (token.connect(user) as Contract).getFunction('transfer')(funder.address, 10n, {
      customData: { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT, paymasterParams },
    })
    const receipt = (await sent.wait())!
    expect(receipt.status).toBe(1)
    expect(await token.getFunction('balanceOf')(user.address)).toBe(85n)
    expect(await token.getFunction('balanceOf')(paymasterAddress)).toBe(5n)
    expect(await token.getFunction('allowance')(user.address, paymasterAddress)).toBe(0n)
    expect(await provider.getBalance(user.address)).toBe(0n)
    // The approval, the fee's transfer (validation), then the transaction's own transfer.
    const events = receipt.logs.map((log: Log) => token.interface.parseLog(log)!.name)
    expect(events).toEqual(['Approval', 'Transfer', 'Transfer'])
  })

  test("an account without enough of the token is refused with the paymaster's reason", async () => {
    const funder = zksyncWallet(node)
    const token = await deployFixture(funder, 'Token', 'Fee Token', 'FEE', 1_000_000n)
    const tokenAddress = await token.getAddress()
    const paymaster = await deployFixture(funder, 'ApprovalPaymaster', tokenAddress, 5n)
    const paymasterAddress = await paymaster.getAddress()
    await (await funder.transfer({ to: paymasterAddress, amount: 10n ** 18n })).wait()
    const user = emptyWallet(node)
    const paymasterParams = utils.getPaymasterParams(paymasterAddress, { type: 'ApprovalBased', token: tokenAddress, minimalAllowance: 5n, innerInput: '0x' })
    await expect(
      (token.connect(user) as Contract).getFunction('approve')(funder.address, 1n, {
        customData: { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT, paymasterParams },
      }),
    ).rejects.toThrow(/Paymaster validation error: /)
  })
})

describe("viem's zksync actions", () => {
  test('sendTransaction and writeContract with paymaster and paymasterInput (general and approval-based)', async () => {
    const provider = zksyncProvider(node)
    const funder = zksyncWallet(node, 0, provider)
    const general = await deployFixture(funder, 'GeneralPaymaster')
    const token = await deployFixture(funder, 'Token', 'Fee Token', 'FEE', 1_000_000n)
    const approval = await deployFixture(funder, 'ApprovalPaymaster', await token.getAddress(), 7n)
    for (const paymaster of [general, approval]) await (await funder.transfer({ to: await paymaster.getAddress(), amount: 10n ** 18n })).wait()
    const account = privateKeyToAccount(generatePrivateKey())
    await (await token.getFunction('transfer')(account.address, 50n)).wait()

    const transport = custom(eip1193(node), { retryCount: 0 })
    const publicClient = createPublicClient({ chain: zksyncInMemoryNode, transport, pollingInterval: 10 })
    const wallet = createWalletClient({ account, chain: zksyncInMemoryNode, transport, pollingInterval: 10 }).extend(eip712WalletActions())

    const sent = await wallet.sendTransaction({
      to: DEV[1].address,
      value: 0n,
      paymaster: (await general.getAddress()) as Hex,
      paymasterInput: getGeneralPaymasterInput({ innerInput: '0x' }),
    })
    expect((await publicClient.waitForTransactionReceipt({ hash: sent })).status).toBe('success')

    const written = await wallet.writeContract({
      address: (await token.getAddress()) as Hex,
      abi: parseAbi(['function transfer(address to, uint256 value) returns (bool)']),
      functionName: 'transfer',
      args: [DEV[1].address, 3n],
      paymaster: (await approval.getAddress()) as Hex,
      paymasterInput: getApprovalBasedPaymasterInput({ token: (await token.getAddress()) as Hex, minAllowance: 7n, innerInput: '0x' }),
    })
    expect((await publicClient.waitForTransactionReceipt({ hash: written })).status).toBe('success')
    expect(await token.getFunction('balanceOf')(account.address)).toBe(40n)
    expect(await publicClient.getBalance({ address: account.address })).toBe(0n)
    expect(await publicClient.getTransactionCount({ address: account.address })).toBe(2)
  })
})

describe('estimates and the detailed output', () => {
  test("zks_estimateFee and eth_estimateGas with paymasterParams add the paymaster's steps, and the estimate is enough", async () => {
    const provider = zksyncProvider(node)
    const funder = zksyncWallet(node, 0, provider)
    const { paymasterParams } = await fundedGeneralPaymaster(funder)
    const user = emptyWallet(node)
    const call = { from: user.address, to: funder.address, data: '0x' }
    const plain = await provider.estimateFee(call)
    const paid = await provider.estimateFee({ ...call, customData: { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT, paymasterParams } })
    expect(plain.gasLimit).toBe(21_000n)
    // The validation (a payment to 0x…8001, an event) and postTransaction cost more than nothing.
    expect(paid.gasLimit).toBeGreaterThan(plain.gasLimit + 10_000n)
    const estimated = await provider.estimateGas({ ...call, customData: { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT, paymasterParams } })
    expect(estimated).toBe(paid.gasLimit)

    const sent = await user.sendTransaction({ to: funder.address, gasLimit: estimated, customData: { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT, paymasterParams } })
    const receipt = (await sent.wait())!
    expect(receipt.status).toBe(1)
    expect(receipt.gasUsed).toBeLessThanOrEqual(estimated)

    // A paymaster that refuses fails the estimate with its reason.
    const unfunded = await deployFixture(funder, 'GeneralPaymaster')
    const refused = utils.getPaymasterParams(await unfunded.getAddress(), { type: 'General', innerInput: '0x' })
    await expect(provider.estimateFee({ ...call, customData: { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT, paymasterParams: refused } })).rejects.toThrow(
      /Paymaster validation error: the paymaster could not pay the bootloader/,
    )
  })

  test("zks_sendRawTransactionWithDetailedOutput runs the paymaster's steps: their events are in its output", async () => {
    const provider = zksyncProvider(node)
    const funder = zksyncWallet(node, 0, provider)
    const { paymaster, paymasterParams } = await fundedGeneralPaymaster(funder)
    const user = emptyWallet(node)
    const raw = await user.signTransaction(
      await user.populateTransaction({ to: funder.address, customData: { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT, paymasterParams } }),
    )
    const output = await rpc(node)<{ events: { address: string; topics: string[]; data: string }[] }>('zks_sendRawTransactionWithDetailedOutput', raw)
    expect(output.events.map((event) => paymaster.interface.parseLog(event)?.name)).toEqual(['Paid', 'PostTransaction'])
    expect(await provider.getTransactionCount(user.address)).toBe(1)
  })
})
