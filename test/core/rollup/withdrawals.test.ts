import { concat, Contract, JsonRpcProvider, keccak256, parseEther, solidityPacked, type Log } from 'ethers'
import { createPublicClient, createWalletClient, custom, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'
import { publicActionsL2, walletActionsL2 } from 'viem/zksync'
import { Provider, utils, Wallet } from 'zksync-ethers'
import { describe, expect, test } from 'vitest'
import { proofLayout, walkPath } from '../../../demo/playground/messages/proof.ts'
import { DEV, eip1193, rpc, startNode } from '../../support/chain.ts'
import { startCli } from '../../support/cli.ts'
import { zksyncProvider, zksyncWallet } from '../../support/zksync.ts'

const TOKEN_ABI = [
  'function totalSupply() view returns (uint256)',
  'event Withdrawal(address indexed _l2Sender, address indexed _l1Receiver, uint256 _amount)',
  'event WithdrawalWithMessage(address indexed _l2Sender, address indexed _l1Receiver, uint256 _amount, bytes _additionalData)',
]
/** IMailbox.finalizeEthWithdrawal's selector: what a withdrawal message asks L1 to call. */
const FINALIZE_ETH_WITHDRAWAL = '0x6c0960f9'
const RECEIVER = '0x000000000000000000000000000000000000bEEF'

/** The proof verifies as L1 would: the log's leaf, walked up its path, gives the claimed root. */
async function expectVerifiedProof(provider: Provider, hash: string) {
  const params = await new Wallet(DEV[0].key, provider).finalizeWithdrawalParams(hash)
  const leaf = utils.getHashedL2ToL1Msg(params.sender, params.message, params.l2TxNumberInBlock!)
  const proof = (await provider.getLogProof(hash))!
  const { root } = walkPath(leaf as Hex, proofLayout(proof.proof as Hex[]).logPath, proof.id)
  expect(root).toBe(proof.root)
  const forged = utils.getHashedL2ToL1Msg(params.sender, concat([params.message, '0x00']), params.l2TxNumberInBlock!)
  expect(walkPath(forged as Hex, proofLayout(proof.proof as Hex[]).logPath, proof.id).root).not.toBe(proof.root)
  return params
}

describe('an ETH withdrawal through zksync-ethers', () => {
  test('burns the amount, emits Withdrawal, sends the message L1 finalizes, and its proof verifies', async () => {
    const node = await startNode()
    const provider = zksyncProvider(node)
    const wallet = zksyncWallet(node, 0, provider)
    const token = new Contract(utils.L2_BASE_TOKEN_ADDRESS, TOKEN_ABI, provider)
    const supply = (await token.totalSupply()) as bigint
    const before = await provider.getBalance(wallet.address)
    const amount = parseEther('1.5')

    const tx = await wallet.withdraw({ token: utils.ETH_ADDRESS, amount, to: RECEIVER })
    const receipt = await tx.wait()
    expect(receipt.status).toBe(1)
    expect(receipt.type).toBe(utils.EIP712_TX_TYPE)
    // Gone from circulation: the sender paid amount + fee, nobody holds the amount, the supply dropped.
    expect(await provider.getBalance(wallet.address)).toBe(before - amount - receipt.gasUsed * receipt.gasPrice)
    expect(await provider.getBalance(utils.L2_BASE_TOKEN_ADDRESS)).toBe(0n)
    expect(await token.totalSupply()).toBe(supply - amount)

    const event = receipt.logs.map((log: Log) => token.interface.parseLog(log)).find((parsed) => parsed?.name === 'Withdrawal')
    expect(event?.args.toArray()).toEqual([wallet.address, RECEIVER, amount])
    const message = solidityPacked(['bytes4', 'address', 'uint256'], [FINALIZE_ETH_WITHDRAWAL, RECEIVER, amount])
    expect(receipt.l2ToL1Logs).toHaveLength(1)
    expect(receipt.l2ToL1Logs[0]).toMatchObject({
      sender: utils.L1_MESSENGER_ADDRESS,
      key: `0x${utils.L2_BASE_TOKEN_ADDRESS.slice(2).padStart(64, '0')}`,
      value: keccak256(message),
    })

    const params = await expectVerifiedProof(provider, tx.hash)
    expect(params).toMatchObject({ sender: utils.L2_BASE_TOKEN_ADDRESS, message, l1BatchNumber: receipt.l1BatchNumber, l2MessageIndex: 0, l2TxNumberInBlock: 0 })
    // The L1 half (finalizeWithdrawal) needs an L1, which this node does not have.
  })

  test('withdrawWithMessage carries the sender and the data in the message', async () => {
    const node = await startNode()
    const provider = zksyncProvider(node)
    const wallet = zksyncWallet(node, 1, provider)
    const token = new Contract(utils.L2_BASE_TOKEN_ADDRESS, [...TOKEN_ABI, 'function withdrawWithMessage(address,bytes) payable'], wallet)
    const tx = await token.withdrawWithMessage(RECEIVER, '0xc0ffee', { value: 1000n })
    const receipt = await provider.getTransactionReceipt((await tx.wait()).hash)
    const message = solidityPacked(['bytes4', 'address', 'uint256', 'address', 'bytes'], [FINALIZE_ETH_WITHDRAWAL, RECEIVER, 1000n, wallet.address, '0xc0ffee'])
    expect(receipt!.l2ToL1Logs[0].value).toBe(keccak256(message))
    const event = receipt!.logs.map((log) => token.interface.parseLog(log)).find((parsed) => parsed?.name === 'WithdrawalWithMessage')
    expect(event?.args.toArray()).toEqual([wallet.address, RECEIVER, 1000n, '0xc0ffee'])
    expect((await expectVerifiedProof(provider, receipt!.hash)).message).toBe(message)
  })

  test('a withdrawal of more than the balance fails before it is sent, and nothing moves', async () => {
    const node = await startNode({ accounts: 1, balance: parseEther('1'), richWallets: false })
    const wallet = zksyncWallet(node, 0)
    await expect(wallet.withdraw({ token: utils.ETH_ADDRESS, amount: parseEther('2'), to: RECEIVER })).rejects.toThrow(/insufficient funds/)
    expect(await rpc(node)('eth_getBalance', DEV[0].address, 'latest')).toBe('0xde0b6b3a7640000')
  })
})

test("viem's walletActionsL2().withdraw and publicActionsL2().getLogProof", async () => {
  const node = await startNode()
  const transport = custom(eip1193(node), { retryCount: 0 })
  const publicClient = createPublicClient({ chain: zksyncInMemoryNode, transport, pollingInterval: 10 }).extend(publicActionsL2())
  const wallet = createWalletClient({ account: privateKeyToAccount(DEV[2].key), chain: zksyncInMemoryNode, transport, pollingInterval: 10 }).extend(walletActionsL2())
  const hash = await wallet.withdraw({ token: utils.ETH_ADDRESS as Hex, amount: 777n, to: RECEIVER })
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
  expect(receipt.status).toBe('success')
  const message = solidityPacked(['bytes4', 'address', 'uint256'], [FINALIZE_ETH_WITHDRAWAL, RECEIVER, 777n])
  expect(receipt.l2ToL1Logs[0]).toMatchObject({ sender: utils.L1_MESSENGER_ADDRESS, value: keccak256(message) })
  const proof = (await publicClient.getLogProof({ txHash: hash, index: 0 }))!
  const leaf = utils.getHashedL2ToL1Msg(utils.L2_BASE_TOKEN_ADDRESS, message, 0) as Hex
  expect(walkPath(leaf, proofLayout(proof.proof).logPath, proof.id).root).toBe(proof.root)
})

test("over the CLI's HTTP: zksync-ethers withdraws and proves", async () => {
  const cli = await startCli()
  const provider = new Provider(cli.url)
  provider.pollingInterval = 10
  const wallet = new Wallet(DEV[0].key, provider)
  const tx = await wallet.withdraw({ token: utils.ETH_ADDRESS, amount: 5n, to: RECEIVER })
  expect((await tx.wait()).status).toBe(1)
  expect((await expectVerifiedProof(provider, tx.hash)).message).toBe(solidityPacked(['bytes4', 'address', 'uint256'], [FINALIZE_ETH_WITHDRAWAL, RECEIVER, 5n]))
  // Plain ethers sees the same supply drop.
  const token = new Contract(utils.L2_BASE_TOKEN_ADDRESS, TOKEN_ABI, new JsonRpcProvider(cli.url))
  expect(await token.totalSupply()).toBe(parseEther('10000') * 30n - 5n)
}, 60_000)
