/**
 * ZKsync's own flows in the page, through the real clients: over the in-page provider and over
 * HTTP (the service worker). A withdrawal whose proof verifies, an EVM deployment through the
 * ContractDeployer, zksolc output refused, a rich wallet's balance, and a general and an
 * approval-based paymaster paying for an account without ETH.
 */
import { Contract, ContractFactory as EthersContractFactory, getCreateAddress, hexlify, keccak256, solidityPacked, Wallet as EthersWallet, type InterfaceAbi } from 'ethers'
import { type Hex } from 'viem'
import { BrowserProvider, ContractFactory, Provider, utils, Wallet } from 'zksync-ethers'
import { expect, test } from 'vitest'
import { proofLayout, walkPath } from '../../../demo/playground/messages/proof.ts'
import { RICH_WALLETS } from '../../../src/core/chain/richWallets.ts'
import artifacts from '../../contracts/artifacts.json' with { type: 'json' }
import { startHttpNode } from '../../support/browser/http.ts'
import { DEV, start, uniqueName } from '../../support/browser/nodes.ts'

const probe = artifacts.Probe as { abi: InterfaceAbi; bytecode: string }
const RECEIVER = '0x000000000000000000000000000000000000bEEF'
const ERAVM_BYTECODE = hexlify(new Uint8Array([0, 0, 0, 0x80, 3, 0, 0, 0x39, ...new Uint8Array(32 * 3 - 8).fill(7)]))

async function zksyncFlows(provider: Provider) {
  const wallet = new Wallet(DEV[0].key, provider)
  expect(await provider.getBalance(RICH_WALLETS[0][0])).toBe(10_000n * 10n ** 18n)

  const withdrawal = await wallet.withdraw({ token: utils.ETH_ADDRESS, amount: 1234n, to: RECEIVER })
  const receipt = await withdrawal.wait()
  const message = solidityPacked(['bytes4', 'address', 'uint256'], ['0x6c0960f9', RECEIVER, 1234n])
  expect(receipt.l2ToL1Logs[0].value).toBe(keccak256(message))
  const params = await wallet.finalizeWithdrawalParams(withdrawal.hash)
  expect(params.message).toBe(message)
  const proof = (await provider.getLogProof(withdrawal.hash))!
  const leaf = utils.getHashedL2ToL1Msg(params.sender, params.message, params.l2TxNumberInBlock!) as Hex
  expect(walkPath(leaf, proofLayout(proof.proof as Hex[]).logPath, proof.id).root).toBe(proof.root)

  const nonce = await wallet.getNonce()
  const deployer = new Contract(utils.CONTRACT_DEPLOYER_ADDRESS, ['function createEVM(bytes) payable returns (uint256, address)'], wallet)
  // Given explicitly: ethers' BrowserProvider caches the nonce it read for the withdrawal.
  const deployed = await (await deployer.createEVM(probe.bytecode, { nonce })).wait()
  expect(deployed.contractAddress).toBe(getCreateAddress({ from: wallet.address, nonce }))
  expect(await new Contract(deployed.contractAddress!, probe.abi, provider).value()).toBe(0n)

  await expect(new ContractFactory([], ERAVM_BYTECODE, wallet).deploy()).rejects.toThrow(/EraVM bytecode \(zksolc output\) cannot run on this node/)
  await paymasterFlows(wallet, provider, nonce + 1)
}

/** A new account with no ETH sends through a general, then an approval-based paymaster. */
async function paymasterFlows(funder: Wallet, provider: Provider, firstNonce: number) {
  // Nonces given explicitly: ethers' BrowserProvider caches the nonce it read.
  let nonce = firstNonce
  const deployFixture = async (name: 'GeneralPaymaster' | 'ApprovalPaymaster' | 'Token', ...args: unknown[]) => {
    const artifact = artifacts[name] as { abi: InterfaceAbi; bytecode: string }
    const deployment = await new EthersContractFactory(artifact.abi, artifact.bytecode).getDeployTransaction(...args)
    const receipt = (await (await funder.sendTransaction({ ...deployment, type: 2, nonce: nonce++ })).wait())!
    return new Contract(receipt.contractAddress!, artifact.abi, funder)
  }
  const general = await deployFixture('GeneralPaymaster')
  const token = await deployFixture('Token', 'Fee Token', 'FEE', 1_000n)
  const approval = await deployFixture('ApprovalPaymaster', await token.getAddress(), 5n)
  for (const paymaster of [general, approval]) {
    await (await funder.transfer({ to: await paymaster.getAddress(), amount: 10n ** 18n, overrides: { nonce: nonce++ } })).wait()
  }
  const user = new Wallet(EthersWallet.createRandom().privateKey, provider)
  await (await token.getFunction('transfer')(user.address, 100n, { nonce: nonce++ })).wait()

  const customData = (paymasterParams: ReturnType<typeof utils.getPaymasterParams>) => ({ gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT, paymasterParams })
  const viaGeneral = customData(utils.getPaymasterParams(await general.getAddress(), { type: 'General', innerInput: '0x' }))
  const first = await (await user.sendTransaction({ to: RECEIVER, data: '0x', nonce: 0, customData: viaGeneral })).wait()
  expect(first.status).toBe(1)
  const viaApproval = customData(
    utils.getPaymasterParams(await approval.getAddress(), { type: 'ApprovalBased', token: await token.getAddress(), minimalAllowance: 5n, innerInput: '0x' }),
  )
  const second = await (await (token.connect(user) as Contract).getFunction('transfer')(RECEIVER, 10n, { nonce: 1, customData: viaApproval })).wait()
  expect(second.status).toBe(1)
  expect(await token.getFunction('balanceOf')(user.address)).toBe(85n)
  expect(await provider.getBalance(user.address)).toBe(0n)
}

test('over the in-page provider (zksync-ethers BrowserProvider)', async () => {
  const node = await start({ name: uniqueName('zk-flows'), persist: false })
  const provider = new BrowserProvider(node.provider)
  await zksyncFlows(provider as unknown as Provider)
})

test('over HTTP, through the service worker (zksync-ethers Provider)', async () => {
  const node = await startHttpNode()
  const provider = new Provider(`${node.base}/`)
  provider.pollingInterval = 20
  await zksyncFlows(provider)
})
