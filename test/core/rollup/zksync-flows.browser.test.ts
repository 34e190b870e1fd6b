/**
 * ZKsync's own flows in the page, through the real clients: over the in-page provider and over
 * HTTP (the service worker). A withdrawal whose proof verifies, an EVM deployment through the
 * ContractDeployer, zksolc output refused, and a rich wallet's balance.
 */
import { Contract, getCreateAddress, hexlify, keccak256, solidityPacked, type InterfaceAbi } from 'ethers'
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
