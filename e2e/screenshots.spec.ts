/**
 * The README's screenshots: each panel of the playground at 1280×800 in the light scheme, after
 * something was done in it (transfers, a compiled and deployed contract, an L2→L1 message, a
 * console call), so none is an empty form.
 *
 * `UPDATE_SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts` writes docs/screenshots/<panel>.png;
 * otherwise the PNGs go to test-results/ and tracked files are left alone. Either way the test
 * fails when a panel shows an error or the page throws.
 *
 * Panel internals change: each step drives a panel only through controls it finds (by test id)
 * and only waits for what those controls promise, so a reworked panel still gets its picture.
 */
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { encodeFunctionData, parseAbi, stringToHex } from 'viem'
import { DEV, READY, openPlayground, rpc, transfer } from './support/playground.ts'

type PanelId = 'accounts' | 'send' | 'contracts' | 'explorer' | 'traces' | 'messages' | 'console' | 'node'

const update = process.env.UPDATE_SCREENSHOTS === '1'
const L1_MESSENGER = '0x0000000000000000000000000000000000008008'
const SOMEONE = '0x000000000000000000000000000000000000beef'

test.use({ viewport: { width: 1280, height: 800 }, colorScheme: 'light', deviceScaleFactor: 1 })
test.setTimeout(240_000)

const present = async (locator: Locator) => (await locator.count()) > 0 && (await locator.first().isVisible())

async function open(page: Page, panel: PanelId, argument?: string): Promise<Locator> {
  await page.evaluate((hash) => (location.hash = hash), argument === undefined ? panel : `${panel}/${argument}`)
  const section = page.getByTestId(`panel-${panel}`)
  await expect(page.getByTestId(`tab-${panel}`)).toHaveAttribute('aria-selected', 'true')
  await expect(section).toBeVisible()
  return section
}

/**
 * The picture, once the panel has settled, with no error in it. The page header is the same in
 * every panel: the view starts at the tab list, or further down at `focus` (what was just done)
 * when it does not fit in the view from there.
 */
async function shoot(page: Page, panel: PanelId, section: Locator, focus?: Locator): Promise<void> {
  await expect(section.getByText(/loading…|starting the node…/i)).toHaveCount(0)
  await expect(section.locator('[role="alert"]:visible'), `${panel} shows an error`).toHaveCount(0)
  await page.getByRole('navigation', { name: 'Panels' }).evaluate((nav) => nav.scrollIntoView({ block: 'start' }))
  if (focus && (await present(focus))) {
    const box = await focus.first().boundingBox()
    if (box && box.y + box.height > page.viewportSize()!.height) {
      await focus.first().evaluate((element) => (element.scrollIntoView({ block: 'start' }), window.scrollBy(0, -16)))
    }
  }
  const path = update ? resolve('docs/screenshots', `${panel}.png`) : test.info().outputPath(`${panel}.png`)
  mkdirSync(resolve(path, '..'), { recursive: true })
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' })
}

/** The block number of the status line, once it shows one above `above`. */
async function blockAbove(page: Page, above: number): Promise<number> {
  await expect.poll(async () => Number(READY.exec((await page.getByTestId('status').textContent()) ?? '')?.[1] ?? -1)).toBeGreaterThan(above)
  return Number(READY.exec((await page.getByTestId('status').textContent()) ?? '')![1])
}

test('a screenshot of every panel, each after something was done in it', async ({ page }) => {
  const errors: Error[] = []
  page.on('pageerror', (error) => errors.push(error))
  await openPlayground(page, 'accounts')

  // A chain with some history: transfers between dev accounts and an L2→L1 message (a call into a system contract).
  await transfer(page, 0, DEV[1].address, 2_500_000_000_000_000_000n)
  await transfer(page, 1, SOMEONE, 420_000_000_000_000_000n)
  const messageTx = await rpc<string>(page, 'eth_sendTransaction', {
    from: DEV[0].address,
    to: L1_MESSENGER,
    data: encodeFunctionData({ abi: parseAbi(['function sendToL1(bytes message) returns (bytes32)']), args: [stringToHex('Hello from L2')] }),
  })
  let block = await blockAbove(page, 2)

  await test.step('accounts', async () => {
    await shoot(page, 'accounts', await open(page, 'accounts'))
  })

  await test.step('send', async () => {
    const section = await open(page, 'send')
    const to = section.getByTestId('send-to')
    if (await present(to)) {
      await to.fill(SOMEONE)
      await section.getByTestId('send-amount').fill('0.75')
      await section.getByTestId('send-transfer').click()
      block = await blockAbove(page, block)
    }
    await shoot(page, 'send', section)
  })

  await test.step('contracts', async () => {
    const section = await open(page, 'contracts')
    const compile = section.getByTestId('compile')
    if (await present(compile)) {
      await compile.click()
      // The first compile loads the 9 MB compiler into its worker.
      await expect(section.getByTestId('compile-summary')).toHaveAttribute('data-state', 'ok', { timeout: 120_000 })
      const deploy = section.getByTestId('deploy-button')
      if (await present(deploy)) {
        await deploy.click()
        block = await blockAbove(page, block)
        await expect(section.getByTestId('deploy-result')).not.toBeEmpty()
      }
    }
    await shoot(page, 'contracts', section, section.getByTestId('deploy'))
  })

  await test.step('explorer', async () => {
    const section = await open(page, 'explorer')
    const view = section.getByTestId('explorer-view')
    if ((await view.count()) > 0) await expect(view).not.toBeEmpty()
    await shoot(page, 'explorer', section)
  })

  await test.step('traces', async () => {
    const section = await open(page, 'traces', messageTx)
    await expect(section).toContainText(messageTx.slice(2, 8), { ignoreCase: true })
    await shoot(page, 'traces', section, section.getByText(/^Trace of/))
  })

  await test.step('messages', async () => {
    const section = await open(page, 'messages')
    const send = section.getByTestId('send-message')
    if (await present(send)) {
      await send.click()
      block = await blockAbove(page, block)
      const stage = section.getByTestId('message-stage')
      await expect(stage).toBeVisible()
      // Seal the batch so the picture shows the proof, not a wait.
      const mine = section.getByTestId('mine-now')
      if (await present(mine)) {
        await mine.click()
        await expect(mine).toHaveCount(0, { timeout: 30_000 })
      }
    }
    await shoot(page, 'messages', section, section.getByTestId('message-detail'))
  })

  await test.step('console', async () => {
    const section = await open(page, 'console')
    await section.getByTestId('method').fill('eth_getTransactionReceipt')
    await section.getByTestId('params').fill(JSON.stringify([messageTx]))
    await section.getByTestId('send').click()
    await expect(section.getByTestId('response')).toHaveAttribute('data-state', 'ok')
    await shoot(page, 'console', section)
  })

  await test.step('node', async () => {
    const section = await open(page, 'node')
    const snapshot = section.getByRole('button', { name: /take a snapshot/i })
    if (await present(snapshot)) {
      await snapshot.click()
      await expect(section.getByText(/no snapshot taken/i)).toBeHidden()
    }
    await shoot(page, 'node', section)
  })

  expect(errors.map(String)).toEqual([])
})
