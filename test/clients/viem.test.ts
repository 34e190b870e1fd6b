import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  custom,
  keccak256,
  parseAbiItem,
  parseEther,
  recoverTransactionAddress,
  serializeTransaction,
  zeroAddress,
  type Abi,
  type Hex,
  type AccessList,
  type TransactionSerializable,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import type { Node } from '../../src/core/node.ts'
import { artifacts, DEV, GAS_PRICE, startNode } from '../support/chain.ts'
import { recordingProvider } from '../support/recorder.ts'

const TEN_THOUSAND_ETH = parseEther('10000')
const SUPPLY = parseEther('1000000')
const OTHER = '0x000000000000000000000000000000000000dead'
const REASON = 'ERC20: transfer amount exceeds balance'

const abi = artifacts.Token.abi as Abi
const bytecode = artifacts.Token.bytecode as Hex
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

/** viem's chain 260, ZKsync formatters and serializers included. */
const chain = zksyncInMemoryNode
const accounts = DEV.map((account) => privateKeyToAccount(account.key))

let node: Node
let recorder: ReturnType<typeof recordingProvider>

function clients() {
  // No retries: a failure shows up as the node's answer, not after a back-off.
  const transport = custom(recorder, { retryCount: 0 })
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 10 })
  const wallet = (index: number) =>
    createWalletClient({ account: accounts[index], chain, transport, pollingInterval: 10 })
  return { publicClient, wallet }
}

beforeEach(async () => {
  node = await startNode()
  recorder = recordingProvider(node)
})


/** Methods the node did not serve (viem's eth_fillTransaction probe included: it is served). */
const unserved = () => [...recorder.unserved]

async function deployToken() {
  const { publicClient, wallet } = clients()
  const hash = await wallet(0).deployContract({ abi, bytecode, args: ['Test Token', 'TST', SUPPLY] })
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
  expect(receipt.status).toBe('success')
  return { address: receipt.contractAddress!, deployment: receipt }
}

/** The fields of a formatted transaction that its signed bytes are made of. */
interface SignedFields {
  type: string
  to: Hex | null
  nonce: number
  gas: bigint
  value: bigint
  input: Hex
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  accessList?: AccessList
  chainId?: number
  r: Hex
  s: Hex
  v: bigint
  yParity?: number
}

/** The signed bytes rebuilt from viem's formatted transaction, and their hash. */
function rehash(tx: SignedFields): Hex {
  const base = { to: tx.to ?? undefined, nonce: tx.nonce, gas: tx.gas, value: tx.value, data: tx.input }
  const typed: TransactionSerializable =
    tx.type === 'legacy'
      ? { ...base, type: 'legacy', gasPrice: tx.gasPrice, chainId: tx.chainId }
      : tx.type === 'eip2930'
        ? { ...base, type: 'eip2930', gasPrice: tx.gasPrice, accessList: tx.accessList, chainId: tx.chainId! }
        : { ...base, type: 'eip1559', maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas, accessList: tx.accessList, chainId: tx.chainId! }
  const signature = tx.type === 'legacy' ? { r: tx.r, s: tx.s, v: tx.v } : { r: tx.r, s: tx.s, yParity: tx.yParity! }
  return keccak256(serializeTransaction(typed, signature))
}

