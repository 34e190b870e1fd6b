import { expect, test, type Page } from '@playwright/test'

async function openConsole(page: Page): Promise<void> {
  await page.goto('/#console')
  // Boot includes building the genesis state, which is slow on a small machine.
  await expect(page.getByTestId('status')).toHaveText(/^node ready · chain 260 · block \d+ · (leader|follower)$/, { timeout: 30_000 })
  await expect(page.getByTestId('send')).toBeEnabled()
}

test.beforeEach(async ({ page }) => {
  // Surface page errors in the test output instead of a bare timeout.
  page.on('pageerror', (error) => console.error('[pageerror]', error))
})

test('the page starts a node and reports it ready', async ({ page }) => {
  await openConsole(page)
  await expect(page.getByTestId('status')).toHaveText('node ready · chain 260 · block 0 · leader')
})

test('eth_chainId through the console answers 0x104', async ({ page }) => {
  await openConsole(page)
  await page.getByTestId('method').fill('eth_chainId')
  await page.getByTestId('params').fill('[]')
  await page.getByTestId('send').click()

  const response = page.getByTestId('response')
  await expect(response).toHaveAttribute('data-state', 'ok')
  await expect(response.locator('pre')).toHaveText('"0x104"')
  await expect(page.getByTestId('history').getByRole('button')).toHaveCount(1)
  await expect(page.getByTestId('history')).toContainText('eth_chainId')
})

test('Enter in the method field sends', async ({ page }) => {
  await openConsole(page)
  await page.getByTestId('method').fill('eth_chainId')
  await page.getByTestId('params').fill('')
  await page.getByTestId('method').press('Enter')
  await expect(page.getByTestId('response').locator('pre')).toHaveText('"0x104"')
})

test('params that are not JSON are refused with a clear message', async ({ page }) => {
  await openConsole(page)
  await page.getByTestId('method').fill('eth_getBalance')
  await page.getByTestId('params').fill('["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", ')
  await page.getByTestId('params').press('Control+Enter')

  const message = page.getByTestId('params-error')
  await expect(message).toBeVisible()
  await expect(message).toContainText('Params are not valid JSON')
  await expect(page.getByTestId('params')).toHaveAttribute('aria-invalid', 'true')
  // Nothing was sent.
  await expect(page.getByTestId('response')).toHaveAttribute('data-state', 'idle')
  await expect(page.getByTestId('history').getByRole('button')).toHaveCount(0)
})

test('an unknown method shows JSON-RPC error -32601', async ({ page }) => {
  await openConsole(page)
  await page.getByTestId('method').fill('pagenode_noSuchMethod')
  await page.getByTestId('params').fill('[]')
  await page.getByTestId('send').click()

  const response = page.getByTestId('response')
  await expect(response).toHaveAttribute('data-state', 'error')
  await expect(response).toContainText('-32601')
  await expect(page.getByTestId('history')).toContainText('-32601')
})

test('a history entry loads its call back into the console', async ({ page }) => {
  await openConsole(page)
  await page.getByTestId('method').fill('eth_getBlockByNumber')
  await page.getByTestId('params').fill('["0x0", false]')
  await page.getByTestId('send').click()
  await expect(page.getByTestId('response')).toHaveAttribute('data-state', 'ok')

  await page.getByTestId('method').fill('eth_chainId')
  await page.getByTestId('params').fill('[]')
  await page.getByTestId('history').getByRole('button', { name: /eth_getBlockByNumber/ }).click()
  await expect(page.getByTestId('method')).toHaveValue('eth_getBlockByNumber')
  await expect(page.getByTestId('params')).toHaveValue('["0x0",false]')
  await expect(page.getByTestId('params')).toBeFocused()
})
