import { expect, test, type Page } from '@playwright/test'
import { encodeFunctionData, parseAbi } from 'viem'
import { DEV, openPlayground, rpc } from './support/playground.ts'

/**
 * The example dApp (demo/dapp/): it starts the playground's node itself, then uses only viem's
 * http transport on /rpc. Assertions go through its UI; the playground in another tab checks
 * that the dApp's transactions are on the same chain.
 */

const CONNECTED = /^connected · chain 260 · block \d+ · over http:\/\/127\.0\.0\.1:\d+\/rpc$/

async function openDapp(page: Page): Promise<string> {
  page.on('pageerror', (error) => console.error('[pageerror]', error))
  await page.goto('/dapp/')
  await expect(page.getByTestId('dapp-status')).toHaveText(CONNECTED, { timeout: 30_000 })
  const token = await page.getByTestId('token-address').textContent()
  expect(token).toMatch(/^0x[0-9a-fA-F]{40}$/)
  return token!
}

test('claim from the faucet and transfer over viem http; the playground tab sees the same chain', async ({ page, context }) => {
  const token = await openDapp(page)
  await expect(page.getByTestId('token-note')).toContainText('Deployed in block 1; this browser remembers it')
  await expect(page.getByTestId('balance')).toHaveText('0 PAGE')

  await page.getByRole('button', { name: 'Claim 100 PAGE from the faucet' }).click()
  await expect(page.getByTestId('claim-done')).toContainText('Claimed 100 PAGE in block 2')
  await expect(page.getByTestId('balance')).toHaveText('100 PAGE')

  await page.getByLabel('To', { exact: true }).fill(DEV[1].address)
  await page.getByLabel('Amount (PAGE)').fill('12.5')
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(page.getByTestId('transfer-done')).toContainText('Sent 12.5 PAGE to account 1')
  await expect(page.getByTestId('balance')).toHaveText('87.5 PAGE')
  const balances = page.getByTestId('balances')
  await expect(balances.locator('tr[data-account="0"] td.num')).toHaveText('87.5 PAGE')
  await expect(balances.locator('tr[data-account="1"] td.num')).toHaveText('12.5 PAGE')
  const transfers = page.getByTestId('transfers').locator('tbody tr')
  await expect(transfers).toHaveCount(2)
  await expect(transfers.first()).toContainText('account 0')
  await expect(transfers.first()).toContainText('account 1')
  await expect(transfers.first()).toContainText('12.5')
  await expect(transfers.nth(1)).toContainText('faucet')

  // More than the balance: the node's revert, with its JSON-RPC code, under the form.
  await page.getByLabel('Amount (PAGE)').fill('1000')
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  const failure = page.getByTestId('transfer-failure')
  await expect(failure).toContainText(/^error -?\d+: reverted: FaucetToken: transfer amount exceeds balance/)
  await expect(failure).toHaveAttribute('data-code', /^-?\d+$/)
  await page.getByLabel('Amount (PAGE)').fill('ten')
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(page.getByTestId('transfer-error')).toContainText('Enter an amount above 0')

  // The playground in another tab is on the same chain (it joins the node the dApp started).
  const playground = await context.newPage()
  await openPlayground(playground, 'console')
  expect((await rpc<string>(playground, 'eth_getCode', token, 'latest')).length).toBeGreaterThan(2)
  const balanceOf = encodeFunctionData({ abi: parseAbi(['function balanceOf(address) view returns (uint256)']), args: [DEV[1].address] })
  expect(BigInt(await rpc<string>(playground, 'eth_call', { to: token, data: balanceOf }, 'latest'))).toBe(12_500_000_000_000_000_000n)
  const logs = await rpc<unknown[]>(playground, 'eth_getLogs', { address: token, fromBlock: '0x0', toBlock: 'latest' })
  expect(logs).toHaveLength(2)
  expect(await rpc<string>(playground, 'eth_blockNumber')).toBe('0x3')

  // A transfer made in the playground shows up in the dApp (it polls over HTTP).
  const transfer = encodeFunctionData({ abi: parseAbi(['function transfer(address,uint256) returns (bool)']), args: [DEV[1].address, 500_000_000_000_000_000n] })
  await rpc(playground, 'eth_sendTransaction', { from: DEV[0].address, to: token, data: transfer })
  await expect(page.getByTestId('balance')).toHaveText('87 PAGE')
  await expect(transfers).toHaveCount(3)
})

test('the token is remembered across reloads, and deployed again on a chain that lost it', async ({ page, context }) => {
  const token = await openDapp(page)
  await page.reload()
  expect(await openDapp(page)).toBe(token)
  await expect(page.getByTestId('token-note')).toContainText('remembered from an earlier visit')

  const playground = await context.newPage()
  await openPlayground(playground, 'console')
  await rpc(playground, 'anvil_reset')
  expect(await rpc<string>(playground, 'eth_getCode', token, 'latest')).toBe('0x')
  await page.reload()
  await openDapp(page)
  await expect(page.getByTestId('token-note')).toContainText('Deployed in block 1; this browser remembers it')
  expect((await rpc<string>(playground, 'eth_getCode', await page.getByTestId('token-address').textContent(), 'latest')).length).toBeGreaterThan(2)
})
