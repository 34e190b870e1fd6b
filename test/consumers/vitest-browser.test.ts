/**
 * Frontend unit tests in Vitest browser mode with the README's config (the pagenode/vite plugin,
 * Playwright's Chromium) and `pagenode/testing`: a consumer's own test file, run by Vitest.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.ts'
import { createConsumer, stopConsumerProcesses, type Consumer } from './support/consumer.ts'

let app: Consumer

beforeAll(async () => {
  app = await createConsumer('vitest-browser', {
    // As in the README, with the system Chromium (this machine downloads no browser).
    'vitest.config.js': `import { defineConfig } from 'vitest/config'
import { playwright } from '@vitest/browser-playwright'
import pagenode from 'pagenode/vite'

export default defineConfig({
  plugins: [pagenode()],
  test: {
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({ launchOptions: { executablePath: ${JSON.stringify(chromiumPath)}, args: ${JSON.stringify(chromiumArgs)} } }),
      instances: [{ browser: 'chromium' }],
    },
  },
})
`,
    'src/wallet.test.js': `import { useChain } from 'pagenode/testing'
import { parseEther } from 'viem'
import { expect, test } from 'vitest'

const chain = useChain()

test('a transfer between dev accounts', async () => {
  const hash = await chain.walletClient.sendTransaction({ to: chain.accounts[1], value: parseEther('1') })
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  expect(await chain.publicClient.getBalance({ address: chain.accounts[1] })).toBe(parseEther('10001'))
})

test('each test starts from the same chain', async () => {
  expect(await chain.publicClient.getBlockNumber()).toBe(0n)
  const signer = await chain.signer(2)
  const sent = await signer.sendTransaction({ to: chain.accounts[3], value: 1n })
  expect((await sent.wait()).status).toBe(1)
})
`,
  })
})

afterAll(stopConsumerProcesses)

test("Vitest browser mode runs a consumer's tests on pagenode/testing", async () => {
  const { stdout } = await app.run('vitest', ['run'], { timeoutMs: 170_000 })
  // eslint-disable-next-line no-control-regex
  const plain = stdout.replace(/\x1b\[[0-9;]*m/g, '')
  expect(plain).toMatch(/Tests\s+2 passed \(2\)/)
})
