/**
 * pagenode/testing, used the way a package user would: a chain for this file, clients bound to
 * it, and every test starting from the same chain whatever the others did.
 */
import { TypedDataEncoder, verifyTypedData } from 'ethers'
import { startTestChain, useChain } from 'pagenode/testing'
import { parseEther } from 'viem'
import { expect, test } from 'vitest'

const chain = useChain()
const STRANGER = '0x00000000000000000000000000000000005afe00'

/** Every test starts here: the genesis block, 10,000 ETH per dev account, automine. */
async function expectFreshChain() {
  expect(await chain.publicClient.getBlockNumber()).toBe(0n)
  expect(await chain.publicClient.getBalance({ address: chain.accounts[1] })).toBe(parseEther('10000'))
  expect(await chain.testClient.getAutomine()).toBe(true)
}

test('the wallet client sends from the first dev account; the node signs', async () => {
  await expectFreshChain()
  const hash = await chain.walletClient.sendTransaction({ to: chain.accounts[1], value: parseEther('1') })
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt).toMatchObject({ status: 'success', from: chain.accounts[0], blockNumber: 1n })
  expect(await chain.publicClient.getBalance({ address: chain.accounts[1] })).toBe(parseEther('10001'))
})

test('the test client shapes the chain: mining, time, balances, impersonation', async () => {
  await expectFreshChain()
  await chain.testClient.setAutomine(false)
  await chain.testClient.setBalance({ address: STRANGER, value: parseEther('2') })
  await chain.testClient.impersonateAccount({ address: STRANGER })
  const hash = await chain.wallet(0).sendTransaction({ account: STRANGER, to: chain.accounts[2], value: 1n })
  expect(await chain.testClient.getTxpoolStatus()).toEqual({ pending: 1, queued: 0 })
  await chain.testClient.increaseTime({ seconds: 7 * 24 * 3600 })
  await chain.testClient.mine({ blocks: 1 })
  const receipt = await chain.publicClient.getTransactionReceipt({ hash })
  expect(receipt.from).toBe(STRANGER)
  const block = await chain.publicClient.getBlock()
  expect(Number(block.timestamp) * 1000).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000)
})

test("ethers' signer on the same chain signs typed data with the dev key", async () => {
  await expectFreshChain()
  const signer = await chain.signer(2)
  const domain = { name: 'Kit', version: '1', chainId: chain.chain.id }
  const types = { Vote: [{ name: 'proposal', type: 'uint256' }, { name: 'support', type: 'bool' }] }
  const vote = { proposal: 7n, support: true }
  const signature = await signer.signTypedData(domain, types, vote)
  expect(verifyTypedData(domain, types, vote, signature)).toBe(signer.address)
  expect(TypedDataEncoder.hash(domain, types, vote)).toMatch(/^0x[0-9a-f]{64}$/)
  // And sends.
  const response = await signer.sendTransaction({ to: STRANGER, value: 5n })
  expect((await response.wait())!.status).toBe(1)
  expect(await chain.ethersProvider.getBalance(STRANGER)).toBe(5n)
})

test('the chain is this file\'s own: a fresh name, in memory', async () => {
  await expectFreshChain()
  expect(chain.node.role).toBe('leader')
  expect(chain.accounts).toHaveLength(10)
  expect(await chain.request('eth_chainId')).toBe('0x104')
})

test('a chain without a code size limit deploys a contract past EIP-170 (startNode({ codeSizeLimit: false }))', async () => {
  const big = await startTestChain({ codeSizeLimit: false })
  try {
    // Initcode deploying 30,000 zero bytes: PUSH3 30000, PUSH1 0, RETURN.
    const hash = await big.walletClient.sendTransaction({ data: '0x620075306000f3', gas: 30_000_000n })
    const receipt = await big.publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(((await big.publicClient.getCode({ address: receipt.contractAddress! }))!.length - 2) / 2).toBe(30_000)
  } finally {
    await big.stop()
  }
})
