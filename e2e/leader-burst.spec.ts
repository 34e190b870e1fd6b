/**
 * Issue 19's fault test on a real profile: the leader tab closed during a burst of out-of-order
 * nonces (each acknowledged once stored, in a block or in the pool), then the whole browser
 * closed and relaunched on the same profile. Every transaction the leader's page was told about
 * is in the chain or in the pool, in the tab that took over and after the relaunch. Prints
 * trials, acknowledged and lost.
 */
import { expect, test, type Page } from '@playwright/test'
import { DEV, openPlayground, persistentBrowser, role, rpc, sign } from './support/playground.ts'

const TO = '0x000000000000000000000000000000000000b0b0'
const TRIALS = 3
const BURST = 60

/** Hashes the page acknowledged but the chain (mined or pooled) does not know. */
async function lost(page: Page, acknowledged: readonly string[]): Promise<string[]> {
  const missing: string[] = []
  for (const hash of acknowledged) if ((await rpc(page, 'eth_getTransactionByHash', hash)) === null) missing.push(hash)
  return missing
}

test('the leader tab closed during an out-of-order burst, then the browser: nothing acknowledged is lost', async ({ launchOptions, baseURL }) => {
  test.setTimeout(120_000)
  const browser = await persistentBrowser(launchOptions, baseURL)
  const acknowledged: string[] = []
  let lostInTakeover = 0
  try {
    let survivor = browser.context.pages()[0] ?? (await browser.context.newPage())
    await openPlayground(survivor)
    for (let trial = 0; trial < TRIALS; trial++) {
      // A new leader tab: the survivor of the last trial leads until this one takes its turn.
      const leader = await browser.context.newPage()
      await openPlayground(leader)
      await survivor.close()
      await expect.poll(() => role(leader), { timeout: 15_000 }).toBe('leader')
      const follower = await browser.context.newPage()
      await openPlayground(follower)
      expect(await role(follower)).toBe('follower')

      // Nonces sent in a shuffled order: most wait in the pool for a gap to fill.
      const from = trial % DEV.length
      const base = Number(await rpc<string>(follower, 'eth_getTransactionCount', DEV[from].address, 'pending'))
      const nonces = Array.from({ length: BURST }, (_, i) => base + i).sort(() => Math.random() - 0.5)
      const raws = await Promise.all(nonces.map((nonce) => sign(from, nonce, { to: TO, value: 1n })))
      const acked: string[] = []
      await leader.exposeFunction('acknowledged', (hash: string) => acked.push(hash))
      void leader
        .evaluate((raws) => {
          for (const raw of raws) {
            void window.pagenode!.provider.request({ method: 'eth_sendRawTransaction', params: [raw] }).then(
              (hash) => (window as unknown as { acknowledged(hash: unknown): void }).acknowledged(hash),
              () => {},
            )
          }
        }, raws)
        .catch(() => {})
      // Closed mid-burst: some acknowledged, the rest on their way.
      await expect.poll(() => acked.length, { timeout: 15_000, intervals: [5] }).toBeGreaterThanOrEqual(5)
      await leader.close()
      acknowledged.push(...acked)
      console.log(`trial ${trial + 1}: leader closed with ${acked.length} of ${BURST} acknowledged`)

      await expect.poll(() => role(follower), { timeout: 15_000 }).toBe('leader')
      lostInTakeover += (await lost(follower, acked)).length
      survivor = follower
    }

    await browser.restart()
    const page = browser.context.pages()[0] ?? (await browser.context.newPage())
    await openPlayground(page)
    const lostAfterRelaunch = (await lost(page, acknowledged)).length
    console.log(`leader closed mid-burst: ${TRIALS} trials, ${acknowledged.length} acknowledged, ${lostInTakeover} lost at takeover, ${lostAfterRelaunch} lost after a browser relaunch`)
    expect(lostInTakeover).toBe(0)
    expect(lostAfterRelaunch).toBe(0)
    expect(acknowledged.length).toBeGreaterThanOrEqual(TRIALS * 5)
  } finally {
    await browser.close()
  }
})
