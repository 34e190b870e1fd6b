import { Transaction as EthersTransaction } from 'ethers'
import { beforeEach, describe, expect, test } from 'vitest'
import { Web3, type ContractAbi, type Numbers } from 'web3'
import type { Node } from '../../src/core/node.ts'
import { artifacts, DEV, GAS_PRICE, startNode } from '../support/chain.ts'
import { recordingProvider } from '../support/recorder.ts'

const ETHER = 10n ** 18n
const TEN_THOUSAND_ETH = 10_000n * ETHER
const SUPPLY = 1_000_000n * ETHER
const OTHER = '0x000000000000000000000000000000000000dead'
const REASON = 'ERC20: transfer amount exceeds balance'

const abi = artifacts.Token.abi as unknown as ContractAbi
const bytecode = artifacts.Token.bytecode

let node: Node
let recorder: ReturnType<typeof recordingProvider>
let web3: Web3

beforeEach(async () => {
  node = await startNode()
  recorder = recordingProvider(node)
  web3 = new Web3(recorder)
  // Blocks are mined at once; poll for receipts quickly instead of every second.
  web3.transactionPollingInterval = 10
  web3.transactionReceiptPollingInterval = 10
  for (const { key } of DEV) web3.eth.accounts.wallet.add(key)
})


async function deployToken() {
  const contract = new web3.eth.Contract(abi)
  const deployed = await contract.deploy({ data: bytecode, arguments: ['Test Token', 'TST', SUPPLY] }).send({ from: DEV[0].address })
  return deployed
}

/** The signed transaction rebuilt from web3's formatted answer, hashed by an independent serializer. */
function rehash(tx: Awaited<ReturnType<Web3['eth']['getTransaction']>>): string {
  const type = Number(tx.type)
  return EthersTransaction.from({
    type,
    to: tx.to ?? null,
    nonce: Number(tx.nonce),
    gasLimit: tx.gas,
    gasPrice: type === 2 ? undefined : tx.gasPrice,
    maxFeePerGas: type === 2 ? tx.maxFeePerGas : undefined,
    maxPriorityFeePerGas: type === 2 ? tx.maxPriorityFeePerGas : undefined,
    data: tx.input ?? tx.data,
    value: tx.value,
    chainId: tx.chainId,
    accessList: type === 0 ? undefined : (tx.accessList as { address: string; storageKeys: string[] }[]),
    signature: { r: tx.r!, s: tx.s!, v: Number(tx.v) },
  }).hash!
}

