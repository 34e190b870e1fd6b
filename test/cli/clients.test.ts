import { Contract, ContractFactory, JsonRpcProvider, Network, parseEther, Wallet, type InterfaceAbi } from 'ethers'
import { createPublicClient, createWalletClient, http, parseAbi, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Provider as ZksyncProvider } from 'zksync-ethers'
import { artifacts, DEV, GAS_PRICE } from '../support/chain.ts'
import { startCli, type CliProcess } from '../support/cli.ts'


// One server for the file. Each test sends from its own dev account, so no test depends on the
// nonces or blocks of another.
let server: CliProcess
beforeAll(async () => {
  // --verbose: the request log shows which calls went out as one batch.
  server = await startCli(['--accounts', '3', '--verbose'], { shared: true })
})
afterAll(() => server?.child.kill('SIGKILL'))

function ethersProvider(): JsonRpcProvider {
  // A static network: no eth_chainId probe before every call; no caching between polls.
  return new JsonRpcProvider(server.url, undefined, { staticNetwork: Network.from(260), pollingInterval: 20, cacheTimeout: -1 })
}

describe('ethers JsonRpcProvider', () => {
  test('reads the chain, sends a transfer and a contract deployment, and reads them back', async () => {
    const provider = ethersProvider()
    expect((await provider._detectNetwork()).chainId).toBe(260n)
    expect(await provider.getBalance(DEV[2].address)).toBe(parseEther('10000'))

    const wallet = new Wallet(DEV[0].key, provider)
    const receipt = await (await wallet.sendTransaction({ to: DEV[2].address, value: parseEther('1') })).wait()
    expect(receipt).toMatchObject({ status: 1, from: wallet.address, to: expect.stringMatching(/^0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc$/i) })
    expect(await provider.getBalance(DEV[2].address, receipt!.blockNumber)).toBe(parseEther('10001'))
    expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(receipt!.blockNumber)

    const { abi, bytecode } = artifacts.Token as { abi: InterfaceAbi; bytecode: string }
    const token = await new ContractFactory(abi, bytecode, wallet).deploy('Http', 'HTTP', 1000n)
    await token.waitForDeployment()
    const deployed = new Contract(await token.getAddress(), abi, provider)
    expect(await deployed.getFunction('balanceOf')(wallet.address)).toBe(1000n)
    provider.destroy()
  })

  test('several calls at once go out as one JSON-RPC batch and come back matched', async () => {
    const provider = ethersProvider()
    const [block, chain, balance] = await Promise.all([
      provider.getBlockNumber(),
      provider.send('eth_chainId', []),
      provider.getBalance(DEV[1].address),
    ])
    expect(block).toBeGreaterThanOrEqual(0)
    expect(chain).toBe('0x104')
    expect(balance).toBeGreaterThan(0n)
    await expect.poll(() => server.stdout()).toMatch(/^batch of 3 \((eth_blockNumber|eth_chainId|eth_getBalance)(, (eth_blockNumber|eth_chainId|eth_getBalance)){2}\)/m)
    provider.destroy()
  })
})

describe('viem http() transport', () => {
  test('public and wallet clients on zksyncInMemoryNode: reads, a transfer, its receipt', async () => {
    const transport = http(server.url, { retryCount: 0 })
    const publicClient = createPublicClient({ chain: zksyncInMemoryNode, transport, pollingInterval: 20 })
    const account = privateKeyToAccount(DEV[1].key as Hex)
    const wallet = createWalletClient({ chain: zksyncInMemoryNode, transport, account, pollingInterval: 20 })

    expect(await publicClient.getChainId()).toBe(260)
    expect(await publicClient.getGasPrice()).toBe(GAS_PRICE)
    const to = '0x000000000000000000000000000000000000dEaD'
    const hash = await wallet.sendTransaction({ to, value: 123n })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    expect(receipt).toMatchObject({ status: 'success', from: account.address.toLowerCase(), to: to.toLowerCase() })
    expect(await publicClient.getBalance({ address: to })).toBe(123n)
    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: true })
    expect(block.transactions.map((tx) => tx.hash)).toEqual([hash])
  })

  test('batch: true sends concurrent calls in one HTTP request', async () => {
    const publicClient = createPublicClient({ chain: zksyncInMemoryNode, transport: http(server.url, { batch: true, retryCount: 0 }) })
    const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)'])
    const [chainId, balance, failed] = await Promise.allSettled([
      publicClient.getChainId(),
      publicClient.getBalance({ address: DEV[2].address }),
      // No contract there: the answer (0x) does not decode, and only this call fails.
      publicClient.readContract({ address: DEV[2].address, abi: erc20, functionName: 'balanceOf', args: [DEV[0].address] }),
    ])
    expect(chainId).toEqual({ status: 'fulfilled', value: 260 })
    expect(balance.status).toBe('fulfilled')
    expect(failed.status).toBe('rejected')
    await expect.poll(() => server.stdout()).toMatch(/^batch of 3 \(eth_chainId, eth_getBalance, eth_call\) [\d.]+ms$/m)
  })
})

describe('zksync-ethers Provider', () => {
  test('reads ZKsync shapes over HTTP; an ethers Wallet on it sends a transfer', async () => {
    const provider = new ZksyncProvider(server.url)
    expect((await provider.getNetwork()).chainId).toBe(260n)
    expect(await provider.getGasPrice()).toBe(GAS_PRICE)

    // zksync-ethers' own Wallet signs EIP-712 (0x71) transactions, which the node does not take
    // yet; a plain ethers Wallet on the zksync Provider sends an EIP-1559 one.
    const wallet = new Wallet(DEV[2].key, provider)
    const sent = await wallet.sendTransaction({ to: DEV[0].address, value: parseEther('0.25') })
    await sent.wait()
    const receipt = await provider.getTransactionReceipt(sent.hash)
    expect(receipt).toMatchObject({ status: 1, hash: sent.hash })
    expect(receipt!.l1BatchNumber).toBe(receipt!.blockNumber)
    expect(receipt!.l2ToL1Logs).toEqual([])

    const block = await provider.getBlock(receipt!.blockNumber)
    expect(block.l1BatchNumber).toBe(receipt!.blockNumber)
    expect(block.transactions).toEqual([sent.hash])
    const [before, after] = await Promise.all([
      provider.getBalance(DEV[2].address, receipt!.blockNumber - 1),
      provider.getBalance(DEV[2].address, receipt!.blockNumber),
    ])
    expect(after).toBe(before - parseEther('0.25') - receipt!.gasUsed * receipt!.gasPrice)
    provider.destroy()
  })
})
