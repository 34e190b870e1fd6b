import { createPublicClient, createWalletClient, custom, encodeFunctionData, keccak256, parseAbi, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'
import { eip712WalletActions, publicActionsL2 } from 'viem/zksync'
import { beforeEach, expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { L1_ASSET_ROUTER } from '../../../src/core/rollup/l1Settlement.ts'
import { DEV, eip1193, startNode } from '../../support/chain.ts'

const messengerAbi = parseAbi(['function sendToL1(bytes message) returns (bytes32)'])
const MESSENGER = '0x0000000000000000000000000000000000008008'

let node: Node
beforeEach(async () => {
  node = await startNode()
})

function clients() {
  const transport = custom(eip1193(node), { retryCount: 0 })
  const publicClient = createPublicClient({ chain: zksyncInMemoryNode, transport, pollingInterval: 10 }).extend(publicActionsL2())
  const wallet = createWalletClient({ account: privateKeyToAccount(DEV[0].key), chain: zksyncInMemoryNode, transport, pollingInterval: 10 }).extend(
    eip712WalletActions(),
  )
  return { publicClient, wallet }
}

test("publicActionsL2: the chain's fixed answers", async () => {
  const { publicClient } = clients()
  expect(await publicClient.getMainContractAddress()).toMatch(/^0x[0-9a-f]{40}$/)
  expect(await publicClient.getL1ChainId()).toBe('0x9')
  expect(await publicClient.getBridgehubContractAddress()).toBeNull()
  expect(await publicClient.getTestnetPaymasterAddress()).toBeNull()
  expect(await publicClient.getBaseTokenL1Address()).toBe('0x0000000000000000000000000000000000000001')
  expect(await publicClient.getDefaultBridgeAddresses()).toEqual({
    erc20L1: null,
    sharedL1: L1_ASSET_ROUTER,
    sharedL2: '0x0000000000000000000000000000000000010003',
    l1Nullifier: undefined,
    l1NativeTokenVault: undefined,
  })
  expect(await publicClient.getGasPerPubdata()).toBe(50_000n)
  expect(await publicClient.getAllBalances({ account: DEV[0].address })).toEqual({
    '0x0000000000000000000000000000000000000000': 10_000n * 10n ** 18n,
  })
  expect(await publicClient.getAllBalances({ account: '0x000000000000000000000000000000000000dead' })).toEqual({})
})

test('an EIP-712 transaction signed by viem (its own serializer) is mined, and publicActionsL2 reads it back', async () => {
  const { publicClient, wallet } = clients()
  const fee = await publicClient.estimateFee({ account: DEV[0].address, to: DEV[1].address, value: 1n })
  expect(fee).toEqual({ gasLimit: 21_000n, gasPerPubdataLimit: 50_000n, maxFeePerGas: 45_250_000n, maxPriorityFeePerGas: 0n })
  // viem hands era's U256 through as it came.
  expect(await publicClient.estimateGasL1ToL2({ account: DEV[0].address, to: DEV[1].address, value: 1n })).toBe('0x5208')

  const hash = await wallet.sendTransaction({ to: DEV[1].address, value: 1_000n, type: 'eip712', gasPerPubdata: 50_000n })
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
  expect(receipt.status).toBe('success')
  expect(receipt.l1BatchNumber).toBe(receipt.blockNumber)
  expect(receipt.l1BatchTxIndex).toBe(0n)
  expect(receipt.l2ToL1Logs).toEqual([])
  const transaction = await publicClient.getTransaction({ hash })
  expect(transaction.type).toBe('eip712')

  const blockNumber = Number(receipt.blockNumber)
  expect(await publicClient.getL1BatchNumber()).toBe(`0x${blockNumber.toString(16)}`)
  expect(await publicClient.getL1BatchBlockRange({ l1BatchNumber: blockNumber })).toEqual([blockNumber, blockNumber])
  const batch = await publicClient.getL1BatchDetails({ number: blockNumber })
  expect(batch).toMatchObject({ number: blockNumber, l2TxCount: 1, l1TxCount: 0, status: 'verified' })
  const details = await publicClient.getBlockDetails({ number: blockNumber })
  expect(details).toMatchObject({ number: blockNumber, l1BatchNumber: blockNumber, rootHash: receipt.blockHash })
  expect(await publicClient.getTransactionDetails({ txHash: hash })).toMatchObject({ status: 'included', initiatorAddress: DEV[0].address })

  // viem camel-cases the keys; era's enum tag `L2` has no underscore and stays.
  const [raw] = (await publicClient.getRawBlockTransaction({ number: blockNumber })) as unknown as [
    { commonData: { L2: { transactionType: string; initiatorAddress: string; input: { hash: string } } }; execute: { contractAddress: string }; receivedTimestampMs: number },
  ]
  expect(raw.commonData.L2.transactionType).toBe('EIP712Transaction')
  expect(raw.commonData.L2.initiatorAddress).toBe(DEV[0].address)
  expect(raw.commonData.L2.input.hash).toBe(hash)
  expect(raw.execute.contractAddress).toBe(DEV[1].address)
  expect(raw.receivedTimestampMs).toBeGreaterThan(0)
})

test('getLogProof for a message sent with a viem EIP-712 call', async () => {
  const { publicClient, wallet } = clients()
  const message: Hex = '0xc0ffee'
  const hash = await wallet.sendTransaction({
    to: MESSENGER,
    data: encodeFunctionData({ abi: messengerAbi, functionName: 'sendToL1', args: [message] }),
    type: 'eip712',
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
  expect(receipt.l2ToL1Logs).toHaveLength(1)
  expect(receipt.l2ToL1Logs[0].value).toBe(keccak256(message))
  expect(receipt.logs[0].transactionLogIndex).toBe(0)
  const proof = await publicClient.getLogProof({ txHash: hash })
  expect(proof).toMatchObject({ id: 0 })
  expect(proof!.proof).toHaveLength(16)
  expect(await publicClient.getLogProof({ txHash: hash, index: 1 })).toBeNull()
})