describe('viem over EIP-1193 (chain zksyncInMemoryNode)', () => {
  test('reads chain id, block number, dev balances, gas price, fee estimates and fee history', async () => {
    const { publicClient } = clients()
    expect(await publicClient.getChainId()).toBe(260)
    expect(await publicClient.getBlockNumber({ cacheTime: 0 })).toBe(0n)
    for (const account of accounts) expect(await publicClient.getBalance({ address: account.address })).toBe(TEN_THOUSAND_ETH)
    expect(await publicClient.getGasPrice()).toBe(GAS_PRICE)
    expect(await publicClient.estimateMaxPriorityFeePerGas()).toBe(0n)
    // eth_blobBaseFee: no blob is ever mined, so EIP-4844's minimum.
    expect(await publicClient.getBlobBaseFee()).toBe(1n)
    // viem pads the base fee by 1.2 for the fee cap.
    expect(await publicClient.estimateFeesPerGas()).toEqual({ maxFeePerGas: (GAS_PRICE * 12n) / 10n, maxPriorityFeePerGas: 0n })
    expect(await publicClient.estimateFeesPerGas({ type: 'legacy' })).toEqual({ gasPrice: (GAS_PRICE * 12n) / 10n })

    const history = await publicClient.getFeeHistory({ blockCount: 4, rewardPercentiles: [25, 75] })
    expect(history).toEqual({
      oldestBlock: 0n,
      baseFeePerGas: [GAS_PRICE, GAS_PRICE],
      gasUsedRatio: [0],
      reward: [[0n, 0n]],
    })
    expect(unserved()).toEqual([])
  })

  test.each(['legacy', 'eip2930', 'eip1559'] as const)(
    'sends a %s ETH transfer signed locally and charges exactly value + gas',
    async (type) => {
      const { publicClient, wallet } = clients()
      const [from, to] = [accounts[0].address, accounts[1].address]
      const value = parseEther('2.25')
      const before = [await publicClient.getBalance({ address: from }), await publicClient.getBalance({ address: to })]

      const hash = await wallet(0).sendTransaction({ to, value, type })
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
      expect(receipt.status).toBe('success')
      expect(receipt.type).toBe(type)
      expect(receipt.gasUsed).toBe(21_000n)
      // A legacy or EIP-2930 tx pays its gasPrice (viem offers 1.2 x the base fee); EIP-1559 pays
      // the base fee plus a zero tip.
      const tx = await publicClient.getTransaction({ hash })
      expect(receipt.effectiveGasPrice).toBe(type === 'eip1559' ? GAS_PRICE : tx.gasPrice)
      expect(receipt.from).toBe(from.toLowerCase())
      expect(receipt.to).toBe(to.toLowerCase())
      expect(receipt.blockNumber).toBe(1n)

      const after = [await publicClient.getBalance({ address: from }), await publicClient.getBalance({ address: to })]
      expect(before[0] - after[0]).toBe(value + receipt.gasUsed * receipt.effectiveGasPrice)
      expect(after[1] - before[1]).toBe(value)
      expect(await publicClient.getTransactionCount({ address: from })).toBe(1)

      expect(tx).toMatchObject({ type, chainId: 260, value, blockNumber: 1n })
      expect(rehash(tx)).toBe(hash)
      expect(recorder.calls).toContain('eth_sendRawTransaction')
      expect(unserved()).toEqual([])
    },
  )

  test('deploys the ERC-20 and reads, transfers, approves and transfers from', async () => {
    const { publicClient, wallet } = clients()
    const { address, deployment } = await deployToken()
    expect(deployment.to).toBeNull()
    expect(await publicClient.getCode({ address })).toMatch(/^0x60/)

    const read = (functionName: string, args: unknown[] = []) => publicClient.readContract({ address, abi, functionName, args })
    expect(await read('name')).toBe('Test Token')
    expect(await read('symbol')).toBe('TST')
    expect(await read('decimals')).toBe(18)
    expect(await read('totalSupply')).toBe(SUPPLY)
    expect(await read('balanceOf', [accounts[0].address])).toBe(SUPPLY)

    const write = async (index: number, functionName: string, args: unknown[]) => {
      const { request, result } = await publicClient.simulateContract({ account: accounts[index], address, abi, functionName, args })
      expect(result).toBe(true)
      const hash = await wallet(index).writeContract(request)
      return publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
    }
    expect((await write(0, 'transfer', [accounts[1].address, 1_000n])).status).toBe('success')
    expect(await read('balanceOf', [accounts[1].address])).toBe(1_000n)
    expect(await read('balanceOf', [accounts[0].address])).toBe(SUPPLY - 1_000n)

    await write(0, 'approve', [accounts[2].address, 600n])
    expect(await read('allowance', [accounts[0].address, accounts[2].address])).toBe(600n)
    await write(2, 'transferFrom', [accounts[0].address, OTHER, 250n])
    expect(await read('balanceOf', [OTHER])).toBe(250n)
    expect(await read('allowance', [accounts[0].address, accounts[2].address])).toBe(350n)
    expect(unserved()).toEqual([])
  })

  test('surfaces the revert reason of a call, an estimate, a simulated write and a write', async () => {
    const { publicClient, wallet } = clients()
    const { address } = await deployToken()
    const poor = accounts[1]
    const args = [accounts[2].address, 1n] as const

    const reasonOf = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => expect.unreachable('should revert'),
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(BaseError)
      const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
      expect(reverted, String(error)).toBeInstanceOf(ContractFunctionRevertedError)
      return (reverted as ContractFunctionRevertedError).reason
    }
    expect(await reasonOf(publicClient.readContract({ account: poor, address, abi, functionName: 'transfer', args }))).toBe(REASON)
    expect(await reasonOf(publicClient.estimateContractGas({ account: poor, address, abi, functionName: 'transfer', args }))).toBe(REASON)
    expect(await reasonOf(publicClient.simulateContract({ account: poor, address, abi, functionName: 'transfer', args }))).toBe(REASON)
    expect(await reasonOf(wallet(1).writeContract({ address, abi, functionName: 'transfer', args }))).toBe(REASON)
    expect(
      await reasonOf(
        publicClient.simulateContract({ account: accounts[2], address, abi, functionName: 'transferFrom', args: [accounts[0].address, OTHER, 1n] }),
      ),
    ).toBe('ERC20: insufficient allowance')
    // Nothing was sent.
    expect(await publicClient.getTransactionCount({ address: poor.address })).toBe(0)

    // Sent anyway with a fixed gas limit, it is mined and fails.
    const hash = await wallet(1).writeContract({ address, abi, functionName: 'transfer', args, gas: 100_000n })
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
    expect(receipt.status).toBe('reverted')
    expect(receipt.logs).toEqual([])
  })

  test('reads Transfer events with getLogs and getContractEvents by address, args and block range', async () => {
    const { publicClient, wallet } = clients()
    const { address, deployment } = await deployToken()
    const transfer = async (to: Hex, value: bigint) => {
      const hash = await wallet(0).writeContract({ address, abi, functionName: 'transfer', args: [to, value] })
      return publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
    }
    const r1 = await transfer(accounts[1].address, 10n)
    const r2 = await transfer(accounts[2].address, 20n)
    const r3 = await transfer(accounts[1].address, 30n)

    const all = await publicClient.getContractEvents({ address, abi, eventName: 'Transfer', fromBlock: 0n })
    const triples = (logs: typeof all) =>
      logs.map((log) => {
        const args = log.args as { from: Hex; to: Hex; value: bigint }
        return [args.from.toLowerCase(), args.to.toLowerCase(), args.value]
      })
    expect(triples(all)).toEqual([
      [zeroAddress, DEV[0].address, SUPPLY],
      [DEV[0].address, DEV[1].address, 10n],
      [DEV[0].address, DEV[2].address, 20n],
      [DEV[0].address, DEV[1].address, 30n],
    ])
    expect(all[0].blockNumber).toBe(deployment.blockNumber)
    expect(all[3].transactionHash).toBe(r3.transactionHash)
    expect(all.map((log) => log.logIndex)).toEqual([0, 0, 0, 0])

    const toOne = await publicClient.getContractEvents({ address, abi, eventName: 'Transfer', args: { to: accounts[1].address }, fromBlock: 0n })
    expect(toOne.map((log) => (log.args as { value: bigint }).value)).toEqual([10n, 30n])

    const ranged = await publicClient.getLogs({
      address,
      event: transferEvent,
      args: { from: accounts[0].address },
      fromBlock: r1.blockNumber,
      toBlock: r2.blockNumber,
    })
    expect(ranged.map((log) => log.args.value)).toEqual([10n, 20n])
    expect(ranged[1].blockHash).toBe(r2.blockHash)

    const orTo = await publicClient.getLogs({ address, event: transferEvent, args: { to: [accounts[2].address, OTHER] }, fromBlock: 0n })
    expect(orTo.map((log) => log.transactionHash)).toEqual([r2.transactionHash])

    expect(await publicClient.getLogs({ blockHash: r3.blockHash })).toHaveLength(1)
    expect(await publicClient.getLogs({ address: OTHER, fromBlock: 0n })).toEqual([])
    expect(unserved()).toEqual([])
  })

  test('reads Transfer events through event filters, a block filter and watchContractEvent', async () => {
    const { publicClient, wallet } = clients()
    const { address, deployment } = await deployToken()
    const transfer = async (to: Hex, value: bigint) => {
      const hash = await wallet(0).writeContract({ address, abi, functionName: 'transfer', args: [to, value] })
      return publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
    }
    const values = (logs: Array<{ args: unknown }>) => logs.map((log) => (log.args as { value: bigint }).value)

    // No fromBlock: the filter sees what is mined after it was made (viem's and ethers' default).
    const toOne = await publicClient.createContractEventFilter({ address, abi: [transferEvent], eventName: 'Transfer', args: { to: accounts[1].address } })
    const sinceDeployment = await publicClient.createContractEventFilter({ address, abi: [transferEvent], eventName: 'Transfer', fromBlock: deployment.blockNumber })
    const blockFilter = await publicClient.createBlockFilter()
    const watched: bigint[] = []
    const unwatch = publicClient.watchContractEvent({
      address,
      abi: [transferEvent],
      eventName: 'Transfer',
      pollingInterval: 10,
      onLogs: (logs) => watched.push(...values(logs)),
    })
    try {
      // Let the watcher install its filter before the first transfer.
      await vi.waitFor(() => expect(recorder.calls.filter((m) => m === 'eth_newFilter')).toHaveLength(3))

      // Two blocks between polls: both must be reported.
      const r1 = await transfer(accounts[1].address, 11n)
      const r2 = await transfer(accounts[2].address, 12n)
      const changes = await publicClient.getFilterChanges({ filter: toOne })
      expect(changes.map((log) => [log.args.to?.toLowerCase(), log.args.value])).toEqual([[DEV[1].address, 11n]])
      expect(changes[0]?.transactionHash).toBe(r1.transactionHash)
      expect(await publicClient.getFilterChanges({ filter: toOne })).toEqual([])
      expect(values(await publicClient.getFilterChanges({ filter: sinceDeployment }))).toEqual([11n, 12n])
      expect(await publicClient.getFilterChanges({ filter: blockFilter })).toEqual([r1.blockHash, r2.blockHash])
      expect(await publicClient.getFilterChanges({ filter: blockFilter })).toEqual([])

      await transfer(accounts[1].address, 13n)
      expect(values(await publicClient.getFilterChanges({ filter: toOne }))).toEqual([13n])
      expect(values(await publicClient.getFilterChanges({ filter: sinceDeployment }))).toEqual([13n])
      expect(values(await publicClient.getFilterLogs({ filter: sinceDeployment }))).toEqual([SUPPLY, 11n, 12n, 13n])

      await vi.waitFor(() => expect(watched).toEqual([11n, 12n, 13n]))
    } finally {
      unwatch()
    }
    expect(await publicClient.uninstallFilter({ filter: toOne })).toBe(true)
    expect(await publicClient.uninstallFilter({ filter: blockFilter })).toBe(true)
    expect(await publicClient.uninstallFilter({ filter: blockFilter })).toBe(false)
    // The watcher used its filter, never the getLogs fallback.
    expect(recorder.calls).not.toContain('eth_getLogs')
    expect(unserved()).toEqual([])
  })

  test('fetches blocks with hashes and with full transactions, transactions and receipts (ZKsync fields included)', async () => {
    const { publicClient, wallet } = clients()
    const { address, deployment } = await deployToken()
    const hash = await wallet(0).writeContract({ address, abi, functionName: 'transfer', args: [accounts[1].address, 5n] })
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })

    const genesis = await publicClient.getBlock({ blockNumber: 0n })
    expect(genesis.transactions).toEqual([])

    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber })
    expect(block.hash).toBe(receipt.blockHash)
    expect(block.number).toBe(2n)
    expect(block.parentHash).toBe(deployment.blockHash)
    expect(block.transactions).toEqual([hash])
    expect(block.baseFeePerGas).toBe(GAS_PRICE)
    expect(block.gasUsed).toBe(receipt.gasUsed)
    expect(block.gasLimit).toBe(1n << 50n)
    expect(block.timestamp).toBeGreaterThanOrEqual(genesis.timestamp)
    expect(block.l1BatchNumber).toBe(2n)
    expect(block.l1BatchTimestamp).toBe(block.timestamp)
    expect(await publicClient.getBlock({ blockHash: block.hash })).toEqual(block)
    expect(await publicClient.getBlockTransactionCount({ blockNumber: block.number })).toBe(1)

    const full = await publicClient.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: true })
    expect(full.transactions).toHaveLength(1)
    const tx = full.transactions[0]
    expect(tx.hash).toBe(hash)
    expect(tx.blockHash).toBe(block.hash)
    expect(tx.transactionIndex).toBe(0)
    expect(tx.from).toBe(DEV[0].address)
    expect(tx.to).toBe(address)
    expect(tx.type).toBe('eip1559')
    expect(tx.l1BatchNumber).toBe(2n)
    expect(tx.l1BatchTxIndex).toBe(0n)
    expect(rehash(tx)).toBe(hash)
    expect(await publicClient.getTransaction({ blockNumber: block.number, index: 0 })).toEqual(tx)
    expect(await publicClient.getTransaction({ blockHash: block.hash, index: 0 })).toEqual(tx)

    const deployTx = await publicClient.getTransaction({ hash: deployment.transactionHash })
    expect(deployTx.to).toBeNull()
    expect(rehash(deployTx)).toBe(deployment.transactionHash)
    const rebuilt = serializeTransaction(
      { type: 'eip1559', chainId: 260, nonce: deployTx.nonce, gas: deployTx.gas, maxFeePerGas: deployTx.maxFeePerGas, maxPriorityFeePerGas: deployTx.maxPriorityFeePerGas, data: deployTx.input, value: deployTx.value },
      { r: deployTx.r, s: deployTx.s, yParity: deployTx.yParity! },
    )
    expect((await recoverTransactionAddress({ serializedTransaction: rebuilt })).toLowerCase()).toBe(DEV[0].address)

    const fetched = await publicClient.getTransactionReceipt({ hash })
    expect(fetched).toEqual(receipt)
    expect(fetched.transactionIndex).toBe(0)
    expect(fetched.cumulativeGasUsed).toBe(fetched.gasUsed)
    expect(fetched.contractAddress).toBeNull()
    expect(fetched.l1BatchNumber).toBe(2n)
    expect(fetched.l2ToL1Logs).toEqual([])
    expect(fetched.logs).toHaveLength(1)
    expect(fetched.logs[0]).toMatchObject({ address, logIndex: 0, transactionLogIndex: 0, l1BatchNumber: 2n, blockHash: block.hash })
    expect(deployment.contractAddress).toBe(address)

    await expect(publicClient.getBlock({ blockNumber: 99n })).rejects.toThrow(/could not be found/)
    await expect(publicClient.getTransaction({ hash: `0x${'11'.repeat(32)}` })).rejects.toThrow(/could not be found/)
    await expect(publicClient.getTransactionReceipt({ hash: `0x${'11'.repeat(32)}` })).rejects.toThrow(/could not be found/)
    expect(unserved()).toEqual([])
  })

  test('reads balances and token balances at an earlier block', async () => {
    const { publicClient, wallet } = clients()
    const { address, deployment } = await deployToken()
    const sent = await publicClient.waitForTransactionReceipt({
      hash: await wallet(0).sendTransaction({ to: OTHER, value: 1_000n }),
      pollingInterval: 10,
    })
    const moved = await publicClient.waitForTransactionReceipt({
      hash: await wallet(0).writeContract({ address, abi, functionName: 'transfer', args: [OTHER, 77n] }),
      pollingInterval: 10,
    })

    expect(await publicClient.getBalance({ address: OTHER, blockNumber: deployment.blockNumber })).toBe(0n)
    expect(await publicClient.getBalance({ address: OTHER, blockNumber: sent.blockNumber })).toBe(1_000n)
    expect(await publicClient.getBalance({ address: accounts[0].address, blockNumber: 0n })).toBe(TEN_THOUSAND_ETH)
    expect(await publicClient.getTransactionCount({ address: accounts[0].address, blockNumber: deployment.blockNumber })).toBe(1)

    const balanceAt = (blockNumber?: bigint) => publicClient.readContract({ address, abi, functionName: 'balanceOf', args: [OTHER], blockNumber })
    expect(await balanceAt(sent.blockNumber)).toBe(0n)
    expect(await balanceAt(moved.blockNumber)).toBe(77n)
    expect(await balanceAt()).toBe(77n)
    expect(await publicClient.getCode({ address, blockNumber: 0n })).toBeUndefined()
  })
})
