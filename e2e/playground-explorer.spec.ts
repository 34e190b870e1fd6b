/**
 * The explorer and traces panels, driven as a user would: a transfer found from the latest block
 * and by its hash, a block, a batch and an address opened, logs queried, and the call tree of a
 * reverted nested call read and folded with the keyboard.
 */
import { expect, test, type Page } from '@playwright/test'
import { DEV, openPlayground, rpc, transfer } from './support/playground.ts'

const TO = '0x000000000000000000000000000000000000cafe'
const word = (hex: string) => hex.padStart(64, '0')

/** Init code that deploys `runtime` as is: CODECOPY it to memory and RETURN it (12 bytes of prefix). */
function deployer(runtime: string): string {
  const size = (runtime.length / 2).toString(16).padStart(2, '0')
  return `0x60${size}600c60003960${size}6000f3${runtime}`
}

/** Error("nope"), as `revert("nope")` encodes it. */
const NOPE = `08c379a0${word('20')}${word('4')}${'6e6f7065'.padEnd(64, '0')}`
/** Always reverts with Error("nope"): CODECOPY the 100 bytes after the code to memory, REVERT them. */
const REVERTER = `6064600c60003960646000fd${NOPE}`
/**
 * Calls the address in its first argument (after a 4-byte selector), then returns or reverts with
 * whatever that call returned: CALL(gas, calldataload(4), 0, 0, 0, 0, 0); RETURNDATACOPY; JUMPI.
 */
const FORWARDER = '600060006000600060006004355af13d600060003e601c573d6000fd5b3d6000f3'
/** LOG1(topic 0x…2a, data = its call data), then STOP. */
const EMITTER = `366000600037` + `7f${word('2a')}` + '366000a1' + '00'

async function deploy(page: Page, runtime: string): Promise<string> {
  const hash = await rpc<string>(page, 'eth_sendTransaction', { from: DEV[0].address, data: deployer(runtime) })
  const receipt = await rpc<{ contractAddress: string; status: string }>(page, 'eth_getTransactionReceipt', hash)
  expect(receipt.status).toBe('0x1')
  return receipt.contractAddress
}

const explorer = (page: Page) => page.getByTestId('panel-explorer')
const traces = (page: Page) => page.getByTestId('panel-traces')

