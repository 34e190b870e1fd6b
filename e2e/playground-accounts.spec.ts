/**
 * The Accounts, Send and Node panels, driven as a person would: transfers and their outcomes,
 * errors with their JSON-RPC codes, impersonation, raw transactions, and the dev-node controls
 * (snapshot/revert, mining mode, time travel, reset).
 */
import { expect, test, type Page } from '@playwright/test'
import { DEV, openPlayground, rpc, sign } from './support/playground.ts'

const STRANGER = '0x000000000000000000000000000000000000beef'

/** Fills and submits the Send panel's transfer form; the panel must be open. */
async function sendTransfer(page: Page, fields: { from?: string; to: string; amount: string }): Promise<void> {
  const panel = page.getByTestId('panel-send')
  if (fields.from !== undefined) await panel.getByLabel('From').selectOption(fields.from)
  await panel.getByLabel('To').fill(fields.to)
  await panel.getByLabel('Amount (ETH)').fill(fields.amount)
  await panel.getByRole('button', { name: 'Send transfer' }).click()
}

const accountRow = (page: Page, address: string) => page.getByTestId('panel-accounts').getByTestId(`account-${address}`)

test('a transfer sent from the Send form shows its outcome, moves the balances in Accounts, and links to the explorer', async ({ page }) => {
  await openPlayground(page, 'accounts')
  const accounts = page.getByTestId('panel-accounts')
  await expect(accounts.getByTestId('welcome')).toContainText('running in this page')
  await expect(accounts.getByTestId('welcome-url')).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/rpc$/)
  await expect(accountRow(page, DEV[1].address).getByTestId('balance')).toHaveText('10,000 ETH')

  await page.getByRole('tab', { name: 'Send' }).click()
  const send = page.getByTestId('panel-send')
  await expect(send.getByTestId('send-from-balance')).toHaveText('Balance: 10,000 ETH')
  await sendTransfer(page, { to: DEV[1].address, amount: '2.5' })
  const outcome = send.getByTestId('tx-outcome')
  await expect(outcome).toHaveAttribute('data-status', 'success')
  await expect(outcome.getByTestId('tx-status')).toHaveText('success')
  await expect(outcome.getByTestId('tx-block')).toHaveText('1')
  await expect(outcome.getByTestId('tx-gas-used')).toHaveText('21,000')
  await expect(outcome.getByTestId('tx-fee')).toContainText('21000 gas × 45250000 wei')
  const hash = await outcome.getAttribute('data-hash')
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
  await expect(outcome.getByTestId('tx-trace')).toHaveAttribute('href', `#traces/${hash}`)

  await page.getByRole('tab', { name: 'Accounts' }).click()
  await expect(accountRow(page, DEV[1].address).getByTestId('balance')).toHaveText('10,002.5 ETH')
  await expect(accountRow(page, DEV[0].address).getByTestId('nonce')).toHaveText('1')
  await expect(accountRow(page, DEV[0].address).getByTestId('balance')).toHaveText('9,997.499999… ETH')

  await page.getByRole('tab', { name: 'Send' }).click()
  await outcome.getByTestId('tx-hash').click()
  await expect(page).toHaveURL(new RegExp(`#explorer/${hash}$`))
  await expect(page.getByTestId('panel-explorer')).toBeVisible()
})

test('a transfer the sender cannot pay for shows the JSON-RPC error; bad input is caught before sending', async ({ page }) => {
  await openPlayground(page, 'send')
  const send = page.getByTestId('panel-send')
  await sendTransfer(page, { to: '0x12', amount: 'lots' })
  await expect(send.getByTestId('send-problem')).toHaveText([/^To: An address has 40 hex digits/, /^Amount: An amount is a plain decimal number/])
  await expect(send.getByLabel('To')).toHaveAttribute('aria-invalid', 'true')

  await sendTransfer(page, { to: DEV[1].address, amount: '20000' })
  await expect(send.getByTestId('send-problem')).toHaveCount(0)
  const error = send.getByTestId('send-error')
  await expect(error).toHaveAttribute('data-code', '-32000')
  await expect(error).toContainText('error -32000: insufficient funds for gas * price + value')
  expect(await rpc(page, 'eth_blockNumber')).toBe('0x0')
})

