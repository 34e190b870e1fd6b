import { Contract, ContractFactory, getCreateAddress, hexlify, keccak256, toUtf8Bytes, Wallet as EthersWallet, type InterfaceAbi, type Log } from 'ethers'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import { ECDSASmartAccount, MultisigECDSASmartAccount, Provider, SmartAccount, utils, Wallet as ZkWallet, type Wallet } from 'zksync-ethers'
import { createPublicClient, createWalletClient, custom, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'
import { eip712WalletActions, getGeneralPaymasterInput, toSinglesigSmartAccount } from 'viem/zksync'
import type { Node } from '../../../src/core/node.ts'
import { ACCOUNT_STEPS_ALLOWANCE } from '../../../src/core/exec/bootloaderEstimate.ts'
import { join } from 'node:path'
import { artifacts, DEV, eip1193, mineBlock, rpc, startNode } from '../../support/chain.ts'
import { startCli, tempDir } from '../../support/cli.ts'
import { zksyncProvider, zksyncWallet } from '../../support/zksync.ts'

const BOOTLOADER = '0x0000000000000000000000000000000000008001'
const INVALID_MAGIC =
  'failed to validate the transaction. reason: Validation revert: Account validation error: Account validation returned invalid magic value. Most often this means that the signature is incorrect'
const PUBDATA = { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT }

let node: Node

beforeEach(async () => {
  node = await startNode()
})

type Fixture = 'EcdsaAccount' | 'SilentNonceAccount' | 'WrongNonceAccount' | 'PasswordAccount' | 'TwoOwnerAccount' | 'GeneralPaymaster' | 'ApprovalPaymaster' | 'Token' | 'Probe'

/** A fixture deployed by dev account 0 as an ordinary EVM contract (an EIP-1559 deployment). */
async function deployFixture(funder: Wallet, name: Fixture, ...args: unknown[]) {
  const artifact = artifacts[name] as { abi: InterfaceAbi; bytecode: string }
  const deployment = await new ContractFactory(artifact.abi, artifact.bytecode).getDeployTransaction(...args)
  const receipt = (await (await funder.sendTransaction({ ...deployment, type: 2 })).wait())!
  return new Contract(receipt.contractAddress!, artifact.abi, funder)
}

/** An EcdsaAccount (or a variant) owned by a new key, funded with `funds` wei, and zksync-ethers' signer for it. */
async function ecdsaAccount(provider: Provider, funds = 10n ** 18n, kind: 'EcdsaAccount' | 'SilentNonceAccount' | 'WrongNonceAccount' = 'EcdsaAccount') {
  const funder = zksyncWallet(node, 0, provider)
  const owner = EthersWallet.createRandom()
  const contract = await deployFixture(funder, kind, owner.address)
  const address = await contract.getAddress()
  if (funds > 0n) await (await funder.transfer({ to: address, amount: funds })).wait()
  return { funder, owner, contract, address, signer: ECDSASmartAccount.create(address, owner.privateKey, provider) }
}

/** A TwoOwnerAccount of two new keys, funded with 1 ETH, and zksync-ethers' multisig signer for it. */
async function twoOwnerAccount(provider: Provider) {
  const funder = zksyncWallet(node, 0, provider)
  const owners = [EthersWallet.createRandom(), EthersWallet.createRandom()] as const
  const address = await (await deployFixture(funder, 'TwoOwnerAccount', owners[0].address, owners[1].address)).getAddress()
  await (await funder.transfer({ to: address, amount: 10n ** 18n })).wait()
  return { funder, owners, address, signer: MultisigECDSASmartAccount.create(address, [owners[0].privateKey, owners[1].privateKey], provider) }
}

/**
 * The gas a contract account's transaction needs, estimated with the account as `from` (as viem's
 * accounts estimate): its own steps, rather than the allowance an owner's EOA estimate has.
 */
async function estimateFromAccount(provider: Provider, tx: { from: string; to: string; value?: bigint; data?: string; customData?: object }) {
  return provider.estimateGas({ type: utils.EIP712_TX_TYPE, ...tx, customData: { ...PUBDATA, ...tx.customData } })
}

describe('a contract account (zksync-ethers SmartAccount)', () => {
  test('sends ETH: validated, paid and executed by the account; its nonce moves once; the fee is the receipt\'s', async () => {
    const provider = zksyncProvider(node)
    const { address, contract, signer } = await ecdsaAccount(provider)
    const to = EthersWallet.createRandom().address
    const nonce = await provider.getTransactionCount(address)
    const gasLimit = await estimateFromAccount(provider, { from: address, to, value: 1000n })
    expect(BigInt((await provider.estimateFee({ from: address, to, value: 1000n, type: utils.EIP712_TX_TYPE, customData: PUBDATA } as never)).gasLimit)).toBe(gasLimit)
    const before = await provider.getBalance(address)

    const receipt = (await (await signer.sendTransaction({ to, value: 1000n, gasLimit })).wait())!

    expect(receipt.status).toBe(1)
    expect(receipt.from).toBe(address)
    expect(receipt.to).toBe(to)
    expect(await provider.getBalance(to)).toBe(1000n)
    expect(await provider.getTransactionCount(address)).toBe(nonce + 1)
    expect(before - (await provider.getBalance(address))).toBe(1000n + receipt.gasUsed * receipt.gasPrice)
    expect(await provider.getBalance(BOOTLOADER)).toBe(0n)
    // The estimate covered every step, with the margin on validation only.
    expect(receipt.gasUsed).toBeLessThanOrEqual(gasLimit)
    expect(receipt.gasUsed * 100n).toBeGreaterThan(gasLimit * 80n)
    const executed = receipt.logs.map((log: Log) => contract.interface.parseLog(log)).filter(Boolean)
    expect(executed.map((event) => [event!.name, ...event!.args])).toEqual([['Executed', to, 1000n]])

    const tx = (await provider.getTransaction(receipt.hash))!
    expect(tx.from).toBe(address)
    expect(tx.type).toBe(utils.EIP712_TX_TYPE)
    const details = await provider.getTransactionDetails(receipt.hash)
    expect(details.initiatorAddress.toLowerCase()).toBe(address.toLowerCase())
    expect(BigInt(details.fee)).toBe(receipt.gasUsed * receipt.gasPrice)

    // The trace is of executeTransaction, the bootloader's call to the account, which calls `to`.
    const trace = (await rpc(node)('debug_traceTransaction', receipt.hash, { tracer: 'callTracer' })) as {
      from: string
      to: string
      input: string
      calls: { from: string; to: string; value: string }[]
    }
    expect(trace.from).toBe(BOOTLOADER)
    expect(trace.to).toBe(address.toLowerCase())
    expect(trace.input.slice(0, 10)).toBe(contract.interface.getFunction('executeTransaction')!.selector)
    expect(trace.calls.map((c) => [c.from, c.to, BigInt(c.value)])).toEqual([[address.toLowerCase(), to.toLowerCase(), 1000n]])
  })

  test('calls a contract as msg.sender; a second transaction takes the next nonce', async () => {
    const provider = zksyncProvider(node)
    const { funder, address, signer } = await ecdsaAccount(provider)
    const probe = await deployFixture(funder, 'Probe')
    const to = await probe.getAddress()
    for (const value of [7n, 8n]) {
      const call = probe.interface.encodeFunctionData('set', [value])
      const gasLimit = await estimateFromAccount(provider, { from: address, to, data: call })
      expect((await (await signer.sendTransaction({ to, data: call, gasLimit })).wait())!.status).toBe(1)
      expect(await probe.getFunction('value')()).toBe(value)
    }
    // eth_call from the account runs the call as the account, without its validation (as ZKsync's eth_call).
    const balance = await provider.call({ from: address, to, data: probe.interface.encodeFunctionData('balanceOfCaller') })
    expect(BigInt(balance)).toBe(await provider.getBalance(address))
  })

  test("deploys EVM code through the ContractDeployer's createEVM: the receipt names the contract, as on ZKsync", async () => {
    const provider = zksyncProvider(node)
    const { address, signer } = await ecdsaAccount(provider)
    const probe = artifacts.Probe as { abi: InterfaceAbi; bytecode: string }
    const deployer = new Contract(utils.CONTRACT_DEPLOYER_ADDRESS, ['function createEVM(bytes) payable returns (uint256, address)'])
    const data = deployer.interface.encodeFunctionData('createEVM', [probe.bytecode])
    const nonce = await provider.getTransactionCount(address)
    const gasLimit = await estimateFromAccount(provider, { from: address, to: utils.CONTRACT_DEPLOYER_ADDRESS, data })
    const receipt = (await (await signer.sendTransaction({ to: utils.CONTRACT_DEPLOYER_ADDRESS, data, gasLimit })).wait())!
    expect(receipt.status).toBe(1)
    // The account's CREATE takes its nonce after the transaction's: one EVM nonce for both.
    expect(receipt.contractAddress).toBe(getCreateAddress({ from: address, nonce: nonce + 1 }))
    expect(utils.getDeployedContracts(receipt).map((deployed) => deployed.deployedAddress)).toEqual([receipt.contractAddress])
    expect(await new Contract(receipt.contractAddress!, probe.abi, provider).getFunction('value')()).toBe(0n)
    expect(await provider.getTransactionCount(address)).toBe(nonce + 2)
  })

  test('a wrong signer is refused with ZKsync\'s error; nothing of it stays', async () => {
    const provider = zksyncProvider(node)
    const { address } = await ecdsaAccount(provider)
    const impostor = ECDSASmartAccount.create(address, EthersWallet.createRandom().privateKey, provider)
    const nonce = await provider.getTransactionCount(address)
    const balance = await provider.getBalance(address)
    await expect(impostor.sendTransaction({ to: address, value: 1n, gasLimit: 500_000n })).rejects.toThrow(INVALID_MAGIC)
    expect(await provider.getTransactionCount(address)).toBe(nonce)
    expect(await provider.getBalance(address)).toBe(balance)
    expect(await provider.getBlockNumber()).toBe(2) // the account's deployment and funding only
  })

  test('an account that cannot pay, or reverts while it prepares for a paymaster, is refused with the reason', async () => {
    const provider = zksyncProvider(node)
    const { funder, address, signer } = await ecdsaAccount(provider, 0n)
    // The balance check comes first, as for any sender (geth's wording).
    await expect(signer.sendTransaction({ to: address, value: 1n, gasLimit: 500_000n })).rejects.toThrow(
      `insufficient funds for gas * price + value: address ${address.toLowerCase()}`,
    )
    const paymaster = await deployFixture(funder, 'GeneralPaymaster')
    const paymasterAddress = await paymaster.getAddress()
    await (await funder.transfer({ to: paymasterAddress, amount: 10n ** 18n })).wait()
    const unknownFlow = { paymaster: paymasterAddress, paymasterInput: '0x12345678' }
    await expect(signer.sendTransaction({ to: address, gasLimit: 500_000n, customData: { ...PUBDATA, paymasterParams: unknownFlow } })).rejects.toThrow(
      'failed to validate the transaction. reason: Validation revert: Pre-paymaster preparation error: unsupported paymaster flow',
    )
    // A sender without code whose signature is not its own: the ECDSA refusal, as before.
    const eoaAddress = EthersWallet.createRandom().address
    await rpc(node)('hardhat_setBalance', eoaAddress, '0xde0b6b3a7640000')
    const eoa = ECDSASmartAccount.create(eoaAddress, EthersWallet.createRandom().privateKey, provider)
    await expect(eoa.sendTransaction({ to: address, gasLimit: 500_000n, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 0n })).rejects.toThrow(
      /invalid sender: the signature is by 0x[0-9a-f]{40}, not by the from address/,
    )
  })

  test('a reverting executeTransaction: status 0, the fee paid, the nonce used', async () => {
    const provider = zksyncProvider(node)
    const { funder, address, signer } = await ecdsaAccount(provider)
    const probe = await deployFixture(funder, 'Probe')
    const data = probe.interface.encodeFunctionData('failWith', ['no way'])
    const to = await probe.getAddress()
    // The estimate fails as the call does, with its reason.
    await expect(estimateFromAccount(provider, { from: address, to, data })).rejects.toThrow(/no way/)
    const nonce = await provider.getTransactionCount(address)
    const before = await provider.getBalance(address)
    const sent = await signer.sendTransaction({ to, data, gasLimit: 300_000n })
    await expect(sent.wait()).rejects.toThrow()
    const receipt = (await provider.getTransactionReceipt(sent.hash))!
    expect(receipt.status).toBe(0)
    expect(receipt.gasUsed).toBeGreaterThan(0n)
    expect(before - (await provider.getBalance(address))).toBe(receipt.gasUsed * receipt.gasPrice)
    expect(await provider.getTransactionCount(address)).toBe(nonce + 1)
    expect(await provider.getBalance(BOOTLOADER)).toBe(0n)
    // The replay computes the same gas (it checks), and the trace shows the revert of executeTransaction.
    const trace = (await rpc(node)('debug_traceTransaction', receipt.hash, { tracer: 'callTracer' })) as { error: string; revertReason: string }
    expect(trace.error).toBe('execution reverted')
    expect(trace.revertReason).toBe('no way')
  })

  test('its nonce is used once whether the account marks it in NonceHolder or not; marking another one refuses it', async () => {
    const provider = zksyncProvider(node)
    const silent = await ecdsaAccount(provider, 10n ** 18n, 'SilentNonceAccount')
    const nonce = await provider.getTransactionCount(silent.address)
    const gasLimit = await estimateFromAccount(provider, { from: silent.address, to: silent.owner.address, value: 1n })
    expect((await (await silent.signer.sendTransaction({ to: silent.owner.address, value: 1n, gasLimit })).wait())!.status).toBe(1)
    expect(await provider.getTransactionCount(silent.address)).toBe(nonce + 1)

    const wrong = await ecdsaAccount(provider, 10n ** 18n, 'WrongNonceAccount')
    const at = await provider.getTransactionCount(wrong.address)
    await expect(wrong.signer.sendTransaction({ to: wrong.owner.address, value: 1n, gasLimit: 500_000n })).rejects.toThrow(
      `failed to validate the transaction. reason: Validation revert: Account validation error: NonceHolder: incorrect nonce: expected ${at + 1}, the transaction's nonce is ${at}`,
    )
    // Outside a validation, NonceHolder takes no writes.
    await expect(provider.call({ to: '0x0000000000000000000000000000000000008003', data: '0xe1239cd80000000000000000000000000000000000000000000000000000000000000000' })).rejects.toThrow(
      /incrementMinNonceIfEquals is answered only while the bootloader validates a contract account's transaction/,
    )
  })

  test('zks_sendRawTransactionWithDetailedOutput runs the account\'s steps: their events are in its output', async () => {
    const provider = zksyncProvider(node)
    const { address, contract, owner, signer } = await ecdsaAccount(provider)
    const gasLimit = await estimateFromAccount(provider, { from: address, to: owner.address, value: 3n })
    const raw = await signer.signTransaction({ to: owner.address, value: 3n, gasLimit })
    const output = await rpc(node)<{ events: { address: string; topics: string[]; data: string }[] }>('zks_sendRawTransactionWithDetailedOutput', raw)
    expect(output.events.map((event) => contract.interface.parseLog(event)?.name)).toEqual(['Executed'])
    expect(await provider.getBalance(owner.address)).toBe(3n)
  })

  test('a signature that is no ECDSA signature at all (a password the account hashes): the node passes it on as bytes', async () => {
    const provider = zksyncProvider(node)
    const funder = zksyncWallet(node, 0, provider)
    const password = toUtf8Bytes('correct horse battery staple')
    const address = await (await deployFixture(funder, 'PasswordAccount', keccak256(password))).getAddress()
    await (await funder.transfer({ to: address, amount: 10n ** 18n })).wait()
    // The secret only feeds zksync-ethers' default transaction builder; the payload signer ignores it.
    const builderKey = EthersWallet.createRandom().privateKey
    const withPassword = (secret: Uint8Array) => new SmartAccount({ address, secret: builderKey, payloadSigner: async () => hexlify(secret) }, provider)
    const to = EthersWallet.createRandom().address
    const gasLimit = await estimateFromAccount(provider, { from: address, to, value: 9n, customData: { customSignature: password } })
    const receipt = (await (await withPassword(password).sendTransaction({ to, value: 9n, gasLimit })).wait())!
    expect(receipt.status).toBe(1)
    const raw = (await rpc(node)('eth_getTransactionByHash', receipt.hash)) as { from: string; v: string; r: string; s: string }
    expect(raw).toMatchObject({ from: address.toLowerCase(), v: '0x0', r: '0x0', s: '0x0' })
    await expect(withPassword(toUtf8Bytes('wrong horse battery staple')).sendTransaction({ to, value: 9n, gasLimit })).rejects.toThrow(INVALID_MAGIC)
  })

  test('a two-owner account (MultisigECDSASmartAccount) needs both signatures', async () => {
    const provider = zksyncProvider(node)
    const funder = zksyncWallet(node, 0, provider)
    const [first, second] = [EthersWallet.createRandom(), EthersWallet.createRandom()]
    const contract = await deployFixture(funder, 'TwoOwnerAccount', first.address, second.address)
    const address = await contract.getAddress()
    await (await funder.transfer({ to: address, amount: 10n ** 18n })).wait()
    const to = EthersWallet.createRandom().address
    // The estimate carries a stand-in signature of the multisig's length and shape (two r‖s‖v, v = 27),
    // so that the account's validation runs both ecrecovers as it will for the real one.
    const standIn = `11`.repeat(64) + '1b'
    const gasLimit = await estimateFromAccount(provider, { from: address, to, value: 5n, customData: { customSignature: `0x${standIn}${standIn}` } })
    const both = MultisigECDSASmartAccount.create(address, [first.privateKey, second.privateKey], provider)
    const receipt = (await (await both.sendTransaction({ to, value: 5n, gasLimit })).wait())!
    expect(receipt.status).toBe(1)
    expect(await provider.getBalance(to)).toBe(5n)
    // Its 130-byte signature is the account's own; the transaction reads back with the account as from.
    expect((await provider.getTransaction(receipt.hash))!.from).toBe(address)
    const swapped = MultisigECDSASmartAccount.create(address, [second.privateKey, first.privateKey], provider)
    await expect(swapped.sendTransaction({ to, value: 5n, gasLimit })).rejects.toThrow(INVALID_MAGIC)
  })
})

describe("zksync-ethers' SmartAccount without a gasLimit: estimated as its owner's EOA, whose 0x71 estimate has the allowance for account steps", () => {
  /**
   * Sends `tx` with no gasLimit, leaving it to zksync-ethers' own builder, and returns the receipt
   * and the gas limit the builder set. ZKsync's estimate checks that its sender holds the value
   * (zksync-era's ensure_sufficient_balance), and the builder's sender is the owner's EOA: so the
   * owner holds what the transaction sends, as it must on ZKsync.
   */
  async function sendUnlimited(signer: SmartAccount, owner: string, tx: { to: string; value?: bigint; data?: string; customData?: object }) {
    if (tx.value) await rpc(node)('hardhat_setBalance', owner, `0x${tx.value.toString(16)}`)
    const sent = await signer.sendTransaction(tx)
    const receipt = (await sent.wait())!
    return { receipt, gasLimit: sent.gasLimit }
  }

  test('ECDSASmartAccount sends ETH and calls a contract; the account pays only the gas used', async () => {
    const provider = zksyncProvider(node)
    const { funder, owner, address, signer, contract } = await ecdsaAccount(provider)
    const to = EthersWallet.createRandom().address
    const sent = vi.spyOn(provider, 'send')
    const before = await provider.getBalance(address)

    const { receipt, gasLimit } = await sendUnlimited(signer, owner.address, { to, value: 1000n })

    // What zksync-ethers asked: a 0x71 estimate from the owner's key, not from the account.
    const estimates = sent.mock.calls.filter(([method]) => method === 'eth_estimateGas').map(([, params]) => (params as { from: string; type: string }[])[0])
    expect(estimates.map(({ from, type }) => [from, type])).toEqual([[owner.address.toLowerCase(), '0x71']])
    expect(gasLimit).toBe(21_000n + ACCOUNT_STEPS_ALLOWANCE)
    expect(receipt.status).toBe(1)
    expect(receipt.from).toBe(address)
    expect(await provider.getBalance(to)).toBe(1000n)
    // The receipt's gas is what the steps used, less than the limit; the rest went back to the account.
    expect(receipt.gasUsed).toBeGreaterThan(21_000n)
    expect(receipt.gasUsed).toBeLessThan(gasLimit)
    expect(before - (await provider.getBalance(address))).toBe(1000n + receipt.gasUsed * receipt.gasPrice)
    expect(await provider.getBalance(owner.address)).toBe(1000n)
    expect(receipt.logs.map((log: Log) => contract.interface.parseLog(log)?.name)).toEqual(['Executed'])

    const probe = await deployFixture(funder, 'Probe')
    const called = (await (await (probe.connect(signer) as Contract).getFunction('set')(42n)).wait())!
    expect(called.status).toBe(1)
    expect(called.from).toBe(address)
    expect(await probe.getFunction('value')()).toBe(42n)
    expect(called.gasUsed).toBeLessThan((await provider.getTransaction(called.hash))!.gasLimit)
  })

  test('MultisigECDSASmartAccount (two 65-byte signatures) sends ETH and calls a contract', async () => {
    const provider = zksyncProvider(node)
    const { funder, address, owners, signer } = await twoOwnerAccount(provider)
    const to = EthersWallet.createRandom().address
    const { receipt, gasLimit } = await sendUnlimited(signer, owners[0].address, { to, value: 5n })
    expect(receipt.status).toBe(1)
    expect(receipt.from).toBe(address)
    expect(await provider.getBalance(to)).toBe(5n)
    expect(receipt.gasUsed).toBeLessThan(gasLimit)

    const probe = await deployFixture(funder, 'Probe')
    const data = probe.interface.encodeFunctionData('set', [43n])
    const called = await sendUnlimited(signer, owners[0].address, { to: await probe.getAddress(), data })
    expect(called.receipt.status).toBe(1)
    expect(await probe.getFunction('value')()).toBe(43n)
    expect(called.receipt.gasUsed).toBeLessThan(called.gasLimit)
  })

  test('the allowance covers what the test accounts use beyond their owner\'s estimate, with at least 15% to spare (transfers, calls, paymasters)', async () => {
    const provider = zksyncProvider(node)
    const { funder, owner, address: ecdsa, signer: ecdsaSigner } = await ecdsaAccount(provider)
    const multisig = await twoOwnerAccount(provider)
    const probe = await deployFixture(funder, 'Probe')
    const probeAddress = await probe.getAddress()
    const existing = EthersWallet.createRandom().address
    await rpc(node)('hardhat_setBalance', existing, '0x1')
    const general = await deployFixture(funder, 'GeneralPaymaster')
    await (await funder.transfer({ to: await general.getAddress(), amount: 10n ** 18n })).wait()
    const token = await deployFixture(funder, 'Token', 'Fee Token', 'FEE', 10_000n)
    const tokenAddress = await token.getAddress()
    const approval = await deployFixture(funder, 'ApprovalPaymaster', tokenAddress, 5n)
    await (await funder.transfer({ to: await approval.getAddress(), amount: 10n ** 18n })).wait()
    // The estimate runs the paymaster's flow from the owner's EOA, so it pays in the token too.
    for (const holder of [ecdsa, owner.address, multisig.address, multisig.owners[0].address]) await (await token.getFunction('transfer')(holder, 1_000n)).wait()
    const paymasters = {
      general: { ...PUBDATA, paymasterParams: utils.getPaymasterParams(await general.getAddress(), { type: 'General', innerInput: '0x' }) },
      approval: {
        ...PUBDATA,
        paymasterParams: utils.getPaymasterParams(await approval.getAddress(), { type: 'ApprovalBased', token: tokenAddress, minimalAllowance: 5n, innerInput: '0x' }),
      },
    }
    const fresh = () => EthersWallet.createRandom().address
    let stored = 0n
    const cases = (): [string, { to: string; value?: bigint; data?: string; customData?: object }][] => [
      ['ETH to a new address', { to: fresh(), value: 1000n }],
      ['ETH to an existing address', { to: existing, value: 1000n }],
      ['nothing to a new address', { to: fresh() }],
      ['a contract call', { to: probeAddress, data: probe.interface.encodeFunctionData('set', [++stored]) }],
      // A kilobyte more of calldata (set ignores it): the account copies and forwards it.
      ['a contract call with 1 kB more data', { to: probeAddress, data: probe.interface.encodeFunctionData('set', [++stored]) + 'ff'.repeat(1024) }],
      ['ETH with a General paymaster', { to: fresh(), value: 1000n, customData: paymasters.general }],
      ['ETH with an ApprovalBased paymaster', { to: fresh(), value: 1000n, customData: paymasters.approval }],
    ]
    let most = 0n
    for (const [signer, estimatedAs] of [
      [ecdsaSigner, owner.address],
      [multisig.signer, multisig.owners[0].address],
    ] as const) {
      for (const [what, tx] of cases()) {
        const { receipt, gasLimit } = await sendUnlimited(signer, estimatedAs, tx)
        expect(receipt.status, what).toBe(1)
        expect(receipt.gasUsed).toBeLessThan(gasLimit)
        // What the account's steps took beyond the EOA estimate the builder's limit was made of.
        const beyond = receipt.gasUsed - (gasLimit - ACCOUNT_STEPS_ALLOWANCE)
        if (beyond > most) most = beyond
      }
    }
    // The figure the allowance was sized from (exec/estimateGas.ts): the multisig's transfer to a new address.
    expect(most).toBeGreaterThan(90_000n)
    expect(most * 115n).toBeLessThanOrEqual(ACCOUNT_STEPS_ALLOWANCE * 100n)
  })

  test("an owner's EOA that does not hold the value fails the estimate, as ZKsync's estimate of its sender does", async () => {
    const provider = zksyncProvider(node)
    const { signer } = await ecdsaAccount(provider)
    await expect(signer.sendTransaction({ to: EthersWallet.createRandom().address, value: 1000n })).rejects.toThrow(/insufficient funds/)
  })
})

describe('a contract account with a paymaster', () => {
  async function paymasterSend(signer: SmartAccount, provider: Provider, from: string, to: string, paymasterParams: ReturnType<typeof utils.getPaymasterParams>) {
    const customData = { ...PUBDATA, paymasterParams }
    const gasLimit = await estimateFromAccount(provider, { from, to, value: 0n, customData })
    return (await (await signer.sendTransaction({ to, gasLimit, customData })).wait())!
  }

  test('General: an account without ETH sends; the paymaster pays exactly the receipt\'s fee', async () => {
    const provider = zksyncProvider(node)
    const { funder, address, signer } = await ecdsaAccount(provider, 0n)
    const paymaster = await deployFixture(funder, 'GeneralPaymaster')
    const paymasterAddress = await paymaster.getAddress()
    await (await funder.transfer({ to: paymasterAddress, amount: 10n ** 18n })).wait()
    const before = await provider.getBalance(paymasterAddress)
    const to = EthersWallet.createRandom().address

    const receipt = await paymasterSend(signer, provider, address, to, utils.getPaymasterParams(paymasterAddress, { type: 'General', innerInput: '0x' }))

    expect(receipt.status).toBe(1)
    expect(await provider.getBalance(address)).toBe(0n)
    expect(before - (await provider.getBalance(paymasterAddress))).toBe(receipt.gasUsed * receipt.gasPrice)
    expect(await provider.getBalance(BOOTLOADER)).toBe(0n)
    const events = receipt.logs.filter((log: Log) => log.address === paymasterAddress).map((log: Log) => paymaster.interface.parseLog(log)!.name)
    expect(events).toEqual(['Paid', 'PostTransaction'])
    const trace = (await rpc(node)('debug_traceTransaction', receipt.hash, { tracer: 'callTracer' })) as { from: string; to: string }
    expect([trace.from, trace.to]).toEqual([BOOTLOADER, address.toLowerCase()])
  })

  test('ApprovalBased: the account approves the paymaster in prepareForPaymaster and pays in the token', async () => {
    const provider = zksyncProvider(node)
    const { funder, address, signer } = await ecdsaAccount(provider, 0n)
    const token = await deployFixture(funder, 'Token', 'Fee Token', 'FEE', 1_000n)
    const tokenAddress = await token.getAddress()
    const paymaster = await deployFixture(funder, 'ApprovalPaymaster', tokenAddress, 5n)
    const paymasterAddress = await paymaster.getAddress()
    await (await funder.transfer({ to: paymasterAddress, amount: 10n ** 18n })).wait()
    await (await token.getFunction('transfer')(address, 100n)).wait()

    const params = utils.getPaymasterParams(paymasterAddress, { type: 'ApprovalBased', token: tokenAddress, minimalAllowance: 5n, innerInput: '0x' })
    const receipt = await paymasterSend(signer, provider, address, EthersWallet.createRandom().address, params)

    expect(receipt.status).toBe(1)
    expect(await token.getFunction('balanceOf')(address)).toBe(95n)
    expect(await token.getFunction('balanceOf')(paymasterAddress)).toBe(5n)
    expect(await provider.getBalance(address)).toBe(0n)
  })
})

describe('viem\'s zksync actions', () => {
  test('sendTransaction from a toSinglesigSmartAccount: estimated as the account, signed by its owner', async () => {
    const provider = zksyncProvider(node)
    const ownerKey = generatePrivateKey()
    const funder = zksyncWallet(node, 0, provider)
    const contract = await deployFixture(funder, 'EcdsaAccount', privateKeyToAccount(ownerKey).address)
    const address = (await contract.getAddress()) as Hex
    await (await funder.transfer({ to: address, amount: 10n ** 18n })).wait()
    const transport = custom(eip1193(node))
    const chain = { ...zksyncInMemoryNode, id: Number(await rpc(node)('eth_chainId')) }
    const account = toSinglesigSmartAccount({ address, privateKey: ownerKey })
    const wallet = createWalletClient({ account, chain, transport }).extend(eip712WalletActions())
    const client = createPublicClient({ chain, transport })
    const to = privateKeyToAccount(generatePrivateKey()).address

    const hash = await wallet.sendTransaction({ to, value: 77n, type: 'eip712', gasPerPubdata: 50_000n })
    const receipt = await client.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from).toBe(address.toLowerCase())
    expect(await client.getBalance({ address: to })).toBe(77n)

    // With a General paymaster, from an account that has no ETH left to pay with.
    const paymaster = await deployFixture(funder, 'GeneralPaymaster')
    const paymasterAddress = (await paymaster.getAddress()) as Hex
    await (await funder.transfer({ to: paymasterAddress, amount: 10n ** 18n })).wait()
    await rpc(node)('hardhat_setBalance', address, '0x0')
    const paid = await wallet.sendTransaction({ to, paymaster: paymasterAddress, paymasterInput: getGeneralPaymasterInput({ innerInput: '0x' }), gasPerPubdata: 50_000n })
    const paidReceipt = await client.waitForTransactionReceipt({ hash: paid })
    expect(paidReceipt.status).toBe('success')
    expect(await client.getBalance({ address })).toBe(0n)
    expect(await client.getBalance({ address: to })).toBe(77n)
  })
})