test('a transfer is found from the latest block and by its hash, and Back returns', async ({ page }) => {
  await openPlayground(page, 'explorer')
  const hash = await transfer(page, 0, TO, 10n ** 18n)

  // The overview follows new heads: block 1 appears without a reload.
  const panel = explorer(page)
  const latest = panel.getByTestId('latest-blocks')
  await expect(latest.getByTestId('block-row').first()).toHaveAttribute('data-number', '1')
  await expect(panel.getByTestId('latest-transactions').getByRole('link', { name: /^0x/ }).first()).toHaveAttribute('title', hash)
  await expect(panel.getByTestId('latest-batches').getByTestId('batch-row').first()).toContainText('1')

  await latest.getByTestId('block-link').first().click()
  await expect(page).toHaveURL(/#explorer\/1$/)
  const block = panel.getByTestId('block-view')
  await expect(block.getByRole('heading', { name: 'Block 1' })).toBeVisible()
  await expect(block.getByTestId('block-facts').locator('[data-fact="transactions"]')).toHaveText('1')
  await block.getByTestId('block-transactions').locator(`a[title="${hash}"]`).click()

  await expect(page).toHaveURL(new RegExp(`#explorer/${hash}$`))
  const tx = panel.getByTestId('transaction-view')
  await expect(tx.getByTestId('transaction-status')).toHaveText('success')
  const facts = tx.getByTestId('transaction-facts')
  await expect(facts.locator('[data-fact="from"]')).toHaveText(DEV[0].address)
  await expect(facts.locator('[data-fact="to"]')).toHaveText(TO)
  await expect(facts.locator('[data-fact="value"]')).toHaveText('1 ETH (1,000,000,000,000,000,000 wei)')
  await expect(facts.locator('[data-fact="gas used"]')).toHaveText('21,000')
  await expect(tx.getByTestId('transaction-details').locator('[data-fact="status"]')).not.toBeEmpty()
  await expect(tx.getByText('0 logs')).toBeVisible()

  // Back returns to the block, then to the overview.
  await page.goBack()
  await expect(panel.getByTestId('block-view')).toBeVisible()
  await page.goBack()
  await expect(panel.getByTestId('latest-blocks')).toBeVisible()

  // The same transaction by its hash, typed into the search box.
  await panel.getByLabel('Search the chain').fill(hash)
  await panel.getByLabel('Search the chain').press('Enter')
  await expect(page).toHaveURL(new RegExp(`#explorer/${hash}$`))
  await expect(tx.getByTestId('transaction-status')).toHaveText('success')

  // Its trace, one click away: a plain CALL that succeeded.
  await tx.getByRole('link', { name: 'View its call trace' }).click()
  await expect(page).toHaveURL(new RegExp(`#traces/${hash}$`))
  const frame = traces(page).getByTestId('call-frame')
  await expect(frame).toHaveCount(1)
  await expect(frame).toHaveAttribute('data-type', 'CALL')
  await expect(frame).toHaveAttribute('data-status', 'ok')
})

test('blocks, batches and addresses open from the search box; unknown input says so', async ({ page }) => {
  await openPlayground(page, 'explorer')
  const first = await transfer(page, 0, TO, 5n * 10n ** 17n)
  await transfer(page, 1, TO, 10n ** 17n)
  const panel = explorer(page)
  const search = panel.getByLabel('Search the chain')

  await search.fill('2')
  await search.press('Enter')
  await expect(panel.getByTestId('block-view').getByRole('heading', { name: 'Block 2' })).toBeVisible()
  await panel.getByRole('link', { name: '← block 1' }).click()
  await expect(panel.getByTestId('block-view')).toHaveAttribute('data-number', '1')
  await expect(panel.getByTestId('block-transactions').locator(`a[title="${first}"]`)).toBeVisible()

  // The block's hash, pasted: not a transaction, so the block.
  const blockHash = (await rpc<{ hash: string }>(page, 'eth_getBlockByNumber', '0x1', false)).hash
  await search.fill(blockHash)
  await search.press('Enter')
  await expect(panel.getByTestId('block-view')).toHaveAttribute('data-number', '1')

  // Its L1 batch (one block per batch on this chain).
  await panel.getByTestId('block-facts').getByRole('link', { name: 'batch 1' }).click()
  await expect(page).toHaveURL(/#explorer\/batch:1$/)
  const batch = panel.getByTestId('batch-view')
  await expect(batch.getByTestId('batch-facts').locator('[data-fact="blocks"]')).toHaveText('block 1')
  await expect(batch.getByTestId('batch-facts').locator('[data-fact="L2 transactions"]')).toHaveText('1')
  await batch.getByTestId('batch-blocks').getByRole('link', { name: 'block 1' }).click()
  await expect(panel.getByTestId('block-view')).toHaveAttribute('data-number', '1')

  // The recipient: an account holding both transfers, found in the node's address index.
  await search.fill(TO)
  await search.press('Enter')
  const address = panel.getByTestId('address-view')
  await expect(address.getByTestId('address-facts').locator('[data-fact="balance"]')).toHaveText('0.6 ETH (600,000,000,000,000,000 wei)')
  await expect(address.getByTestId('address-facts').locator('[data-fact="kind"]')).toHaveText('externally owned account, or no code yet')
  await expect(address.getByTestId('history-range')).toHaveText('Page 1: 2 transactions in blocks 2–1, newest first; nothing older.')
  await expect(address.getByTestId('transaction-row')).toHaveCount(2)
  await expect(address.getByTestId('transaction-row').last()).toContainText('received')

  // A sender, reached from a transaction's facts.
  await address.getByTestId('transaction-row').last().getByRole('link').first().click()
  await panel.getByTestId('transaction-facts').locator('[data-fact="from"]').getByRole('link').click()
  await expect(address.getByTestId('address-facts').locator('[data-fact="nonce"]')).toHaveText(/^1 /)
  await expect(address.getByTestId('transaction-row')).toContainText('sent')

  // What the explorer cannot find, or cannot read.
  await search.fill('vitalik.eth')
  await search.press('Enter')
  await expect(panel.getByTestId('search-problem')).toHaveText(/^"vitalik\.eth" is not something the explorer can look up\./)
  await expect(search).toHaveAttribute('aria-invalid', 'true')
  await search.fill(`0x${'11'.repeat(32)}`)
  await search.press('Enter')
  await expect(panel.getByTestId('not-found')).toHaveText(`No transaction or block has the hash 0x${'11'.repeat(32)} on this chain.`)
  await search.fill('99')
  await search.press('Enter')
  await expect(panel.getByTestId('not-found')).toHaveText('No block 99: the latest block is 2.')
})

test('logs: a contract event in its transaction, found again with eth_getLogs; a bad filter shows its code', async ({ page }) => {
  await openPlayground(page, 'explorer')
  const emitter = await deploy(page, EMITTER)
  const hash = await rpc<string>(page, 'eth_sendTransaction', { from: DEV[0].address, to: emitter, data: '0xc0ffee' })
  const panel = explorer(page)

  await panel.getByLabel('Search the chain').fill(hash)
  await panel.getByLabel('Search the chain').press('Enter')
  const log = panel.getByTestId('transaction-logs').getByTestId('log')
  await expect(log).toHaveCount(1)
  await expect(log.getByTestId('log-address')).toHaveText(emitter)
  await expect(log.getByTestId('log-topic')).toHaveText(`0x${word('2a')}`)
  await expect(log.getByTestId('log-data')).toHaveText('0xc0ffee')

  await panel.getByTestId('explorer-latest').click()
  const form = panel.getByRole('form', { name: 'eth_getLogs' })
  await form.getByLabel('Address').fill(emitter)
  await form.getByLabel('Topic 0').fill(`0x${word('2a')}`)
  await form.getByRole('button', { name: 'Get logs' }).click()
  await expect(panel.getByTestId('logs-count')).toHaveText('1 log')
  await expect(panel.getByTestId('logs-results').getByTestId('log-data')).toHaveText('0xc0ffee')

  await form.getByLabel('To block').fill('twelve')
  await form.getByRole('button', { name: 'Get logs' }).click()
  const error = panel.getByTestId('logs-error')
  await expect(error).toHaveAttribute('data-code', '-32602')
  await expect(error).toContainText('error -32602: invalid argument 0 (filter): toBlock')
})

test('the trace of a reverted nested call shows the reason, and its frames fold with the keyboard', async ({ page }) => {
  await openPlayground(page, 'traces')
  const reverter = await deploy(page, REVERTER)
  const forwarder = await deploy(page, FORWARDER)
  // A call to the forwarder, which calls the reverter and passes its revert up. The gas is given,
  // so the node mines the failing transaction instead of refusing to estimate it.
  const hash = await rpc<string>(page, 'eth_sendTransaction', { from: DEV[0].address, to: forwarder, data: `0xdeadbeef${word(reverter.slice(2))}`, gas: '0x100000' })

  // Picked from the recent transactions.
  const panel = traces(page)
  await panel.locator(`a[title="${hash}"]`).click()
  await expect(page).toHaveURL(new RegExp(`#traces/${hash}$`))
  await expect(panel.getByTestId('trace-summary')).toHaveText('2 frames, 2 deep · reverted: Error("nope")')

  const [outer, inner] = [panel.getByTestId('call-frame').first(), panel.locator('[data-testid="call-frame"][data-depth="1"]')]
  await expect(outer).toHaveAttribute('data-status', 'failed')
  const outerSummary = outer.locator(':scope > summary')
  await expect(outerSummary).toContainText('CALL')
  await expect(outerSummary).toContainText('0xdeadbeef')
  await expect(outerSummary.getByTestId('frame-status')).toHaveText('✗ execution reverted: Error("nope")')
  await expect(inner).toHaveAttribute('data-status', 'failed')
  await expect(inner.getByTestId('revert-reason')).toHaveText('Error(string): nope')
  await expect(inner.getByTestId('frame-error')).toHaveText('execution reverted')

  // Keyboard: Enter folds the inner frame, Space unfolds it; folding the outer hides the inner.
  const innerSummary = inner.locator(':scope > summary')
  await innerSummary.focus()
  await page.keyboard.press('Enter')
  await expect(inner).not.toHaveAttribute('open')
  await expect(inner.getByTestId('revert-reason')).toBeHidden()
  await page.keyboard.press('Space')
  await expect(inner).toHaveAttribute('open')
  await expect(inner.getByTestId('revert-reason')).toBeVisible()
  await outerSummary.focus()
  await page.keyboard.press('Enter')
  await expect(inner).toBeHidden()
  await page.keyboard.press('Enter')
  await expect(inner).toBeVisible()

  // The explorer agrees: the transaction failed, and links back to the trace.
  await panel.getByRole('heading', { name: /^Trace of/ }).getByRole('link').click()
  const tx = explorer(page).getByTestId('transaction-view')
  await expect(tx.getByTestId('transaction-status')).toHaveText('failed (reverted)')
  await expect(tx.getByTestId('transaction-input')).toContainText('selector 0xdeadbeef · 32 bytes of arguments')
  await tx.getByRole('link', { name: 'View its call trace' }).click()
  await expect(panel.getByTestId('call-frame')).toHaveCount(2)

  // A hash the node does not know.
  await panel.getByLabel('Transaction hash').fill(`0x${'22'.repeat(32)}`)
  await panel.getByRole('button', { name: 'Trace', exact: true }).click()
  await expect(panel.getByTestId('trace-not-found')).toBeVisible()
})

test('address history pages through the node\'s address index (ots_searchTransactionsBefore/After): older, newer, newest, the focus kept on the last page', async ({ page }) => {
  await openPlayground(page, 'explorer')
  const target = '0x00000000000000000000000000000000000c0ffe'
  // 27 transfers, one block each: a page of 25 (PAGE_SIZE) and one of 2.
  for (let i = 0; i < 27; i++) await rpc(page, 'eth_sendTransaction', { from: DEV[1].address, to: target, value: '0x1' })
  await page.goto(`/#explorer/${target}`)
  const history = page.getByTestId('panel-explorer').getByTestId('address-history')
  await expect(history.getByTestId('history-range')).toHaveText('Page 1: 25 transactions in blocks 27–3, newest first.')
  await expect(history.getByTestId('transaction-row')).toHaveCount(25)
  await expect(history.getByTestId('transaction-row').first()).toHaveAttribute('data-role', 'received')
  await expect(history.getByTestId('history-newer')).toHaveAttribute('aria-disabled', 'true')

  await history.getByTestId('history-older').click()
  await expect(history.getByTestId('history-range')).toHaveText('Page 2: 2 transactions in blocks 2–1, newest first; nothing older.')
  await expect(history.getByTestId('transaction-row')).toHaveCount(2)
  await expect(history.getByTestId('history-older')).toHaveAttribute('aria-disabled', 'true')
  await expect(history.getByTestId('history-older')).toBeFocused()

  await history.getByTestId('history-newer').click()
  await expect(history.getByTestId('history-range')).toHaveText('Page 1: 25 transactions in blocks 27–3, newest first.')
  await expect(history.getByTestId('transaction-row').first().getByRole('link', { name: '27' })).toBeVisible()

  // The sender's view: every transfer it sent, newest first; a new one shows after Newest.
  await page.goto(`/#explorer/${DEV[1].address}`)
  await expect(history.getByTestId('history-range')).toHaveText('Page 1: 25 transactions in blocks 27–3, newest first.')
  await expect(history.getByTestId('transaction-row').first()).toHaveAttribute('data-role', 'sent')
  await history.getByTestId('history-older').click()
  await expect(history.getByTestId('history-range')).toContainText('Page 2')
  await rpc(page, 'eth_sendTransaction', { from: DEV[1].address, to: target, value: '0x1' })
  await history.getByTestId('history-newest').click()
  await expect(history.getByTestId('history-range')).toHaveText('Page 1: 25 transactions in blocks 28–4, newest first.')
})
