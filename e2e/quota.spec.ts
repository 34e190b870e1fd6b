/**
 * A full disk: with the origin's quota forced small (DevTools protocol), a block that cannot be
 * stored fails with a clear -32000 error, nothing unstored is acknowledged, and the chain stays
 * consistent and usable — on once there is room, and after a reload.
 *
 * Here rather than in Vitest's browser mode: there, once any test has killed a worker holding
 * an IndexedDB connection, Chromium ignores quota overrides for the origin for the rest of the
 * session (measured); this browser is fresh.
 */
import { expect, test } from '@playwright/test'
import { randomBytes } from 'node:crypto'
import { keccak256 } from 'ethers'
import { DEV, head, openPlayground, persistentBrowser, rpc, sign, transfer, waitReady } from './support/playground.ts'

/** Init code that deploys `size` random bytes: random, because Chromium compresses what it stores. */
function randomCodeDeployment(size: number): string {
  const code = randomBytes(size)
  code[0] = 0 // 0xEF as a first byte is refused (EIP-3541)
  const hex = (n: number) => n.toString(16).padStart(4, '0')
  // CODECOPY the bytes after this 14-byte prefix to memory and RETURN them as the runtime code.
  return `0x61${hex(size)}600e60003961${hex(size)}6000f3${code.toString('hex')}`
}

const deploy = async (page: Parameters<typeof rpc>[0], nonce: number) => {
  const raw = await sign(1, nonce, { data: randomCodeDeployment(20_000), gasLimit: 8_000_000n })
  await rpc(page, 'eth_sendRawTransaction', raw)
  return keccak256(raw)
}

const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: Error) => error.message,
  )

test('a write refused for quota fails clearly, acknowledges nothing, and the chain recovers', async ({ launchOptions, baseURL }) => {
  const browser = await persistentBrowser(launchOptions, baseURL)
  try {
    // The playground's service worker keeps an offline copy of the site (~10 MB) in the origin's
    // storage, which a quota this small cannot hold beside the chain: pagenode's bare relay instead.
    await browser.context.route('**/playground-sw.js?*', async (route) =>
      route.fulfill({ response: await route.fetch({ url: route.request().url().replace('/playground-sw.js', '/pagenode-sw.js') }) }),
    )
    const page = browser.context.pages()[0] ?? (await browser.context.newPage())
    const devtools = await browser.context.newCDPSession(page)
    const origin = new URL(baseURL!).origin
    // Before the node opens its database: Chromium applies an override to connections opened after it.
    await devtools.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 512 * 1024 })
    await openPlayground(page)
    const before = await transfer(page, 0, DEV[1].address, 1n)

    const stored: string[] = []
    let refused: string | undefined
    let nonce = 0
    while (refused === undefined && nonce < 40) {
      refused = await failureOf(deploy(page, nonce).then((hash) => void stored.push(hash)))
      if (refused === undefined) nonce++
    }
    // page.evaluate flattens the ProviderRpcError into its message; its code is checked below.
    expect(refused, 'the forced quota was never hit').toBeDefined()
    expect(stored.length, 'the quota was hit at once').toBeGreaterThan(0)
    expect(refused).toMatch(/block \d+ could not be stored \(.*storage quota exceeded.*\); the chain is back at block \d+/)
    const full = await head(page)
    expect(refused).toContain(`back at block ${Number(full.number)}`)
    expect(await rpc(page, 'eth_getTransactionCount', DEV[1].address, 'latest')).toBe(`0x${nonce.toString(16)}`)
    const code = await page.evaluate(
      (raw) => window.pagenode!.provider.request({ method: 'eth_sendRawTransaction', params: [raw] }).catch((error: { code: number }) => error.code),
      await sign(1, nonce, { data: randomCodeDeployment(20_000), gasLimit: 8_000_000n }),
    )
    expect(code).toBe(-32000)
    expect(await head(page)).toEqual(full)

    await devtools.send('Storage.overrideQuotaForOrigin', { origin })
    stored.push(await deploy(page, nonce))
    const after = await transfer(page, 0, DEV[1].address, 1n)
    const last = await head(page)
    expect(Number(last.number)).toBe(Number(full.number) + 2)

    await page.reload()
    await waitReady(page)
    expect(await head(page)).toEqual(last)
    for (const hash of [before, ...stored, after]) expect(await rpc(page, 'eth_getTransactionReceipt', hash), hash).not.toBeNull()
  } finally {
    await browser.close()
  }
})
