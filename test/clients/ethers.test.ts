import {
  BrowserProvider,
  Contract,
  ContractFactory,
  Transaction,
  Wallet,
  ZeroAddress,
  isCallException,
  parseEther,
  zeroPadValue,
  type EventLog,
  type InterfaceAbi,
  type TransactionReceipt,
  type TransactionResponse,
} from 'ethers'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { Node } from '../../src/core/node.ts'
import { artifacts, DEV, GAS_PRICE, startNode } from '../support/chain.ts'
import { recordingProvider } from '../support/recorder.ts'

const TEN_THOUSAND_ETH = parseEther('10000')
const SUPPLY = parseEther('1000000')
const OTHER = '0x000000000000000000000000000000000000dEaD'

const token = artifacts.Token as { abi: InterfaceAbi; bytecode: string }

let node: Node
let recorder: ReturnType<typeof recordingProvider>
let provider: BrowserProvider
let wallets: Wallet[]

beforeEach(async () => {
  node = await startNode()
  recorder = recordingProvider(node)
  // cacheTimeout -1: every read goes to the node, so a test sees each new block at once.
  provider = new BrowserProvider(recorder, undefined, { pollingInterval: 10, cacheTimeout: -1 })
  wallets = DEV.map((account) => new Wallet(account.key, provider))
})

afterEach(() => {
  provider.destroy()
})

async function deployToken() {
  const factory = new ContractFactory(token.abi, token.bytecode, wallets[0])
  const contract = await factory.deploy('Test Token', 'TST', SUPPLY)
  const deployment = await contract.deploymentTransaction()!.wait()
  return { contract: contract as Contract, deployment: deployment! }
}

/** The signed transaction rebuilt from the node's answer: ethers checks its hash and sender. */
function rebuilt(tx: TransactionResponse): Transaction {
  return Transaction.from({
    type: tx.type,
    to: tx.to,
    from: tx.from,
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    gasPrice: tx.type === 2 ? undefined : tx.gasPrice,
    maxFeePerGas: tx.type === 2 ? tx.maxFeePerGas : undefined,
    maxPriorityFeePerGas: tx.type === 2 ? tx.maxPriorityFeePerGas : undefined,
    data: tx.data,
    value: tx.value,
    chainId: tx.chainId,
    accessList: tx.accessList ?? undefined,
    signature: tx.signature,
    hash: tx.hash,
  })
}

