/**
 * An accessibility check of every panel with axe-core (WCAG 2.x A and AA rules): the page with
 * each panel open, after something was done in it, has no serious or critical violation. The
 * failure lists each violation with the elements it found, so it says what to fix.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { DEV, openPlayground, transfer } from './support/playground.ts'

const PANELS = ['accounts', 'send', 'contracts', 'explorer', 'traces', 'messages', 'console', 'node'] as const

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
}

test('every panel has no serious or critical accessibility violation (axe-core)', async ({ page }) => {
  test.setTimeout(120_000)
  await openPlayground(page, 'accounts')
  const hash = await transfer(page, 0, DEV[1].address, 10n ** 18n)
  const found: Record<string, string[]> = {}
  for (const panel of PANELS) {
    await page.evaluate((hash) => (location.hash = hash), panel === 'traces' || panel === 'explorer' ? `${panel}/${hash}` : panel)
    const section = page.getByTestId(`panel-${panel}`)
    await expect(section).toBeVisible()
    await expect(section.getByText(/loading…|starting the node…/i)).toHaveCount(0)
    if (panel === 'explorer') await expect(section.getByTestId('transaction-view')).toBeVisible()
    found[panel] = await seriousViolations(page)
  }
  expect(found).toEqual(Object.fromEntries(PANELS.map((panel) => [panel, []])))
})
