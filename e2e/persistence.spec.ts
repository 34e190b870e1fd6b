/**
 * The chain outlives the page: a reload and a browser restart (same on-disk profile) find it
 * exactly as last acknowledged.
 */
import { expect, test } from '@playwright/test'
import { DEV, READY, head, openPlayground, persistentBrowser, rpc, sign, transfer, waitReady } from './support/playground.ts'

const TO = '0x000000000000000000000000000000000000beef'

test('a transaction sent from the console survives a reload and a browser restart', async ({ launchOptions, baseURL }) => {
  const browser = await persistentBrowser(launchOptions, baseURL)
  try {
    let page = browser.context.pages()[0] ?? (await browser.context.newPage())
    await openPlayground(page)
    await expect(page.getByTestId('status')).toHaveText('node ready · chain 260 · block 0 · leader')

    // Through the console, as a user would: a signed transfer pasted as eth_sendRawTransaction.
    await page.getByTestId('method').fill('eth_sendRawTransaction')
    await page.getByTestId('params').fill(JSON.stringify([await sign(0, 0, { to: TO, value: 1234n })]))
    await page.getByTestId('send').click()
    await expect(page.getByTestId('response')).toHaveAttribute('data-state', 'ok')
    await expect(page.getByTestId('status')).toHaveText('node ready · chain 260 · block 1 · leader')
    await transfer(page, 1, TO, 5n)
    const before = await head(page)
    const balance = await rpc(page, 'eth_getBalance', TO, 'latest')
    expect(before.number).toBe('0x2')
    expect(balance).toBe('0x4d7')

    await page.reload()
    await waitReady(page)
    await expect(page.getByTestId('status')).toHaveText(/ · block 2 · /)
    expect(await head(page)).toEqual(before)
    expect(await rpc(page, 'eth_getBalance', TO, 'latest')).toBe(balance)

    await browser.restart()
    page = browser.context.pages()[0] ?? (await browser.context.newPage())
    await openPlayground(page)
    await expect(page.getByTestId('status')).toHaveText('node ready · chain 260 · block 2 · leader')
    expect(await head(page)).toEqual(before)
    expect(await rpc(page, 'eth_getBalance', TO, 'latest')).toBe(balance)
    expect(await rpc(page, 'eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x1')

    // And the chain goes on from there.
    await transfer(page, 0, TO, 1n)
    await expect(page.getByTestId('status')).toHaveText(READY)
    expect((await head(page)).number).toBe('0x3')
  } finally {
    await browser.close()
  }
})