test('an impersonated address, funded with anvil_setBalance, sends from the Send form', async ({ page }) => {
  await openPlayground(page, 'accounts')
  const accounts = page.getByTestId('panel-accounts')
  const address = accounts.getByLabel('Address to impersonate')
  await address.fill('0x000000000000000000000000000000000000BEEZ')
  await accounts.getByRole('button', { name: 'Impersonate' }).click()
  await expect(accounts.getByTestId('impersonate-problem')).toHaveText('An address holds only hex digits (0-9, a-f) after 0x.')
  await address.fill('0x000000000000000000000000000000000000BeeF')
  await accounts.getByRole('button', { name: 'Impersonate' }).click()
  await expect(accounts.getByTestId('impersonate-problem')).toContainText('checksum (EIP-55) does not match')
  await address.fill(STRANGER)
  await accounts.getByRole('button', { name: 'Impersonate' }).click()
  await expect(accounts.getByTestId('impersonate-ok')).toContainText(`Impersonating ${STRANGER}`)
  await expect(accountRow(page, STRANGER).getByTestId('balance')).toHaveText('0 ETH')

  await accounts.getByTestId('balance-address').fill(STRANGER)
  await accounts.getByLabel('New balance (ETH)').fill('5')
  await accounts.getByRole('button', { name: 'Set balance' }).click()
  await expect(accounts.getByTestId('set-balance-ok')).toContainText('5 ETH')
  await expect(accountRow(page, STRANGER).getByTestId('balance')).toHaveText('5 ETH')

  // "Send from" in its row opens Send with it as the sender.
  await accountRow(page, STRANGER).getByRole('link', { name: `Send from ${STRANGER}` }).click()
  const send = page.getByTestId('panel-send')
  await expect(send.getByLabel('From')).toHaveValue(STRANGER)
  await sendTransfer(page, { to: DEV[0].address, amount: '1' })
  await expect(send.getByTestId('tx-outcome')).toHaveAttribute('data-status', 'success')

  await page.getByRole('tab', { name: 'Accounts' }).click()
  await expect(accountRow(page, STRANGER).getByTestId('nonce')).toHaveText('1')
  await expect(accountRow(page, STRANGER).getByTestId('balance')).toHaveText('3.999999… ETH')
  await accounts.getByRole('button', { name: `Stop impersonating ${STRANGER}` }).click()
  await expect(accountRow(page, STRANGER)).toHaveCount(0)
  await expect(accounts.getByTestId('impersonated-accounts-empty')).toBeVisible()
  await page.getByRole('tab', { name: 'Send' }).click()
  await expect(send.getByLabel('From').locator(`option[value="${STRANGER}"]`)).toHaveCount(0)
})

test('a pasted signed transaction is decoded, then sent', async ({ page }) => {
  await openPlayground(page, 'send')
  const send = page.getByTestId('panel-send')
  const raw = send.getByLabel('Signed transaction (hex)')
  await raw.fill('0x02zz')
  await expect(send.getByTestId('raw-problem')).toContainText('even number of hex digits')
  await expect(send.getByRole('button', { name: 'Send raw transaction' })).toBeDisabled()

  await raw.fill(await sign(1, 0, { to: STRANGER, value: 10n ** 17n }))
  await expect(send.getByTestId('raw-from')).toHaveText(DEV[1].address)
  await expect(send.getByTestId('raw-to')).toHaveText(STRANGER)
  await expect(send.getByTestId('raw-value')).toHaveText('0.1 ETH')
  await expect(send.getByTestId('raw-nonce')).toHaveText('0')
  await send.getByRole('button', { name: 'Send raw transaction' }).click()
  await expect(send.getByTestId('raw-tx-outcome')).toHaveAttribute('data-status', 'success')

  // The same again: the node has it already (geth's answer).
  await send.getByRole('button', { name: 'Send raw transaction' }).click()
  await expect(send.getByTestId('raw-error')).toHaveText('error -32000: already known')
})

test('Node: a snapshot taken before a transfer, reverted to, brings back the block number and balances', async ({ page }) => {
  await openPlayground(page, 'node')
  const node = page.getByTestId('panel-node')
  await expect(node.getByTestId('node-role')).toHaveText(/^leader/)
  await expect(node.getByTestId('node-chain-id')).toHaveText('260 (0x104)')
  await expect(node.getByTestId('client-version')).toHaveText(/^zkSync\/pagenode\/v/)
  await node.getByRole('button', { name: 'Take a snapshot' }).click()
  await expect(node.getByTestId('snapshot-note')).toHaveText('Snapshot 0x1 taken at block 0.')

  await page.getByRole('tab', { name: 'Send' }).click()
  await sendTransfer(page, { to: STRANGER, amount: '3' })
  await expect(page.getByTestId('panel-send').getByTestId('tx-outcome')).toHaveAttribute('data-status', 'success')
  await page.getByRole('tab', { name: 'Node' }).click()
  await expect(node.getByTestId('latest-block-number')).toHaveText('1')

  await node.getByRole('button', { name: 'Revert to snapshot 0x1 (block 0)' }).click()
  await expect(node.getByTestId('snapshot-note')).toHaveText('Reverted to snapshot 0x1: the chain is back at block 0.')
  await expect(node.getByTestId('latest-block-number')).toHaveText('0')
  await expect(node.getByTestId('snapshots-empty')).toBeVisible()
  await expect(page.getByTestId('status')).toHaveText(/ · block 0 · /)
  await page.getByRole('tab', { name: 'Accounts' }).click()
  await expect(accountRow(page, DEV[0].address).getByTestId('balance')).toHaveText('10,000 ETH')
  await expect(accountRow(page, DEV[0].address).getByTestId('nonce')).toHaveText('0')
})

