import { AbiCoder, Contract, ContractFactory, concat, getBytes, keccak256, zeroPadValue, type InterfaceAbi } from 'ethers'
import { beforeEach, describe, expect, test } from 'vitest'
import { types, utils, type Wallet } from 'zksync-ethers'
import type { Node } from '../../../src/core/node.ts'
import { artifacts, DEV, rpc, startNode } from '../../support/chain.ts'
import { zksyncProvider, zksyncWallet } from '../../support/zksync.ts'

const MESSENGER_ABI = ['function sendToL1(bytes message) returns (bytes32)']
const ZERO_HASH = `0x${'00'.repeat(32)}`

let node: Node

beforeEach(async () => {
  node = await startNode()
})

/**
 * zksync-ethers signs no EIP-712 transaction without a `to` (its typed data needs one; on era
 * contracts deploy through ContractDeployer with EraVM bytecode), so the fixture is deployed as
 * the EIP-1559 transaction ethers makes of it; calls to it are the Wallet's default 0x71.
 */
async function deployToken(wallet: Wallet) {
  const artifact = artifacts.Token as { abi: InterfaceAbi; bytecode: string }
  const deployment = await new ContractFactory(artifact.abi, artifact.bytecode).getDeployTransaction('Zk Token', 'ZKT', 1_000_000n)
  const receipt = (await (await wallet.sendTransaction({ ...deployment, type: 2 })).wait())!
  expect(receipt.type).toBe(2)
  return new Contract(receipt.contractAddress!, artifact.abi, wallet)
}

/** era-contracts Merkle.calculateRoot over the proof after its metadata word. */
function rootOf(proof: string[], index: number, leaf: string): string {
  let node = leaf
  for (const sibling of proof.slice(1)) {
    node = keccak256(index % 2 === 0 ? concat([node, sibling]) : concat([sibling, node]))
    index >>= 1
  }
  return node
}

describe('zksync-ethers Provider', () => {
  test('getMainContractAddress, getProtocolVersion, getL1BatchBlockRange, getBlockDetails', async () => {
    const provider = zksyncProvider(node)
    const main = await provider.getMainContractAddress()
    expect(main).toMatch(/^0x[0-9a-f]{40}$/)
    expect(main).not.toBe('0x0000000000000000000000000000000000000000')

    const version = await provider.getProtocolVersion()
    expect(version.version_id).toBe(28)
    expect(version.base_system_contracts.bootloader).toMatch(/^0x[0-9a-f]{64}$/)
    expect(version.verification_keys_hashes.params.recursion_node_level_vk_hash).toMatch(/^0x[0-9a-f]{64}$/)
    const genesis = await provider.getBlock(0)
    expect(version.timestamp).toBe(genesis.timestamp)
    expect(await provider.getProtocolVersion(27)).toBeNull()

    await (await zksyncWallet(node, 0, provider).transfer({ to: DEV[1].address, amount: 1n })).wait()
    expect(await provider.getL1BatchBlockRange(1)).toEqual([1, 1])
    expect(await provider.getL1BatchBlockRange(2)).toBeNull()
    expect(await provider.getL1BatchNumber()).toBe(1)

    const block = await provider.getBlock(1)
    const details = await provider.getBlockDetails(1)
    expect(details.number).toBe(1)
    expect(details.l1BatchNumber).toBe(1)
    expect(details.timestamp).toBe(block.timestamp)
    expect(details.l2TxCount).toBe(1)
    expect(details.status).toBe('verified')
    expect(details.rootHash).toBe(block.hash)
  })

  test('getTransactionDetails and estimateFee', async () => {
    const provider = zksyncProvider(node)
    const fee = await provider.estimateFee({ from: DEV[0].address, to: DEV[1].address, value: 1000n })
    expect(fee).toEqual({ gasLimit: 21_000n, maxFeePerGas: 45_250_000n, maxPriorityFeePerGas: 0n, gasPerPubdataLimit: 50_000n })

    const wallet = zksyncWallet(node, 0, provider)
    const token = await deployToken(wallet)
    const callFee = await provider.estimateFee({
      from: DEV[0].address,
      to: await token.getAddress(),
      data: token.interface.encodeFunctionData('transfer', [DEV[1].address, 5n]),
    })
    expect(callFee.gasLimit).toBeGreaterThan(21_000n)
    expect(callFee.gasLimit).toBe(
      BigInt(await rpc(node)('eth_estimateGas', { from: DEV[0].address, to: await token.getAddress(), data: token.interface.encodeFunctionData('transfer', [DEV[1].address, 5n]) })),
    )

    const sent = await wallet.transfer({ to: DEV[2].address, amount: 7n })
    const receipt = (await sent.wait())!
    const details = await provider.getTransactionDetails(sent.hash)
    expect(details.isL1Originated).toBe(false)
    expect(details.status).toBe('included') // no L1: never committed, as on anvil-zksync
    expect(details.initiatorAddress).toBe(DEV[0].address)
    expect(BigInt(details.fee)).toBe(receipt.gasUsed * receipt.gasPrice)
    expect(BigInt(details.gasPerPubdata)).toBe(50_000n)
    expect(new Date(details.receivedAt).getTime()).toBeGreaterThan(0)
    expect(await provider.getTransactionDetails(ZERO_HASH)).toBeNull()
  })
})

