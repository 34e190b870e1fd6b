/**
 * A contract account in the page, through zksync-ethers' SmartAccount: over the in-page provider
 * and over HTTP (the service worker). The account sends ETH with no gasLimit (zksync-ethers' own
 * estimate), a wrong signer is refused with ZKsync's error, and a General paymaster pays for the
 * account once it has no ETH.
 */
import { Contract, ContractFactory, Wallet as EthersWallet, type InterfaceAbi } from 'ethers'
import { BrowserProvider, ECDSASmartAccount, Provider, utils, Wallet } from 'zksync-ethers'
import { expect, test } from 'vitest'
import artifacts from '../../contracts/artifacts.json' with { type: 'json' }
import { startHttpNode } from '../../support/browser/http.ts'
import { DEV, start, uniqueName } from '../../support/browser/nodes.ts'

const PUBDATA = { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT }

async function accountFlows(provider: Provider) {
  const funder = new Wallet(DEV[0].key, provider)
  // Nonces given explicitly: ethers' BrowserProvider caches the nonce it read.
  let nonce = await funder.getNonce()
  const deploy = async (name: 'EcdsaAccount' | 'GeneralPaymaster', ...args: unknown[]) => {
    const artifact = artifacts[name] as { abi: InterfaceAbi; bytecode: string }
    const deployment = await new ContractFactory(artifact.abi, artifact.bytecode).getDeployTransaction(...args)
    const receipt = (await (await funder.sendTransaction({ ...deployment, type: 2, nonce: nonce++ })).wait())!
    return new Contract(receipt.contractAddress!, artifact.abi, funder)
  }
  const owner = EthersWallet.createRandom()
  const address = await (await deploy('EcdsaAccount', owner.address)).getAddress()
  await (await funder.transfer({ to: address, amount: 10n ** 18n, overrides: { nonce: nonce++ } })).wait()

  const account = ECDSASmartAccount.create(address, owner.privateKey, provider)
  const receiver = EthersWallet.createRandom().address
  // No gasLimit: zksync-ethers estimates as the owner's EOA, whose 0x71 estimate has the
  // allowance for the account's steps; that estimate's sender must hold the value, as on ZKsync.
  await provider.send('hardhat_setBalance', [owner.address, '0x3e8'])
  const sent = await account.sendTransaction({ to: receiver, value: 1000n, nonce: 1 })
  const receipt = (await sent.wait())!
  expect(receipt.status).toBe(1)
  expect(receipt.from).toBe(address)
  expect(receipt.gasUsed).toBeLessThan(sent.gasLimit)
  expect(await provider.getBalance(receiver)).toBe(1000n)

  const impostor = ECDSASmartAccount.create(address, EthersWallet.createRandom().privateKey, provider)
  await expect(impostor.sendTransaction({ to: receiver, value: 1n, gasLimit: 500_000n, nonce: 2 })).rejects.toThrow(
    'Account validation error: Account validation returned invalid magic value. Most often this means that the signature is incorrect',
  )

  // The account gives away all its ETH; a General paymaster pays for what it sends next.
  const paymaster = await (await deploy('GeneralPaymaster')).getAddress()
  await (await funder.transfer({ to: paymaster, amount: 10n ** 18n, overrides: { nonce: nonce++ } })).wait()
  await provider.send('hardhat_setBalance', [address, '0x3e8'])
  const customData = { ...PUBDATA, paymasterParams: utils.getPaymasterParams(paymaster, { type: 'General', innerInput: '0x' }) }
  const paid = await account.sendTransaction({ to: receiver, value: 1000n, nonce: 2, customData })
  expect((await paid.wait())!.status).toBe(1)
  // Read with send: ethers' provider answers a getBalance asked again within 250 ms from its cache.
  const balance = async (of: string) => BigInt(await provider.send('eth_getBalance', [of, 'latest']))
  expect(await balance(address)).toBe(0n)
  expect(await balance(receiver)).toBe(2000n)
}

test('over the in-page provider (zksync-ethers BrowserProvider)', async () => {
  const node = await start({ name: uniqueName('zk-account'), persist: false })
  await accountFlows(new BrowserProvider(node.provider) as unknown as Provider)
})

test('over HTTP, through the service worker (zksync-ethers Provider)', async () => {
  const node = await startHttpNode()
  const provider = new Provider(`${node.base}/`)
  provider.pollingInterval = 20
  await accountFlows(provider)
})