describe('web3.js v4 over EIP-1193', () => {
  test('reads chain id, block number, dev balances, gas price and fee history', async () => {
    expect(await web3.eth.getChainId()).toBe(260n)
    expect(await web3.eth.net.getId()).toBe(260n)
    expect(await web3.eth.getBlockNumber()).toBe(0n)
    for (const { address } of DEV) expect(await web3.eth.getBalance(address)).toBe(TEN_THOUSAND_ETH)
    expect(await web3.eth.getGasPrice()).toBe(GAS_PRICE)
    expect(await web3.eth.getMaxPriorityFeePerGas()).toBe(0n)

    const history = await web3.eth.getFeeHistory(2, 'latest', [10, 90])
    expect(history).toMatchObject({ oldestBlock: 0n, baseFeePerGas: [GAS_PRICE, GAS_PRICE], gasUsedRatio: [0] })
    // web3's formatter leaves the rewards as the node sent them (hex).
    expect(history.reward.map((rewards) => rewards.map(BigInt))).toEqual([[0n, 0n]])
    const fees = await web3.eth.calculateFeeData()
    expect(fees.gasPrice).toBe(GAS_PRICE)
    expect(fees.baseFeePerGas).toBe(GAS_PRICE)
    expect(fees.maxPriorityFeePerGas).toBe(0n)
    expect(recorder.unserved).toEqual(new Set())
  })

  test.each([
    { type: 0n, name: 'legacy' },
    { type: 1n, name: 'EIP-2930' },
    { type: 2n, name: 'EIP-1559' },
  ])('sends a $name ETH transfer signed locally and charges exactly value + gas', async ({ type }) => {
    const [from, to] = [DEV[0].address, DEV[1].address]
    const value = 3n * ETHER
    const before = [await web3.eth.getBalance(from), await web3.eth.getBalance(to)]

    const receipt = await web3.eth.sendTransaction({ from, to, value, type, gas: 21_000n })
    expect(receipt.status).toBe(1n)
    expect(receipt.type).toBe(type)
    expect(receipt.gasUsed).toBe(21_000n)
    expect(receipt.from).toBe(from)
    expect(receipt.to).toBe(to)
    expect(receipt.blockNumber).toBe(1n)

    const tx = await web3.eth.getTransaction(receipt.transactionHash)
    expect(tx.type).toBe(type)
    expect(tx.chainId).toBe(260n)
    expect(tx.value).toBe(value)
    expect(tx.from).toBe(from)
    // A legacy or EIP-2930 tx pays its gas price; an EIP-1559 one the base fee plus its tip.
    const expectedPrice = type === 2n ? GAS_PRICE + BigInt(tx.maxPriorityFeePerGas!) : BigInt(tx.gasPrice!)
    expect(receipt.effectiveGasPrice).toBe(expectedPrice)

    const after = [await web3.eth.getBalance(from), await web3.eth.getBalance(to)]
    expect(before[0] - after[0]).toBe(value + BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice!))
    expect(after[1] - before[1]).toBe(value)
    expect(await web3.eth.getTransactionCount(from)).toBe(1n)
    expect(rehash(tx)).toBe(receipt.transactionHash)
    expect(recorder.calls).toContain('eth_sendRawTransaction')
    expect(recorder.unserved).toEqual(new Set())
  })

  test('sends a transaction signed with accounts.signTransaction through sendSignedTransaction', async () => {
    const signed = await web3.eth.accounts.signTransaction(
      { from: DEV[2].address, to: OTHER, value: 42n, gas: 21_000n, gasPrice: GAS_PRICE, nonce: 0n, chainId: 260n, type: 0n },
      DEV[2].key,
    )
    const receipt = await web3.eth.sendSignedTransaction(signed.rawTransaction)
    expect(receipt.transactionHash).toBe(signed.transactionHash)
    expect(receipt.status).toBe(1n)
    expect(await web3.eth.getBalance(OTHER)).toBe(42n)
    expect(await web3.eth.getBalance(DEV[2].address)).toBe(TEN_THOUSAND_ETH - 42n - 21_000n * GAS_PRICE)
  })

  test('deploys the ERC-20 and reads, transfers, approves and transfers from', async () => {
    const token = await deployToken()
    const address = token.options.address!
    expect(await web3.eth.getCode(address)).toMatch(/^0x60/)

    expect(await token.methods.name().call()).toBe('Test Token')
    expect(await token.methods.symbol().call()).toBe('TST')
    expect(await token.methods.decimals().call()).toBe(18n)
    expect(await token.methods.totalSupply().call()).toBe(SUPPLY)
    expect(await token.methods.balanceOf(DEV[0].address).call()).toBe(SUPPLY)

    const receipt = await token.methods.transfer(DEV[1].address, 1_000n).send({ from: DEV[0].address })
    expect(receipt.status).toBe(1n)
    expect(receipt.events?.Transfer?.returnValues.value).toBe(1_000n)
    expect(await token.methods.balanceOf(DEV[1].address).call()).toBe(1_000n)
    expect(await token.methods.balanceOf(DEV[0].address).call()).toBe(SUPPLY - 1_000n)

    await token.methods.approve(DEV[2].address, 600n).send({ from: DEV[0].address })
    expect(await token.methods.allowance(DEV[0].address, DEV[2].address).call()).toBe(600n)
    await token.methods.transferFrom(DEV[0].address, OTHER, 250n).send({ from: DEV[2].address })
    expect(await token.methods.balanceOf(OTHER).call()).toBe(250n)
    expect(await token.methods.allowance(DEV[0].address, DEV[2].address).call()).toBe(350n)
    expect(recorder.unserved).toEqual(new Set())
  })

  test('surfaces the revert reason of a call, an estimate and a write', async () => {
    const token = await deployToken()
    const poor = DEV[1].address
    const transfer = token.methods.transfer(DEV[2].address, 1n)

    type Failure = Error & { cause?: { message: string }; reason?: string; receipt?: { status: bigint } }
    // Takes web3's PromiEvents as well as promises.
    const failure = (promise: { then(onResolved: () => void, onRejected: (e: unknown) => void): unknown }) =>
      new Promise<Failure>((resolve) => {
        promise.then(
          () => resolve(expect.unreachable('should revert')),
          (e) => resolve(e as Failure),
        )
      })
    const call = await failure(transfer.call({ from: poor }))
    expect(call.name).toBe('ContractExecutionError')
    expect(call.cause?.message).toBe(`execution reverted: ${REASON}`)
    const estimate = await failure(transfer.estimateGas({ from: poor }))
    expect(estimate.cause?.message).toBe(`execution reverted: ${REASON}`)

    // web3.eth.sendTransaction simulates the write with eth_call before signing it.
    const data = transfer.encodeABI()
    const simulated = await failure(web3.eth.sendTransaction({ from: poor, to: token.options.address, data }))
    expect(simulated.name).toBe('TransactionRevertInstructionError')
    expect(simulated.reason).toBe(`execution reverted: ${REASON}`)
    expect(await web3.eth.getTransactionCount(poor)).toBe(0n)

    // A contract write is sent without that check: it is mined and fails, and with handleRevert
    // web3 asks the node for the reason afterwards.
    token.handleRevert = true
    const mined = await failure(token.methods.transfer(DEV[2].address, 1n).send({ from: poor, gas: '100000' }))
    // With the contract's ABI at hand web3 decodes the Error(string) as an ABI error.
    expect(mined.name).toBe('TransactionRevertWithCustomError')
    expect(mined.reason).toBe(`execution reverted: ${REASON}`)
    expect(mined.receipt?.status).toBe(0n)
    expect(await web3.eth.getTransactionCount(poor)).toBe(1n)
  })

  test('reads Transfer events through getPastEvents and getPastLogs with topics and block ranges', async () => {
    const token = await deployToken()
    const address = token.options.address!
    const r1 = await token.methods.transfer(DEV[1].address, 10n).send({ from: DEV[0].address })
    const r2 = await token.methods.transfer(DEV[2].address, 20n).send({ from: DEV[0].address })
    const r3 = await token.methods.transfer(DEV[1].address, 30n).send({ from: DEV[0].address })

    type Decoded = { returnValues: { from: string; to: string; value: bigint }; blockNumber?: bigint; transactionHash?: string }
    type Range = { filter?: Record<string, string>; fromBlock?: number | bigint; toBlock?: number | bigint }
    // The ABI comes from JSON, so web3's types do not know the event names.
    const getPastEvents = token.getPastEvents.bind(token) as unknown as (name: string, options: Range) => Promise<Decoded[]>
    const past = (options: Range) => getPastEvents('Transfer', options)
    const all = await past({ fromBlock: 0 })
    expect(all.map((e) => [e.returnValues.from.toLowerCase(), e.returnValues.to.toLowerCase(), e.returnValues.value])).toEqual([
      ['0x0000000000000000000000000000000000000000', DEV[0].address, SUPPLY],
      [DEV[0].address, DEV[1].address, 10n],
      [DEV[0].address, DEV[2].address, 20n],
      [DEV[0].address, DEV[1].address, 30n],
    ])
    expect(all[3].transactionHash).toBe(r3.transactionHash)

    const toOne = await past({ filter: { to: DEV[1].address }, fromBlock: 0 })
    expect(toOne.map((e) => e.returnValues.value)).toEqual([10n, 30n])
    const ranged = await past({ fromBlock: r1.blockNumber, toBlock: r2.blockNumber })
    expect(ranged.map((e) => e.returnValues.value)).toEqual([10n, 20n])

    const transferTopic = web3.eth.abi.encodeEventSignature('Transfer(address,address,uint256)')
    const pad = (a: string) => web3.eth.abi.encodeParameter('address', a)
    const logs = await web3.eth.getPastLogs({
      address,
      topics: [transferTopic, null, [pad(DEV[2].address), pad(OTHER)]],
      fromBlock: 0,
      toBlock: 'latest',
    })
    expect(logs).toHaveLength(1)
    const log = logs[0] as { data: string; topics: string[]; transactionHash: string; blockNumber: bigint; logIndex: bigint }
    expect(log.transactionHash).toBe(r2.transactionHash)
    expect(log.blockNumber).toBe(r2.blockNumber)
    expect(log.logIndex).toBe(0n)
    const decoded = web3.eth.abi.decodeLog(
      [
        { type: 'address', name: 'from', indexed: true },
        { type: 'address', name: 'to', indexed: true },
        { type: 'uint256', name: 'value' },
      ],
      log.data,
      log.topics.slice(1),
    )
    expect(decoded.value).toBe(20n)
    expect(String(decoded.to).toLowerCase()).toBe(DEV[2].address)

    expect(await web3.eth.getPastLogs({ blockHash: r3.blockHash })).toHaveLength(1)
    expect(await web3.eth.getPastLogs({ address: OTHER, fromBlock: 0 })).toEqual([])
    expect(recorder.unserved).toEqual(new Set())
  })

  test('fetches blocks with hashes and with full transactions, transactions and receipts', async () => {
    const token = await deployToken()
    const deployment = await web3.eth.getTransactionReceipt((await web3.eth.getBlock(1)).transactions[0] as string)
    const receipt = await token.methods.transfer(DEV[1].address, 5n).send({ from: DEV[0].address })

    const genesis = await web3.eth.getBlock(0)
    expect(genesis.transactions).toEqual([])

    const block = await web3.eth.getBlock(receipt.blockNumber)
    expect(block.hash).toBe(receipt.blockHash)
    expect(block.number).toBe(2n)
    expect(block.parentHash).toBe(deployment.blockHash)
    expect(block.transactions).toEqual([receipt.transactionHash])
    expect(block.baseFeePerGas).toBe(GAS_PRICE)
    expect(block.gasUsed).toBe(receipt.gasUsed)
    expect(block.gasLimit).toBe(1n << 50n)
    expect(block.timestamp).toBeGreaterThanOrEqual(genesis.timestamp)
    expect(await web3.eth.getBlock(block.hash!)).toEqual(block)
    expect(await web3.eth.getBlockTransactionCount(block.number!)).toBe(1n)

    const full = await web3.eth.getBlock(receipt.blockNumber, true)
    expect(full.transactions).toHaveLength(1)
    const tx = full.transactions[0] as unknown as Awaited<ReturnType<Web3['eth']['getTransaction']>>
    expect(tx.hash).toBe(receipt.transactionHash)
    expect(tx.blockHash).toBe(block.hash)
    expect(tx.transactionIndex).toBe(0n)
    expect(tx.from).toBe(DEV[0].address)
    expect(tx.to).toBe(token.options.address!.toLowerCase())
    expect(tx.type).toBe(2n)
    expect(rehash(tx)).toBe(tx.hash)
    // Read alone, web3 adds `data` (a copy of `input`) to what a full block holds.
    expect(await web3.eth.getTransactionFromBlock(block.number!, 0)).toEqual({ ...tx, data: tx.input })
    expect(await web3.eth.getTransaction(tx.hash)).toEqual({ ...tx, data: tx.input })

    const deployTx = await web3.eth.getTransaction(deployment.transactionHash)
    expect(deployTx.to ?? null).toBeNull()
    expect(rehash(deployTx)).toBe(deployment.transactionHash)
    expect(deployment.contractAddress).toBe(token.options.address!.toLowerCase())

    const fetched = await web3.eth.getTransactionReceipt(receipt.transactionHash)
    expect(fetched.transactionIndex).toBe(0n)
    expect(fetched.cumulativeGasUsed).toBe(fetched.gasUsed)
    expect(fetched.status).toBe(1n)
    expect(fetched.logs).toHaveLength(1)
    expect(fetched.logs[0]).toMatchObject({ address: token.options.address!.toLowerCase(), logIndex: 0n, blockHash: block.hash })

    expect(await web3.eth.getBlock(99)).toBeNull()
    await expect(web3.eth.getTransaction(`0x${'11'.repeat(32)}`)).rejects.toThrow('Transaction not found')
    await expect(web3.eth.getTransactionReceipt(`0x${'11'.repeat(32)}`)).rejects.toThrow('Transaction not found')
    expect(recorder.unserved).toEqual(new Set())
  })

  test('reads balances and token balances at an earlier block', async () => {
    const token = await deployToken()
    const deployedAt = await web3.eth.getBlockNumber()
    const sent = await web3.eth.sendTransaction({ from: DEV[0].address, to: OTHER, value: 1_000n })
    const moved = await token.methods.transfer(OTHER, 77n).send({ from: DEV[0].address })

    expect(await web3.eth.getBalance(OTHER, deployedAt)).toBe(0n)
    expect(await web3.eth.getBalance(OTHER, sent.blockNumber)).toBe(1_000n)
    expect(await web3.eth.getBalance(DEV[0].address, 0)).toBe(TEN_THOUSAND_ETH)
    expect(await web3.eth.getTransactionCount(DEV[0].address, deployedAt)).toBe(1n)

    const balanceAt = (block?: Numbers) => token.methods.balanceOf(OTHER).call({}, block)
    expect(await balanceAt(sent.blockNumber)).toBe(0n)
    expect(await balanceAt(moved.blockNumber)).toBe(77n)
    expect(await balanceAt()).toBe(77n)
    expect(await web3.eth.getCode(token.options.address!, 0)).toBe('0x')
  })
})
