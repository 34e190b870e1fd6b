/**
 * Unmodified HTTP clients in the page, pointed at the node's base URL as they would be at a
 * remote node: each sends a transfer, deploys and calls a contract, and waits for receipts, all
 * over fetch() through the service worker.
 */
import { Contract, ContractFactory, JsonRpcProvider, Wallet, parseEther, type InterfaceAbi } from 'ethers'
import { createWalletClient, http, publicActions, type Abi, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'
import { expect, test } from 'vitest'
import { Web3, type ContractAbi } from 'web3'
import { Provider as ZkProvider } from 'zksync-ethers'
import artifacts from '../contracts/artifacts.json' with { type: 'json' }
import { startHttpNode } from '../support/browser/http.ts'
import { DEV_ACCOUNTS } from '../support/accounts.ts'

const DEV0 = DEV_ACCOUNTS[0]
const OTHER = '0x000000000000000000000000000000000000dead'
const TEN_THOUSAND_ETH = parseEther('10000')
const SUPPLY = parseEther('1000000')
const token = artifacts.Token as { abi: unknown[]; bytecode: string }

test('ethers JsonRpcProvider: transfer, contract deploy and call, receipts', async () => {
  const node = await startHttpNode()
  // Absolute, as an app configures a remote node; ethers batches its calls into JSON-RPC batches.
  const provider = new JsonRpcProvider(`${node.base}/`, undefined, { pollingInterval: 20, cacheTimeout: -1 })
  try {
    const wallet = new Wallet(DEV0.key, provider)
    expect((await provider.getNetwork()).chainId).toBe(260n)

    const sent = await wallet.sendTransaction({ to: OTHER, value: parseEther('1.5') })
    const receipt = await sent.wait()
    expect(receipt?.status).toBe(1)
    expect(receipt?.blockNumber).toBe(1)
    expect(await provider.getBalance(OTHER)).toBe(parseEther('1.5'))

    const factory = new ContractFactory(token.abi as InterfaceAbi, token.bytecode, wallet)
    const deployed = await factory.deploy('Test Token', 'TST', SUPPLY)
    await deployed.waitForDeployment()
    const contract = deployed as Contract
    expect(await contract.balanceOf(DEV0.address)).toBe(SUPPLY)
    const transfer = await contract.transfer(OTHER, 5n)
    const transferReceipt = await transfer.wait()
    expect(transferReceipt.logs).toHaveLength(1)
    expect(await contract.balanceOf(OTHER)).toBe(5n)
  } finally {
    provider.destroy()
  }
})

test("viem http transport with the zksyncInMemoryNode chain's own URL (http://localhost:8011)", async () => {
  await startHttpNode({ baseUrls: ['/rpc-viem', 'http://localhost:8011'] })
  expect(zksyncInMemoryNode.rpcUrls.default.http[0]).toBe('http://localhost:8011')
  // No URL given: viem uses the chain's, where nothing listens; the service worker answers.
  const client = createWalletClient({ account: privateKeyToAccount(DEV0.key), chain: zksyncInMemoryNode, transport: http() }).extend(
    publicActions,
  )
  expect(await client.getChainId()).toBe(260)

  const hash = await client.sendTransaction({ to: OTHER, value: parseEther('2') })
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  expect(receipt.status).toBe('success')
  expect(await client.getBalance({ address: OTHER })).toBe(parseEther('2'))

  const abi = token.abi as Abi
  const deployHash = await client.deployContract({ abi, bytecode: token.bytecode as Hex, args: ['Test Token', 'TST', SUPPLY] })
  const { contractAddress } = await client.waitForTransactionReceipt({ hash: deployHash, pollingInterval: 20 })
  const address = contractAddress!
  expect(await client.readContract({ address, abi, functionName: 'balanceOf', args: [DEV0.address] })).toBe(SUPPLY)
  const transferHash = await client.writeContract({ address, abi, functionName: 'transfer', args: [OTHER, 7n] })
  const transferReceipt = await client.waitForTransactionReceipt({ hash: transferHash, pollingInterval: 20 })
  expect(transferReceipt.logs).toHaveLength(1)
  expect(await client.readContract({ address, abi, functionName: 'balanceOf', args: [OTHER] })).toBe(7n)
})

test('web3.js over HTTP: transfer, contract deploy and call, receipts', async () => {
  const node = await startHttpNode()
  const web3 = new Web3(`${node.base}/`)
  web3.transactionPollingInterval = 20
  web3.transactionReceiptPollingInterval = 20
  web3.eth.accounts.wallet.add(DEV0.key)

  expect(await web3.eth.getChainId()).toBe(260n)
  const receipt = await web3.eth.sendTransaction({ from: DEV0.address, to: OTHER, value: parseEther('3') })
  expect(receipt.status).toBe(1n)
  expect(await web3.eth.getBalance(OTHER)).toBe(parseEther('3'))

  const contract = new web3.eth.Contract(token.abi as ContractAbi)
  const deployed = await contract.deploy({ data: token.bytecode, arguments: ['Test Token', 'TST', SUPPLY] }).send({ from: DEV0.address })
  expect(await deployed.methods.balanceOf(DEV0.address).call()).toBe(SUPPLY)
  const transfer = await deployed.methods.transfer(OTHER, 9n).send({ from: DEV0.address })
  expect(transfer.status).toBe(1n)
  expect(await deployed.methods.balanceOf(OTHER).call()).toBe(9n)
})

test('zksync-ethers Provider: reads, and a transfer and contract signed by an ethers Wallet', async () => {
  const node = await startHttpNode()
  const provider = new ZkProvider(`${node.base}/`)
  provider.pollingInterval = 20
  try {
    expect((await provider.getNetwork()).chainId).toBe(260n)
    expect(await provider.getBalance(DEV0.address)).toBe(TEN_THOUSAND_ETH)

    // zksync-ethers' own Wallet sends EIP-712 (0x71) transactions; an ethers Wallet sends EIP-1559.
    const wallet = new Wallet(DEV0.key, provider)
    const sent = await wallet.sendTransaction({ to: OTHER, value: parseEther('4') })
    const receipt = await provider.waitForTransaction(sent.hash)
    expect(receipt?.status).toBe(1)
    // zksync-ethers' receipt carries ZKsync's fields, read from the node's answer.
    expect(receipt).toMatchObject({ l1BatchNumber: 1, l1BatchTxIndex: 0 })
    expect(await provider.getBalance(OTHER)).toBe(parseEther('4'))

    const factory = new ContractFactory(token.abi as InterfaceAbi, token.bytecode, wallet)
    const deployed = (await factory.deploy('Test Token', 'TST', SUPPLY)) as Contract
    await deployed.waitForDeployment()
    const reader = new Contract(await deployed.getAddress(), token.abi as InterfaceAbi, provider)
    expect(await reader.balanceOf(DEV0.address)).toBe(SUPPLY)
  } finally {
    provider.destroy()
  }
})