test("over the CLI's HTTP, kept in its state file: an account sends (no gasLimit: zksync-ethers' estimate as its owner), and after a restart its transaction still traces and it sends again", async () => {
  const state = join(await tempDir(), 'state.json')
  let cli = await startCli(['--state', state])
  let provider = new Provider(cli.url)
  provider.pollingInterval = 10
  const funder = new ZkWallet(DEV[0].key, provider)
  const owner = EthersWallet.createRandom()
  const contract = await deployFixture(funder, 'EcdsaAccount', owner.address)
  const address = await contract.getAddress()
  await (await funder.transfer({ to: address, amount: 10n ** 18n })).wait()
  // The owner's EOA is the estimate's sender, which must hold the value (as on ZKsync).
  await (await funder.transfer({ to: owner.address, amount: 100n })).wait()
  const send = async (value: bigint) => {
    // No gasLimit: zksync-ethers' own builder has the CLI estimate it.
    const signer = ECDSASmartAccount.create(address, owner.privateKey, provider)
    return (await (await signer.sendTransaction({ to: owner.address, value })).wait())!
  }
  const first = await send(10n)
  expect(first.status).toBe(1)
  await cli.stop()

  cli = await startCli(['--state', state])
  provider = new Provider(cli.url)
  provider.pollingInterval = 10
  const trace = (await provider.send('debug_traceTransaction', [first.hash, { tracer: 'callTracer' }])) as { from: string; to: string }
  expect([trace.from, trace.to]).toEqual([BOOTLOADER, address.toLowerCase()])
  expect((await send(20n)).status).toBe(1)
  expect(await provider.getBalance(owner.address)).toBe(130n)
}, 60_000)

