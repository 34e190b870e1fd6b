/**
 * Real client libraries on the page's provider: ethers' BrowserProvider and viem's custom
 * transport deploy a contract, write, read, query its events and decode a revert — on the
 * leader tab and through a follower tab.
 */
import { BrowserProvider, Contract, ContractFactory, Wallet, type InterfaceAbi } from 'ethers'
import { createPublicClient, createWalletClient, custom, defineChain, ContractFunctionRevertedError, type Abi, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import artifacts from '../contracts/artifacts.json' with { type: 'json' }
import { DEV, start, uniqueName } from '../support/browser/nodes.ts'

const token = artifacts.Token as { abi: unknown; bytecode: string }

test('ethers BrowserProvider: deploy, transfer, read, events, and a revert decoded from the error data', async () => {
  const node = await start({ name: uniqueName('ethers') })
  const provider = new BrowserProvider(node.provider, undefined, { pollingInterval: 20, cacheTimeout: -1 })
  expect((await provider.getNetwork()).chainId).toBe(260n)
  const wallet = new Wallet(DEV[0].key, provider)
  const deployed = await new ContractFactory(token.abi as InterfaceAbi, token.bytecode, wallet).deploy('Token', 'TKN', 1000n)
  await deployed.waitForDeployment()
  const erc20 = new Contract(await deployed.getAddress(), token.abi as InterfaceAbi, wallet)

  const receipt = await (await erc20.getFunction('transfer')(DEV[1].address, 250n)).wait()
  expect(receipt.status).toBe(1)
  expect(await erc20.getFunction('balanceOf')(DEV[1].address)).toBe(250n)
  const transfers = await erc20.queryFilter(erc20.filters.Transfer(), 0, 'latest')
  expect(transfers.map((event) => (event as unknown as { args: unknown[] }).args.slice(0, 3))).toEqual([
    ['0x0000000000000000000000000000000000000000', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 1000n],
    ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 250n],
  ])
  await expect(erc20.getFunction('transfer').staticCall(DEV[2].address, 10_000n)).rejects.toMatchObject({
    code: 'CALL_EXCEPTION',
    reason: 'ERC20: transfer amount exceeds balance',
  })
})

test('viem custom(provider) through a follower tab: deploy, write, read, events, and a revert decoded', async () => {
  const name = uniqueName('viem')
  await start({ name })
  const follower = await start({ name })
  expect(follower.role).toBe('follower')
  const chain = defineChain({
    id: 260,
    name: 'pagenode',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [] } },
  })
  const transport = custom(follower.provider)
  const client = createPublicClient({ chain, transport, pollingInterval: 20 })
  const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(DEV[0].key) })
  const abi = token.abi as Abi

  const deployHash = await wallet.deployContract({ abi, bytecode: token.bytecode as Hex, args: ['Token', 'TKN', 1000n] })
  const { contractAddress, status } = await client.waitForTransactionReceipt({ hash: deployHash })
  expect(status).toBe('success')
  const address = contractAddress!
  const hash = await wallet.writeContract({ address, abi, functionName: 'transfer', args: [DEV[1].address, 40n] })
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
  expect(await client.readContract({ address, abi, functionName: 'balanceOf', args: [DEV[1].address] })).toBe(40n)
  const events = await client.getContractEvents({ address, abi, eventName: 'Transfer', fromBlock: 0n })
  expect(events.map((event) => (event as unknown as { args: { value: bigint } }).args.value)).toEqual([1000n, 40n])
  expect(await client.getBlockNumber()).toBe(2n)

  const refused = await client
    .simulateContract({ address, abi, functionName: 'transfer', args: [DEV[2].address, 5000n], account: DEV[1].address })
    .catch((error: { walk(fn: (e: unknown) => boolean): unknown }) => error.walk((e) => e instanceof ContractFunctionRevertedError))
  expect(refused).toBeInstanceOf(ContractFunctionRevertedError)
  expect((refused as ContractFunctionRevertedError).reason).toBe('ERC20: transfer amount exceeds balance')
})