test('Node: with automine off a transfer waits in the pool until a block is mined', async ({ page }) => {
  await openPlayground(page, 'node')
  const node = page.getByTestId('panel-node')
  await expect(node.getByLabel('Automine')).toBeChecked()
  await node.getByLabel('Manual').check()
  await expect.poll(() => rpc(page, 'anvil_getAutomine')).toBe(false)

  await page.getByRole('tab', { name: 'Send' }).click()
  const send = page.getByTestId('panel-send')
  await sendTransfer(page, { to: STRANGER, amount: '1' })
  const outcome = send.getByTestId('tx-outcome')
  await expect(outcome).toHaveAttribute('data-status', 'pending')
  await expect(outcome.getByTestId('tx-status')).toContainText('pending')

  await page.getByRole('tab', { name: 'Node' }).click()
  await expect(node.getByTestId('pool-status')).toHaveText('Pool: 1 pending transaction')
  await node.getByRole('button', { name: 'Mine a block now' }).click()
  await expect(node.getByTestId('pool-status')).toHaveText('Pool: 0 pending transactions')
  await expect(node.getByTestId('latest-block-number')).toHaveText('1')
  await page.getByRole('tab', { name: 'Send' }).click()
  await expect(outcome).toHaveAttribute('data-status', 'success')
  await expect(outcome.getByTestId('tx-block')).toHaveText('1')

  // An interval mines empty blocks on its own.
  await page.getByRole('tab', { name: 'Node' }).click()
  await node.getByLabel('Interval (seconds)').fill('1')
  await node.getByRole('radio', { name: /^Interval/ }).check()
  await expect(node.getByTestId('latest-block-number')).toHaveText('3', { timeout: 10_000 })
  await node.getByLabel('Automine').check()
  await expect.poll(() => rpc(page, 'anvil_getAutomine')).toBe(true)
  expect(await rpc(page, 'eth_mining')).toBe(true)
})

test('Send opened for an address it cannot send from says so', async ({ page }) => {
  await openPlayground(page, `send/${STRANGER}`)
  await expect(page.getByTestId('panel-send').getByTestId('send-problem')).toHaveText(`${STRANGER} is neither a dev account nor impersonated: impersonate it in Accounts to send from it.`)
  await page.goto(`/#send/${DEV[1].address}`)
  await expect(page.getByTestId('panel-send').getByLabel('From')).toHaveValue(DEV[1].address)
})

test('Node: time travel sets the next block’s timestamp; reset returns the chain to block 0', async ({ page }) => {
  await openPlayground(page, 'node')
  const node = page.getByTestId('panel-node')
  const genesisTime = Number(await node.getByTestId('latest-block-time').getAttribute('data-timestamp'))
  expect(genesisTime).toBeGreaterThan(0)

  const target = genesisTime + 86_400 * 30
  await node.getByLabel('Next block’s timestamp (unix seconds)').fill(String(target))
  await node.getByRole('button', { name: 'Set', exact: true }).click()
  await expect(node.getByTestId('time-note')).toContainText(`The next block will be stamped ${target}`)
  await node.getByRole('button', { name: 'Mine it now' }).click()
  await expect(node.getByTestId('latest-block-number')).toHaveText('1')
  await expect(node.getByTestId('latest-block-time')).toHaveAttribute('data-timestamp', String(target))

  // A timestamp not after the latest block's is refused, with the node's code.
  await node.getByLabel('Next block’s timestamp (unix seconds)').fill(String(target - 10))
  await node.getByRole('button', { name: 'Set', exact: true }).click()
  await expect(node.getByTestId('time-error')).toHaveText(/^error -32\d{3}: /)

  await node.getByRole('button', { name: 'Move the clock forward' }).click()
  await expect(node.getByTestId('time-note')).toContainText('Clock moved forward 3600 s')

  await node.getByRole('button', { name: 'Reset the chain…' }).click()
  await expect(node.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await node.getByRole('button', { name: 'Cancel' }).click()
  await expect(node.getByTestId('latest-block-number')).toHaveText('1')
  await node.getByRole('button', { name: 'Reset the chain…' }).click()
  await node.getByRole('button', { name: 'Yes, reset to block 0' }).click()
  await expect(node.getByTestId('reset-note')).toContainText('The chain was reset')
  await expect(node.getByTestId('latest-block-number')).toHaveText('0')
  await expect(page.getByTestId('status')).toHaveText(/ · block 0 · /)
  expect(await rpc(page, 'eth_blockNumber')).toBe('0x0')
})

test('an address impersonated elsewhere (here: over the provider, as the console or another tab would) shows up in Accounts and Send', async ({ page }) => {
  await openPlayground(page, 'accounts')
  await rpc(page, 'anvil_impersonateAccount', STRANGER)
  await expect(accountRow(page, STRANGER)).toBeVisible()
  await page.getByRole('tab', { name: 'Send' }).click()
  await expect(page.getByTestId('panel-send').getByLabel('From').locator(`option[value="${STRANGER}"]`)).toHaveCount(1)
  await rpc(page, 'anvil_stopImpersonatingAccount', STRANGER)
  await page.getByRole('tab', { name: 'Accounts' }).click()
  await expect(accountRow(page, STRANGER)).toHaveCount(0)
})