describe('zksync-ethers Wallet (0x71 by default)', () => {
  test('a transfer is an EIP-712 transaction whose hash the node and the client agree on', async () => {
    const wallet = zksyncWallet(node)
    const before = await wallet.provider.getBalance(DEV[1].address)
    const sent = await wallet.transfer({ to: DEV[1].address, amount: 123_456n })
    const receipt = (await sent.wait())!
    expect(receipt.status).toBe(1)
    expect(receipt.type).toBe(113)
    expect(await wallet.provider.getBalance(DEV[1].address)).toBe(before + 123_456n)

    const tx = await wallet.provider.getTransaction(sent.hash)
    expect(tx.type).toBe(113)
    expect(tx.from.toLowerCase()).toBe(DEV[0].address)
    const raw = await rpc(node)<Record<string, unknown>>('eth_getTransactionByHash', sent.hash)
    expect(raw.type).toBe('0x71')
    expect(raw.accessList).toBeUndefined()
    // The block commits to the raw 0x71 bytes (its transactions root is over them).
    const block = await rpc(node)<{ transactions: { hash: string; type: string }[] }>('eth_getBlockByNumber', '0x1', true)
    expect(block.transactions.map((t) => [t.hash, t.type])).toEqual([[sent.hash, '0x71']])
  })

  test('contract calls go out as 0x71 and behave like any transaction', async () => {
    const wallet = zksyncWallet(node)
    const token = await deployToken(wallet)
    expect(await token.balanceOf(DEV[0].address)).toBe(1_000_000n)
    const transfer = await token.transfer(DEV[1].address, 250n)
    const receipt = (await transfer.wait())!
    expect((await wallet.provider.getTransaction(transfer.hash)).type).toBe(113)
    expect(await token.balanceOf(DEV[1].address)).toBe(250n)
    const [event] = receipt.logs
    expect(event.topics[0]).toBe(keccak256(Buffer.from('Transfer(address,address,uint256)')))

    // A revert is mined with status 0, as on era.
    const failing = await token.transfer(DEV[1].address, 10n ** 30n, { gasLimit: 200_000n })
    await expect(failing.wait()).rejects.toMatchObject({ code: 'CALL_EXCEPTION' })
    expect((await wallet.provider.getTransactionDetails(failing.hash)).status).toBe('failed')
  })

  test('nonces follow: several 0x71 transactions in a row, and an ethers-style EIP-1559 one between them', async () => {
    const wallet = zksyncWallet(node)
    for (let i = 0; i < 3; i++) await (await wallet.transfer({ to: DEV[2].address, amount: 1n })).wait()
    const legacy = await wallet.sendTransaction({ type: 2, to: DEV[2].address, value: 1n })
    expect((await legacy.wait())!.type).toBe(2)
    await (await wallet.transfer({ to: DEV[2].address, amount: 1n })).wait()
    expect(await wallet.getNonce()).toBe(5)
  })

  test('an L2→L1 message: getFinalizeWithdrawalParams gives a proof that recomputes to the batch root', async () => {
    const wallet = zksyncWallet(node)
    const messenger = new Contract(utils.L1_MESSENGER_ADDRESS, MESSENGER_ABI, wallet)
    const message = '0x6c0960f936615cf349d7f6344891b1e7ca7c72883f5dc04900000000000000000000000000000000000000000000000000000001a13b8600'
    const sent = await messenger.sendToL1(message)
    await sent.wait()
    // ethers' Contract hands back its own receipt class; the Provider's has the ZKsync fields.
    const receipt = (await wallet.provider.getTransactionReceipt(sent.hash))!
    expect(receipt.type).toBe(113)
    expect(receipt.l2ToL1Logs).toHaveLength(1)
    const [l2ToL1Log] = receipt.l2ToL1Logs
    expect(l2ToL1Log.sender.toLowerCase()).toBe(utils.L1_MESSENGER_ADDRESS.toLowerCase())
    expect(l2ToL1Log.key).toBe(zeroPadValue(DEV[0].address, 32))
    expect(l2ToL1Log.value).toBe(keccak256(message))
    expect(l2ToL1Log.isService).toBe(true)

    const params = await wallet.getFinalizeWithdrawalParams(sent.hash)
    expect(params.message).toBe(message)
    expect(params.sender.toLowerCase()).toBe(DEV[0].address)
    expect(params.l1BatchNumber).toBe(receipt.l1BatchNumber)
    expect(params.l2TxNumberInBlock).toBe(receipt.l1BatchTxIndex)

    const leaf = utils.getHashedL2ToL1Msg(params.sender, params.message, params.l2TxNumberInBlock!)
    const proof = (await wallet.provider.getLogProof(sent.hash))!
    expect(rootOf(params.proof, params.l2MessageIndex, leaf)).toBe(proof.root)
    // An L1 verifier with a different message (or index) gets a different root.
    const forged = utils.getHashedL2ToL1Msg(params.sender, '0x00', params.l2TxNumberInBlock!)
    expect(rootOf(params.proof, params.l2MessageIndex, forged)).not.toBe(proof.root)

    // The batch root itself, recomputed from scratch: the only leaf, 14 empty levels, zero aggregated root.
    let root = leaf
    let empty = keccak256(new Uint8Array(88))
    for (let depth = 0; depth < 14; depth++) {
      root = keccak256(concat([root, empty]))
      empty = keccak256(concat([empty, empty]))
    }
    expect(keccak256(concat([root, ZERO_HASH]))).toBe(proof.root)
  })

  test('waitFinalize: a transaction is final once its batch seals', async () => {
    const wallet = zksyncWallet(node)
    const sent = await wallet.transfer({ to: DEV[1].address, amount: 1n })
    const receipt = await sent.waitFinalize()
    const finalized = await wallet.provider.getBlock('finalized')
    expect(finalized.number).toBeGreaterThanOrEqual(receipt.blockNumber)
  })

  test('a message in a contract call: the decoded message and sender come from the event', async () => {
    const wallet = zksyncWallet(node)
    const messenger = new Contract(utils.L1_MESSENGER_ADDRESS, MESSENGER_ABI, wallet)
    const sent = await messenger.sendToL1('0xabcdef')
    await sent.wait()
    const params = await wallet.getFinalizeWithdrawalParams(sent.hash)
    expect(params.message).toBe('0xabcdef')
    expect(AbiCoder.defaultAbiCoder().encode(['bytes'], [params.message])).toMatch(/abcdef/)
    expect(getBytes(params.proof[0])[0]).toBe(1)
  })
})

test('the EIP-712 types zksync-ethers signs match what the node hashes (hash returned = hash computed)', async () => {
  const wallet = zksyncWallet(node)
  const populated = await wallet.populateTransaction({ to: DEV[1].address, value: 5n, type: utils.EIP712_TX_TYPE })
  const signed = await wallet.signTransaction(populated as types.TransactionRequest)
  const parsed = utils.parseEip712(signed)
  const hash = await rpc(node)<string>('eth_sendRawTransaction', signed)
  expect(hash).toBe(utils.eip712TxHash(parsed as types.TransactionRequest))
})
