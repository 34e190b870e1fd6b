import { expect, test, type Page } from '@playwright/test'
import { DEV, openPlayground, rpc } from './support/playground.ts'

/** The L2→L1 messages panel: send through the L1Messenger, follow the message to a proof checked in the page. */

const panel = (page: Page) => page.getByTestId('panel-messages')

async function sendMessage(page: Page, text: string, kind: 'text (UTF-8)' | 'hex bytes' = 'text (UTF-8)') {
  await panel(page).getByLabel(kind).check()
  await panel(page).getByLabel('Message', { exact: true }).fill(text)
  await panel(page).getByRole('button', { name: 'Send to L1' }).click()
}

test('a text message: its log, its event, its batch, the proof and the root recomputed in the page', async ({ page }) => {
  await openPlayground(page, 'messages')
  await sendMessage(page, 'hello L1')
  const detail = panel(page).getByTestId('message-detail')
  await expect(detail.getByTestId('message-stage')).toHaveAttribute('data-stage', 'sealed')
  await expect(page).toHaveURL(/#messages\/0x[0-9a-f]{64}$/)
  const txHash = page.url().split('/').pop()!

  await expect(detail.getByTestId('message-text')).toContainText('hello L1')
  await expect(detail.getByTestId('l2tol1-logs')).toContainText('"sender": "0x0000000000000000000000000000000000008008"')
  await expect(detail.getByTestId('message-event')).toContainText('hello L1')
  await expect(detail.getByTestId('message-event')).toContainText('yes ✓')

  // What the page shows is what the node answers.
  const receipt = await rpc<{ l1BatchNumber: string }>(page, 'eth_getTransactionReceipt', txHash)
  const proof = await rpc<{ id: number; root: string; proof: string[] }>(page, 'zks_getL2ToL1LogProof', txHash)
  await expect(detail.getByTestId('message-batch')).toHaveText(String(Number(receipt.l1BatchNumber)))
  await expect(detail.getByTestId('proof-id')).toHaveText(String(proof.id))
  await expect(detail.getByTestId('proof-root')).toHaveText(proof.root)
  await expect(detail.getByTestId('proof-array').locator('li')).toHaveCount(proof.proof.length)
  await expect(detail.getByTestId('recomputed-root')).toHaveText(proof.root)
  await expect(detail.getByTestId('verdict')).toHaveAttribute('data-verified', 'true')
  await expect(detail.getByTestId('verdict')).toContainText('verified')
  await expect(detail.getByTestId('batch-verdict')).toHaveAttribute('data-verified', 'true')

  // The history lists it, from the messenger's logs.
  await expect(panel(page).getByTestId('message-history').locator('tbody tr')).toHaveCount(1)
  await expect(panel(page).getByTestId('message-history')).toContainText('hello L1')
})

test('a hex message waits while mining is manual, "mine now" seals its batch and the proof verifies', async ({ page }) => {
  await openPlayground(page, 'messages')
  await rpc(page, 'evm_setAutomine', false)
  await sendMessage(page, '0xdeadbeef', 'hex bytes')
  const detail = panel(page).getByTestId('message-detail')
  await expect(detail.getByTestId('message-stage')).toHaveAttribute('data-stage', 'pending')
  await expect(detail.getByTestId('message-stage')).toContainText('Waiting for the transaction to be mined')
  await detail.getByRole('button', { name: 'Mine a block now (evm_mine)' }).click()
  await expect(detail.getByTestId('message-stage')).toHaveAttribute('data-stage', 'sealed')
  await expect(detail.getByTestId('message-text')).toContainText('0xdeadbeef')
  await expect(detail.getByTestId('verdict')).toHaveAttribute('data-verified', 'true')
})

test('bad hex is refused where it was typed; past messages open from the history', async ({ page }) => {
  await openPlayground(page, 'messages')
  await sendMessage(page, '0xabc', 'hex bytes')
  await expect(panel(page).getByTestId('message-input-error')).toContainText('whole bytes')
  await expect(panel(page).getByLabel('Message', { exact: true })).toHaveAttribute('aria-invalid', 'true')

  await sendMessage(page, 'first', 'text (UTF-8)')
  await expect(panel(page).getByTestId('verdict')).toHaveAttribute('data-verified', 'true')
  await sendMessage(page, 'second')
  await expect(panel(page).getByTestId('message-text')).toContainText('second')
  const history = panel(page).getByTestId('message-history')
  await expect(history.locator('tbody tr')).toHaveCount(2)
  // Newest first: the second row is the first message.
  await history.locator('tbody tr').nth(1).getByRole('link', { name: /^0x/ }).last().click()
  await expect(panel(page).getByTestId('message-text')).toContainText('first')
  await expect(panel(page).getByTestId('verdict')).toHaveAttribute('data-verified', 'true')
})

test('a withdrawal: sent from the form to L2BaseToken, shown decoded as a withdrawal, its proof verified', async ({ page }) => {
  await openPlayground(page, 'messages')
  const form = panel(page).getByRole('form', { name: 'Withdraw ETH to L1' })
  // A receiver that is not an address is refused where it was typed, and nothing is sent.
  await form.getByLabel('L1 receiver').fill('0x1234')
  await form.getByRole('button', { name: 'Withdraw' }).click()
  await expect(form.getByTestId('withdraw-problem')).toContainText('L1 receiver: An address has 40 hex digits')
  await expect(form.getByLabel('L1 receiver')).toHaveAttribute('aria-invalid', 'true')

  const receiver = DEV[1].address
  const before = BigInt(await rpc<string>(page, 'eth_getBalance', DEV[0].address, 'latest'))
  await form.getByLabel('From (a dev account; the node signs)').selectOption(DEV[0].address)
  await form.getByLabel('Amount (ETH)').fill('0.25')
  await form.getByLabel('L1 receiver').fill(receiver)
  await form.getByRole('button', { name: 'Withdraw' }).click()
  const detail = panel(page).getByTestId('message-detail')
  await expect(detail.getByTestId('message-stage')).toHaveAttribute('data-stage', 'sealed')
  const txHash = page.url().split('/').pop()!

  const withdrawal = new RegExp(`withdrawal of 0\\.25 ETH to ${receiver}.*finalizeEthWithdrawal 0x6c0960f9 · receiver ${receiver} · amount 250000000000000000 wei`, 'i')
  await expect(detail.getByTestId('message-text')).toHaveText(withdrawal)
  await expect(detail.getByTestId('message-event')).toContainText(withdrawal)
  await expect(detail.getByTestId('message-event')).toContainText('yes ✓')
  // The log is the L1Messenger's, keyed by its caller, the L2BaseToken.
  await expect(detail.getByTestId('l2tol1-logs')).toContainText('"sender": "0x0000000000000000000000000000000000008008"')
  await expect(detail.getByTestId('l2tol1-logs')).toContainText('"key": "0x000000000000000000000000000000000000000000000000000000000000800a"')
  await expect(detail.getByTestId('verdict')).toHaveAttribute('data-verified', 'true')
  await expect(detail.getByTestId('batch-verdict')).toHaveAttribute('data-verified', 'true')
  const proof = await rpc<{ root: string }>(page, 'zks_getL2ToL1LogProof', txHash)
  await expect(detail.getByTestId('recomputed-root')).toHaveText(proof.root)

  // The ETH left the sender: the amount and the fee.
  const receipt = await rpc<{ gasUsed: string; effectiveGasPrice: string }>(page, 'eth_getTransactionReceipt', txHash)
  const after = BigInt(await rpc<string>(page, 'eth_getBalance', DEV[0].address, 'latest'))
  expect(before - after).toBe(250_000_000_000_000_000n + BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice))

  const history = panel(page).getByTestId('message-history')
  await expect(history.locator('tbody tr')).toHaveCount(1)
  await expect(history.locator('tbody tr').first()).toContainText(withdrawal)
})