test('a contract account\'s transaction waits in the pool like any other, and is dropped if its validation fails when mined', async () => {
  const manual = await startNode({ mining: { mode: 'manual' } })
  const provider = zksyncProvider(manual)
  const funder = zksyncWallet(manual, 0, provider)
  const owner = EthersWallet.createRandom()
  const artifact = artifacts.EcdsaAccount as { abi: InterfaceAbi; bytecode: string }
  const deployment = await funder.sendTransaction({ ...(await new ContractFactory(artifact.abi, artifact.bytecode).getDeployTransaction(owner.address)), type: 2 })
  await mineBlock(manual)
  const address = (await provider.getTransactionReceipt(deployment.hash))!.contractAddress!
  await rpc(manual)('hardhat_setBalance', address, '0xde0b6b3a7640000')
  const signer = ECDSASmartAccount.create(address, owner.privateKey, provider)
  const first = await signer.sendTransaction({ to: owner.address, value: 1n, gasLimit: 300_000n })
  const second = await signer.sendTransaction({ to: owner.address, value: 2n, gasLimit: 300_000n, nonce: (first.nonce ?? 0) + 1 })
  await mineBlock(manual)
  expect((await provider.getTransactionReceipt(first.hash))!.status).toBe(1)
  expect((await provider.getTransactionReceipt(second.hash))!.status).toBe(1)
  expect(await provider.getBalance(owner.address)).toBe(3n)

  // Admitted, then the account is emptied before the block: dropped, its nonce unused.
  const third = await signer.sendTransaction({ to: owner.address, value: 1n, gasLimit: 300_000n })
  await rpc(manual)('hardhat_setBalance', address, '0x0')
  await mineBlock(manual)
  expect(await provider.getTransactionReceipt(third.hash)).toBeNull()
  expect(await provider.getTransactionCount(address)).toBe(3)
})