describe('ethers v6 over EIP-1193', () => {
  test('reads chain id, block number, dev balances and fee data', async () => {
    const network = await provider.getNetwork()
    expect(network.chainId).toBe(260n)
    expect(await provider.getBlockNumber()).toBe(0)
    for (const { address } of DEV) expect(await provider.getBalance(address)).toBe(TEN_THOUSAND_ETH)
    expect(await provider.getBalance(OTHER)).toBe(0n)

    const fees = await provider.getFeeData()
    expect(fees.gasPrice).toBe(GAS_PRICE)
    expect(fees.maxPriorityFeePerGas).toBe(0n)
    // ethers: maxFeePerGas = 2 * baseFee + priority fee.
    expect(fees.maxFeePerGas).toBe(2n * GAS_PRICE)

    const history = await provider.send('eth_feeHistory', ['0x1', 'latest', [50]])
    const hex = '0x' + GAS_PRICE.toString(16)
    expect(history).toMatchObject({ oldestBlock: '0x0', baseFeePerGas: [hex, hex], gasUsedRatio: [0], reward: [['0x0']] })
    expect(recorder.unserved).toEqual(new Set())
  })

  test.each([
    { type: 0, name: 'legacy' },
    { type: 1, name: 'EIP-2930' },
    { type: 2, name: 'EIP-1559' },
  ])('sends a $name ETH transfer signed locally and charges exactly value + gas', async ({ type }) => {
    const [from, to] = [wallets[0], DEV[1].address]
    const value = parseEther('1.5')
    const before = [await provider.getBalance(from.address), await provider.getBalance(to)]

    const sent = await from.sendTransaction({ to, value, type })
    const receipt = (await sent.wait())!
    expect(receipt.status).toBe(1)
    expect(receipt.type).toBe(type)
    expect(receipt.gasUsed).toBe(21_000n)
    expect(receipt.gasPrice).toBe(GAS_PRICE)
    expect(receipt.from).toBe(from.address)
    expect(receipt.to?.toLowerCase()).toBe(to)

    const after = [await provider.getBalance(from.address), await provider.getBalance(to)]
    expect(before[0] - after[0]).toBe(value + receipt.gasUsed * receipt.gasPrice)
    expect(after[1] - before[1]).toBe(value)
    expect(await provider.getTransactionCount(from.address)).toBe(1)
    expect(await provider.getBlockNumber()).toBe(1)

    const tx = (await provider.getTransaction(sent.hash))!
    expect(tx.type).toBe(type)
    expect(tx.blockNumber).toBe(1)
    expect(tx.chainId).toBe(260n)
    expect(tx.value).toBe(value)
    expect(rebuilt(tx).hash).toBe(sent.hash)
    expect(recorder.calls).toContain('eth_sendRawTransaction')
    expect(recorder.unserved).toEqual(new Set())
  })

  test('accepts a legacy transfer signed without EIP-155 replay protection', async () => {
    const to = DEV[2].address
    const value = 12_345n
    const raw = await wallets[0].signTransaction({
      type: 0,
      chainId: 0n,
      nonce: 0,
      to,
      value,
      gasLimit: 21_000n,
      gasPrice: GAS_PRICE,
    })
    expect(Transaction.from(raw).signature!.legacyChainId).toBeNull()
    const sent = await provider.broadcastTransaction(raw)
    const receipt = (await sent.wait())!
    expect(receipt.status).toBe(1)
    expect(await provider.getBalance(to)).toBe(TEN_THOUSAND_ETH + value)
    const tx = (await provider.getTransaction(sent.hash))!
    expect(tx.signature.v).toBeOneOf([27, 28])
    expect(rebuilt(tx).hash).toBe(sent.hash)
  })

  test('deploys the ERC-20 and reads, transfers, approves and transfers from', async () => {
    const { contract, deployment } = await deployToken()
    const address = await contract.getAddress()
    expect(deployment.contractAddress).toBe(address)
    expect(deployment.to).toBeNull()
    expect(await provider.getCode(address)).toMatch(/^0x60/)

    expect(await contract.name()).toBe('Test Token')
    expect(await contract.symbol()).toBe('TST')
    expect(await contract.decimals()).toBe(18n)
    expect(await contract.totalSupply()).toBe(SUPPLY)
    expect(await contract.balanceOf(DEV[0].address)).toBe(SUPPLY)

    const sent = await contract.transfer(DEV[1].address, 1_000n)
    const receipt = (await sent.wait()) as TransactionReceipt
    expect(receipt.status).toBe(1)
    expect(await contract.balanceOf(DEV[1].address)).toBe(1_000n)
    expect(await contract.balanceOf(DEV[0].address)).toBe(SUPPLY - 1_000n)

    await (await contract.approve(DEV[2].address, 600n)).wait()
    expect(await contract.allowance(DEV[0].address, DEV[2].address)).toBe(600n)
    const spender = contract.connect(wallets[2]) as Contract
    await (await spender.transferFrom(DEV[0].address, OTHER, 250n)).wait()
    expect(await contract.balanceOf(OTHER)).toBe(250n)
    expect(await contract.allowance(DEV[0].address, DEV[2].address)).toBe(350n)
    expect(await contract.balanceOf(DEV[0].address)).toBe(SUPPLY - 1_250n)
    expect(recorder.unserved).toEqual(new Set())
  })

  test('surfaces the revert reason of a call, an estimate and a write', async () => {
    const { contract } = await deployToken()
    const poor = contract.connect(wallets[1]) as Contract
    const reason = 'ERC20: transfer amount exceeds balance'

    const expectReason = async (promise: Promise<unknown>, expected = reason) => {
      const error = await promise.then(
        () => expect.unreachable('should revert'),
        (e: unknown) => e,
      )
      expect(isCallException(error), String(error)).toBe(true)
      expect((error as { reason: string }).reason).toBe(expected)
    }
    await expectReason(poor.transfer.staticCall(DEV[2].address, 1n))
    await expectReason(poor.transfer.estimateGas(DEV[2].address, 1n))
    // A write is estimated first; the reason comes back from there and nothing is sent.
    await expectReason(poor.transfer(DEV[2].address, 1n))
    expect(await provider.getTransactionCount(DEV[1].address)).toBe(0)
    const spender = contract.connect(wallets[2]) as Contract
    await expectReason(spender.transferFrom.staticCall(DEV[0].address, OTHER, 1n), 'ERC20: insufficient allowance')

    // Sent anyway with a fixed gas limit, it is mined and fails: status 0 through wait().
    const sent = await poor.transfer(DEV[2].address, 1n, { gasLimit: 100_000n })
    const failure = await sent.wait().then(
      () => expect.unreachable('should fail'),
      (e: unknown) => e as { code: string; receipt: TransactionReceipt },
    )
    expect(failure.code).toBe('CALL_EXCEPTION')
    expect(failure.receipt.status).toBe(0)
    expect(failure.receipt.gasUsed).toBeGreaterThan(21_000n)
  })

  test('reads Transfer events with getLogs and queryFilter by address, topics and block range', async () => {
    const { contract, deployment } = await deployToken()
    const address = await contract.getAddress()
    const r1 = (await (await contract.transfer(DEV[1].address, 10n)).wait())!
    const r2 = (await (await contract.transfer(DEV[2].address, 20n)).wait())!
    const r3 = (await (await contract.transfer(DEV[1].address, 30n)).wait())!

    const all = (await contract.queryFilter(contract.filters.Transfer(), 0, 'latest')) as EventLog[]
    expect(all.map((e) => [e.args.from, e.args.to, e.args.value])).toEqual([
      [ZeroAddress, wallets[0].address, SUPPLY],
      [wallets[0].address, wallets[1].address, 10n],
      [wallets[0].address, wallets[2].address, 20n],
      [wallets[0].address, wallets[1].address, 30n],
    ])
    expect(all[0].blockNumber).toBe(deployment.blockNumber)
    expect(all[3].transactionHash).toBe(r3.hash)
    expect(all[3].blockHash).toBe(r3.blockHash)

    const toOne = (await contract.queryFilter(contract.filters.Transfer(null, DEV[1].address))) as EventLog[]
    expect(toOne.map((e) => e.args.value)).toEqual([10n, 30n])

    // A block range that stops before the last transfer.
    const ranged = (await contract.queryFilter(contract.filters.Transfer(DEV[0].address), r1.blockNumber, r2.blockNumber)) as EventLog[]
    expect(ranged.map((e) => e.args.value)).toEqual([10n, 20n])

    const raw = await provider.getLogs({
      address,
      topics: [contract.interface.getEvent('Transfer')!.topicHash, null, [zeroPadValue(DEV[2].address, 32), zeroPadValue(OTHER, 32)]],
      fromBlock: 0,
      toBlock: 'latest',
    })
    expect(raw).toHaveLength(1)
    expect(raw[0].transactionHash).toBe(r2.hash)
    expect(contract.interface.parseLog(raw[0])!.args.value).toBe(20n)

    // By block hash, and with an address that logged nothing.
    expect(await provider.getLogs({ blockHash: r3.blockHash })).toHaveLength(1)
    expect(await provider.getLogs({ address: OTHER, fromBlock: 0 })).toEqual([])
    expect(recorder.unserved).toEqual(new Set())
  })

  test('delivers Transfer events to contract.on through a filter, and new blocks to provider.on', async () => {
    const { contract } = await deployToken()
    const events: Array<[string, string, bigint]> = []
    const seen = new Promise<void>((resolve) => {
      void contract.on('Transfer', (from: string, to: string, value: bigint) => {
        events.push([from, to, value])
        if (events.length === 2) resolve()
      })
    })
    const blocks: number[] = []
    const blockSeen = new Promise<void>((resolve) => {
      void provider.on('block', (n: number) => {
        blocks.push(n)
        if (n >= 4) resolve()
      })
    })
    // Give the subscribers a moment to install their filters before anything happens.
    await new Promise((r) => setTimeout(r, 50))
    await (await contract.transfer(DEV[1].address, 7n)).wait()
    await (await contract.transfer(DEV[2].address, 8n)).wait()
    await (await wallets[1].sendTransaction({ to: OTHER, value: 1n })).wait()
    await Promise.all([seen, blockSeen])
    await contract.removeAllListeners()
    await provider.removeAllListeners()
    // ethers uninstalls its filter in the background once the last listener is gone.
    await vi.waitFor(() => expect(recorder.calls).toContain('eth_uninstallFilter'))

    expect(events).toEqual([
      [wallets[0].address, wallets[1].address, 7n],
      [wallets[0].address, wallets[2].address, 8n],
    ])
    expect(blocks).toEqual([2, 3, 4])
    expect(recorder.calls).toContain('eth_newFilter')
    expect(recorder.calls).toContain('eth_getFilterChanges')
    expect(recorder.unserved).toEqual(new Set())
  })

  test('fetches blocks with hashes and with full transactions, transactions and receipts', async () => {
    const { contract, deployment } = await deployToken()
    const transfer = (await (await contract.transfer(DEV[1].address, 5n)).wait())!

    const genesis = (await provider.getBlock(0))!
    expect(genesis.number).toBe(0)
    expect(genesis.transactions).toEqual([])

    const block = (await provider.getBlock(transfer.blockNumber))!
    expect(block.hash).toBe(transfer.blockHash)
    expect(block.number).toBe(2)
    expect(block.parentHash).toBe(deployment.blockHash)
    expect(block.transactions).toEqual([transfer.hash])
    expect(block.baseFeePerGas).toBe(GAS_PRICE)
    expect(block.gasUsed).toBe(transfer.gasUsed)
    expect(block.gasLimit).toBe(1n << 50n)
    expect(block.timestamp).toBeGreaterThanOrEqual(genesis.timestamp)
    expect(block.miner).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(await provider.getBlock(block.hash!)).toEqual(block)

    const full = (await provider.getBlock(transfer.blockNumber, true))!
    expect(full.prefetchedTransactions).toHaveLength(1)
    const tx = full.prefetchedTransactions[0]
    expect(tx.hash).toBe(transfer.hash)
    expect(tx.blockHash).toBe(block.hash)
    expect(tx.index).toBe(0)
    expect(tx.from).toBe(wallets[0].address)
    expect(tx.to).toBe(await contract.getAddress())
    expect(contract.interface.parseTransaction(tx)!.args.toArray()).toEqual([wallets[1].address, 5n])
    expect(rebuilt(tx).hash).toBe(tx.hash)

    const deployTx = (await provider.getTransaction(deployment.hash))!
    expect(deployTx.to).toBeNull()
    expect(rebuilt(deployTx).hash).toBe(deployment.hash)

    const receipt = (await provider.getTransactionReceipt(transfer.hash))!
    expect(receipt.index).toBe(0)
    expect(receipt.cumulativeGasUsed).toBe(receipt.gasUsed)
    expect(receipt.logs).toHaveLength(1)
    expect(receipt.logs[0].index).toBe(0)
    expect(receipt.logs[0].address).toBe(await contract.getAddress())
    expect(receipt.contractAddress).toBeNull()
    expect(receipt.logsBloom).toMatch(/^0x[0-9a-f]{512}$/)
    expect(await (await receipt.getBlock()).hash).toBe(block.hash)

    expect(await provider.getBlock(99)).toBeNull()
    expect(await provider.getTransaction('0x' + '11'.repeat(32))).toBeNull()
    expect(await provider.getTransactionReceipt('0x' + '11'.repeat(32))).toBeNull()
    expect(recorder.unserved).toEqual(new Set())
  })

  test('reads balances and token balances at an earlier block', async () => {
    const { contract, deployment } = await deployToken()
    const sent = (await (await wallets[0].sendTransaction({ to: OTHER, value: 1_000n })).wait())!
    const moved = (await (await contract.transfer(OTHER, 77n)).wait())!

    expect(await provider.getBalance(OTHER, deployment.blockNumber)).toBe(0n)
    expect(await provider.getBalance(OTHER, sent.blockNumber)).toBe(1_000n)
    expect(await provider.getBalance(DEV[0].address, 0)).toBe(TEN_THOUSAND_ETH)
    expect(await provider.getTransactionCount(DEV[0].address, deployment.blockNumber)).toBe(1)

    expect(await contract.balanceOf(OTHER, { blockTag: sent.blockNumber })).toBe(0n)
    expect(await contract.balanceOf(OTHER, { blockTag: moved.blockNumber })).toBe(77n)
    expect(await contract.balanceOf(OTHER)).toBe(77n)
    // Before the token existed there is no code to call: an empty result, which ethers reports.
    await expect(contract.balanceOf(OTHER, { blockTag: 0 })).rejects.toMatchObject({ code: 'BAD_DATA' })
  })
})
