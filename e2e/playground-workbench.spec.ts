/**
 * The playground as a daily workbench (issue 24's defects): the keyboard keeps its place, the
 * dev settings the node keeps are shown after a reload, results go when the chain moves under them, amounts are written
 * in full where it matters, topic filters take an event signature, the page does not move when
 * the node becomes ready, and a phone-sized window shows every panel without sideways scrolling.
 */
import { expect, test, type Page } from '@playwright/test'
import { encodeFunctionData, getAddress, parseAbi } from 'viem'
import { DEV, openPlayground, rpc, transfer } from './support/playground.ts'

const SOMEONE = '0x000000000000000000000000000000000000beef'
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

const focusedTestId = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? document.activeElement?.tagName)

test('the keyboard reaches the Send and RPC console panels from their tabs, and stays on Compile and Deploy while they run', async ({ page }) => {
  test.setTimeout(180_000)
  await openPlayground(page, 'accounts')
  await page.getByTestId('tab-accounts').focus()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByTestId('tab-send')).toBeFocused()
  await expect(page).toHaveURL(/#send$/)
  await expect(page.getByTestId('send-from')).toBeVisible()
  await page.keyboard.press('Tab')
  // Into the Send panel, at its first control (the sender), not off to an element of another panel.
  await expect(page.getByTestId('send-from')).toBeFocused()

  await page.getByTestId('tab-console').focus()
  await page.getByTestId('tab-console').press('Enter')
  await expect(page).toHaveURL(/#console$/)
  // As a user does: Tab once the panel is shown (on a loaded machine it is shown a moment after
  // the URL changes, and a Tab before that moves on from the tab to whatever was shown then).
  await expect(page.getByTestId('panel-console').getByTestId('method')).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(page.getByTestId('panel-console').getByTestId('method')).toBeFocused()

  await page.getByTestId('tab-contracts').click()
  const contracts = page.getByTestId('panel-contracts')
  await contracts.getByTestId('example').selectOption('counter')
  const compile = contracts.getByTestId('compile')
  await compile.focus()
  await page.keyboard.press('Enter')
  await expect(compile).toHaveAttribute('aria-disabled', 'true')
  await expect(compile).toBeFocused()
  await expect(contracts.getByTestId('compile-summary')).toHaveAttribute('data-state', 'ok', { timeout: 120_000 })
  expect(await focusedTestId(page)).toBe('compile')

  const deploy = contracts.getByTestId('deploy-button')
  await deploy.focus()
  await page.keyboard.press('Enter')
  await expect(contracts.getByTestId('deploy-result').getByTestId('tx-status')).toHaveText('success')
  expect(await focusedTestId(page)).toBe('deploy-button')
})

test('"Restore the example" keeps your version: it survives a reload, comes back with Undo, goes only when discarded', async ({ page }) => {
  await openPlayground(page, 'contracts')
  const contracts = page.getByTestId('panel-contracts')
  const source = contracts.getByTestId('source')
  const example = await source.inputValue()
  const mine = `// mine\n${example}`
  await source.fill(mine)
  await contracts.getByTestId('restore').click()
  await expect(source).toHaveValue(example)
  await expect(contracts.getByTestId('kept')).toContainText('your version (')

  await page.reload()
  await expect(page.getByTestId('status')).toHaveText(/ready/, { timeout: 30_000 })
  await expect(source).toHaveValue(example)
  await expect(contracts.getByTestId('kept')).toBeVisible()
  await contracts.getByTestId('bring-back').click()
  await expect(source).toHaveValue(mine)
  await expect(contracts.getByTestId('kept')).toBeHidden()

  // Restored again and the copy discarded: only then is it gone.
  await contracts.getByTestId('restore').click()
  await contracts.getByTestId('discard-kept').click()
  await expect(contracts.getByTestId('kept')).toBeHidden()
  await page.reload()
  await expect(page.getByTestId('status')).toHaveText(/ready/, { timeout: 30_000 })
  await expect(source).toHaveValue(example)
  await expect(contracts.getByTestId('kept')).toBeHidden()
})

test('the Node panel shows the dev settings the node kept across a reload (mode, interval, clock offset, snapshots), and a mode set from the console is shown, not overridden', async ({ page }) => {
  await openPlayground(page, 'node')
  const node = page.getByTestId('panel-node')
  await node.getByTestId('interval-seconds').fill('7')
  await node.getByTestId('mining-interval').check()
  await expect.poll(() => rpc(page, 'eth_mining')).toBe(true)
  await node.getByTestId('take-snapshot').click()
  await expect(node.getByTestId('snapshot-note')).toContainText('Snapshot 0x1 taken at block')
  await node.getByTestId('increase-seconds').fill('3600')
  await node.getByTestId('increase-time').click()
  await expect(node.getByTestId('clock-offset')).toHaveAttribute('data-seconds', '3600')

  await page.reload()
  await expect(page.getByTestId('status')).toHaveText(/ready/, { timeout: 30_000 })
  await expect(node.getByTestId('mining-interval')).toBeChecked()
  await expect(node.getByTestId('interval-seconds')).toHaveValue('7')
  await expect(node.getByTestId('snapshot-0x1')).toBeVisible()
  await expect(node.getByTestId('snapshots-empty')).toBeHidden()
  await expect.poll(async () => Number(await node.getByTestId('clock-offset').getAttribute('data-seconds'))).toBeGreaterThanOrEqual(3600)
  expect(await rpc(page, 'anvil_getAutomine')).toBe(false)

  // Manual mining set by another client (the console's calls): the panel follows the node, and a
  // reload keeps it (the page once gave back the mode last chosen in the panel, here the interval).
  await rpc(page, 'evm_setIntervalMining', 0)
  await rpc(page, 'evm_setAutomine', false)
  await expect(node.getByTestId('mining-manual')).toBeChecked()
  await page.reload()
  await expect(page.getByTestId('status')).toHaveText(/ready/, { timeout: 30_000 })
  await expect(node.getByTestId('mining-manual')).toBeChecked()
  // Given a moment in which a page re-applying its own copy would have done so.
  await expect(node.getByTestId('pool-status')).toHaveText(/^Pool: 0 pending/)
  expect(await rpc(page, 'eth_mining')).toBe(false)
  expect(await rpc(page, 'anvil_getAutomine')).toBe(false)

  // Back to automine from the panel; a reload shows it.
  await node.getByTestId('mining-auto').check()
  await expect.poll(() => rpc(page, 'anvil_getAutomine')).toBe(true)
  await page.reload()
  await expect(page.getByTestId('status')).toHaveText(/ready/, { timeout: 30_000 })
  await expect(node.getByTestId('mining-auto')).toBeChecked()
  expect(await rpc(page, 'anvil_getAutomine')).toBe(true)
})

test('results go when the chain moves under them (a snapshot revert) and when an input is refused', async ({ page }) => {
  await openPlayground(page, 'node')
  const node = page.getByTestId('panel-node')
  await node.getByTestId('take-snapshot').click()
  await expect(node.getByTestId('snapshots')).toBeVisible()

  await page.getByTestId('tab-send').click()
  const send = page.getByTestId('panel-send')
  await send.getByTestId('send-to').fill(SOMEONE)
  await send.getByTestId('send-transfer').click()
  await expect(send.getByTestId('tx-outcome')).toHaveAttribute('data-status', 'success')

  // A refused input: the last transaction's outcome is not left beside it.
  await send.getByTestId('send-to').fill('0x12')
  await send.getByTestId('send-transfer').click()
  await expect(send.getByTestId('send-problem')).toBeVisible()
  await expect(send.getByTestId('tx-outcome')).toHaveCount(0)

  await send.getByTestId('send-to').fill(SOMEONE)
  await send.getByTestId('send-transfer').click()
  await expect(send.getByTestId('tx-outcome')).toHaveAttribute('data-status', 'success')
  await page.getByTestId('tab-node').click()
  await node.getByTestId('revert').click()
  await expect(node.getByTestId('snapshot-note')).toContainText('the chain is back at block 0')
  await page.getByTestId('tab-send').click()
  await expect(send.getByTestId('tx-outcome')).toHaveCount(0)
})

/** Init code of a contract whose code is PUSH1 0 PUSH1 0 REVERT: every call to it reverts, without data. */
const REVERTER_INIT = '0x6460006000fd6000526005601bf3'

test('a transfer whose estimate reverts is sent anyway with a gas limit: mined as failed, in the explorer with its reason, traced', async ({ page }) => {
  await openPlayground(page, 'send')
  const deployHash = await rpc<string>(page, 'eth_sendTransaction', { from: DEV[0].address, data: REVERTER_INIT, gas: '0x30000' })
  const { contractAddress } = await rpc<{ contractAddress: string }>(page, 'eth_getTransactionReceipt', deployHash)

  const send = page.getByTestId('panel-send')
  await send.getByTestId('send-to').fill(contractAddress)
  await send.getByTestId('send-amount').fill('0')
  await send.getByTestId('send-transfer').click()
  await expect(send.getByTestId('send-error')).toHaveAttribute('data-code', '3')
  await send.getByTestId('send-anyway-gas').fill('nope')
  await send.getByTestId('send-anyway').click()
  await expect(send.getByTestId('send-anyway-problem')).toHaveText('Gas limit: a whole number, at least 21000.')
  await send.getByTestId('send-anyway-gas').fill('100000')
  await send.getByTestId('send-anyway-gas').press('Enter')
  const outcome = send.getByTestId('tx-outcome')
  await expect(outcome).toHaveAttribute('data-status', 'reverted')
  await expect(outcome.getByTestId('tx-revert-reason')).toHaveText(': execution reverted')
  const hash = (await outcome.getAttribute('data-hash'))!

  await outcome.getByTestId('tx-hash').click()
  const view = page.getByTestId('panel-explorer').getByTestId('transaction-view')
  await expect(view.getByTestId('transaction-status')).toHaveAttribute('data-status', 'failed')
  await expect(view.getByTestId('transaction-revert-reason')).toHaveText('execution reverted')
  await expect(view.locator('[data-fact="gas limit"]')).toHaveText('100,000')
  await view.getByTestId('trace-link').click()
  await expect(page).toHaveURL(new RegExp(`#traces/${hash}$`))
  await expect(page.getByTestId('panel-traces')).toContainText('execution reverted')
})

test('decoding: well-known calls without an ABI, and an ABI pasted for an address, kept across a reload', async ({ page }) => {
  await openPlayground(page, 'send')
  const send = page.getByTestId('panel-send')
  const erc20Transfer = encodeFunctionData({ abi: parseAbi(['function transfer(address,uint256)']), args: [DEV[1].address, 5n] })
  await send.getByTestId('send-to').fill(SOMEONE)
  await send.getByTestId('send-amount').fill('0')
  await send.getByTestId('send-data').fill(erc20Transfer)
  await send.getByTestId('send-transfer').click()
  await expect(send.getByTestId('tx-outcome')).toHaveAttribute('data-status', 'success')
  await send.getByTestId('tx-outcome').getByTestId('tx-hash').click()
  const explorer = page.getByTestId('panel-explorer')
  await expect(explorer.getByTestId('transaction-input').getByTestId('decoded-call')).toHaveText(`transfer(to: ${getAddress(DEV[1].address)}, value: 5)`)

  // An ABI pasted for an address (human-readable here) decodes what is sent to it.
  await page.evaluate((address) => (location.hash = `explorer/${address}`), SOMEONE)
  const form = explorer.getByTestId('abi-form')
  await form.locator('summary').click()
  await form.getByTestId('abi-text').fill('{ "nope": 1 }')
  await form.getByTestId('abi-attach').click()
  await expect(form.getByTestId('abi-problem')).toContainText('The JSON is not an ABI')
  await form.getByTestId('abi-name').fill('Poker')
  await form.getByTestId('abi-text').fill('function poke(uint256 n)\nevent Poked(uint256 n)')
  await form.getByTestId('abi-attach').click()
  await expect(form.getByTestId('abi-note')).toContainText('now decode with Poker (2 items)')
  const poke = await rpc<string>(page, 'eth_sendTransaction', { from: DEV[0].address, to: SOMEONE, data: encodeFunctionData({ abi: parseAbi(['function poke(uint256 n)']), args: [7n] }) })
  await page.reload()
  await expect(page.getByTestId('status')).toHaveText(/ready/, { timeout: 30_000 })
  await page.evaluate((hash) => (location.hash = `explorer/${hash}`), poke)
  await expect(explorer.getByTestId('transaction-input').getByTestId('decoded-call')).toHaveText('poke(n: 7)')
})

test('amounts: balances grouped, fees exact, the exact value on hover and when copied', async ({ page }) => {
  await openPlayground(page, 'accounts')
  await rpc(page, 'anvil_setBalance', SOMEONE, `0x${(10_002n * 10n ** 18n + 1n).toString(16)}`)
  await rpc(page, 'anvil_impersonateAccount', SOMEONE)
  const row = page.getByTestId('panel-accounts').getByTestId(`account-${SOMEONE}`)
  const balance = row.getByTestId('balance').locator('.amount')
  // A wei more than 10,002 ETH: cut, and marked as cut.
  await expect(balance).toHaveText('10,002… ETH')
  await expect(balance).toHaveAttribute('title', '10,002.000000000000000001 ETH (10,002,000,000,000,000,000,001 wei)')
  const copied = await balance.evaluate((element) => {
    getSelection()!.selectAllChildren(element)
    const event = new ClipboardEvent('copy', { clipboardData: new DataTransfer(), bubbles: true, cancelable: true })
    element.dispatchEvent(event)
    return event.clipboardData!.getData('text/plain')
  })
  expect(copied).toBe('10,002.000000000000000001 ETH')

  const hash = await transfer(page, 0, SOMEONE, 1n)
  await page.evaluate((hash) => (location.hash = `explorer/${hash}`), hash)
  const fee = page.getByTestId('panel-explorer').locator('[data-fact="fee"]').first()
  // 21,000 gas at 0.04525 gwei, written out (it read "0 ETH (<0.000001)").
  await expect(fee).toHaveText('0.00000095025 ETH (950,250,000,000 wei)')
})

test('the logs search takes an event signature in a topic', async ({ page }) => {
  await openPlayground(page, 'explorer')
  const explorer = page.getByTestId('panel-explorer')
  await explorer.getByTestId('logs-topic0').fill('Transfer(address,address,uint256)')
  await explorer.getByTestId('logs-submit').click()
  await expect(explorer.getByTestId('logs-filter')).toContainText(TRANSFER_TOPIC)
  await expect(explorer.getByTestId('logs-count')).toHaveText('0 logs')

  await explorer.getByTestId('logs-topic0').fill('Transfer(address,adress)')
  await explorer.getByTestId('logs-submit').click()
  await expect(explorer.getByTestId('logs-error')).toContainText('Topic 0: Transfer(address,adress) is not an event signature')
})

test('the page does not move when the node becomes ready', async ({ page }) => {
  await page.addInitScript(() => {
    const shifts: number[] = []
    ;(window as unknown as { layoutShifts: number[] }).layoutShifts = shifts
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) shifts.push(entry.value)
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
  await openPlayground(page, 'accounts')
  await expect(page.getByTestId('panel-accounts').getByTestId('dev-accounts')).toBeVisible()
  const shift = await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts.reduce((sum, value) => sum + value, 0))
  expect(shift).toBeLessThan(0.05)
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })

  test('every panel fits the width: no sideways scrolling, addresses on one line with a copy button', async ({ page }) => {
    await openPlayground(page, 'accounts')
    const hash = await transfer(page, 0, DEV[1].address, 10n ** 18n)
    const panels = ['accounts', 'send', 'contracts', 'explorer', `explorer/${hash}`, `traces/${hash}`, 'messages', 'console', 'node']
    for (const panel of panels) {
      await page.evaluate((hash) => (location.hash = hash), panel)
      const section = page.getByTestId(`panel-${panel.split('/')[0]}`)
      await expect(section).toBeVisible()
      await expect(section.getByText(/loading…|starting the node…/i)).toHaveCount(0)
      const overflow = await page.evaluate(() => {
        const wide = [...document.querySelectorAll<HTMLElement>('[role="tabpanel"]:not([hidden]) *')].filter((element) => element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible' && !['PRE', 'TEXTAREA', 'INPUT'].includes(element.tagName) && !element.classList.contains('visually-hidden') && getComputedStyle(element).textOverflow !== 'ellipsis')
        return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, scrolled: wide.map((element) => `${element.tagName}.${element.className}[${element.dataset.testid ?? ''}]`) }
      })
      expect(overflow, panel).toEqual({ page: 0, scrolled: [] })
    }

    await page.evaluate(() => (location.hash = 'accounts'))
    const row = page.getByTestId('panel-accounts').getByTestId(`account-${DEV[0].address}`)
    const link = row.getByRole('link', { name: DEV[0].address, exact: true })
    const lineHeight = await link.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight) || 20)
    expect((await link.boundingBox())!.height).toBeLessThan(lineHeight * 1.6)
    await expect(row.getByRole('button', { name: `Copy address ${DEV[0].address}` })).toBeVisible()
  })
})
