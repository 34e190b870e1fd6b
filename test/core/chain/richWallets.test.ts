import { computeAddress, parseEther } from 'ethers'
import { Wallet } from 'zksync-ethers'
import { expect, test } from 'vitest'
import { RICH_WALLETS } from '../../../src/core/chain/richWallets.ts'
import { startNode } from '../../support/chain.ts'
import { call, startCli } from '../../support/cli.ts'
import { zksyncProvider } from '../../support/zksync.ts'

test('each rich wallet key signs for its address (20 distinct wallets)', () => {
  for (const [address, key] of RICH_WALLETS) expect(computeAddress(key)).toBe(address)
  expect(new Set(RICH_WALLETS.map(([address]) => address.toLowerCase())).size).toBe(20)
})

test('the rich wallets are funded with the dev balance and can send, through zksync-ethers', async () => {
  const node = await startNode({ balance: parseEther('500') })
  const provider = zksyncProvider(node)
  for (const [address] of RICH_WALLETS) expect(await provider.getBalance(address)).toBe(parseEther('500'))
  // The key of ZKsync's guides sends a 0x71 transaction from the first rich wallet.
  const wallet = new Wallet(RICH_WALLETS[0][1], provider)
  const receipt = await (await wallet.transfer({ to: RICH_WALLETS[1][0], amount: parseEther('1') })).wait()
  expect(receipt.status).toBe(1)
  expect(await provider.getBalance(RICH_WALLETS[1][0])).toBe(parseEther('501'))
  // Funded, not managed: eth_accounts is the mnemonic's accounts.
  const accounts = (await node.request({ method: 'eth_accounts' })) as string[]
  expect(accounts).toHaveLength(10)
  expect(accounts).not.toContain(RICH_WALLETS[0][0].toLowerCase())
})

test('richWallets: false leaves them empty', async () => {
  const node = await startNode({ richWallets: false })
  expect(await zksyncProvider(node).getBalance(RICH_WALLETS[0][0])).toBe(0n)
})

test('the CLI funds them, and --no-rich-wallets does not', async () => {
  const [funded, bare] = await Promise.all([startCli(['--balance', '7']), startCli(['--no-rich-wallets'])])
  const address = RICH_WALLETS[19][0]
  expect(BigInt(await call<string>(funded.url, 'eth_getBalance', address, 'latest'))).toBe(parseEther('7'))
  expect(BigInt(await call<string>(bare.url, 'eth_getBalance', address, 'latest'))).toBe(0n)
}, 60_000)
