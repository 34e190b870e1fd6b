/**
 * The playground forks a live chain from its Node panel: the upstream is a pagenode CLI on
 * loopback (it answers loopback origins, as the page's is: CORS), with a few blocks of history and
 * an account funded on it alone. The page's node worker fetches it and the Fork card names it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { openPlayground, rpc } from './support/playground.ts'

const CLI = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url))
const FUNDED_UPSTREAM = '0x00000000000000000000000000000000000f0f0f'
let upstream: ChildProcess | undefined

test.afterEach(() => {
  upstream?.kill('SIGKILL')
})

async function startUpstream(): Promise<string> {
  upstream = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  return new Promise((resolve, reject) => {
    upstream!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk
      const match = /^Listening on (http:\/\/\S+)$/m.exec(output)
      if (match) resolve(match[1])
    })
    upstream!.once('exit', (code) => reject(new Error(`the upstream exited (${code})`)))
  })
}

async function call(url: string, method: string, ...params: unknown[]): Promise<unknown> {
  const answer = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as {
    result?: unknown
    error?: { message: string }
  }
  if (answer.error) throw new Error(answer.error.message)
  return answer.result
}

test('the Node panel forks a chain from its URL and names the upstream and block it forked', async ({ page }) => {
  test.setTimeout(120_000)
  const url = await startUpstream()
  await call(url, 'anvil_setBalance', FUNDED_UPSTREAM, '0x2a')
  await call(url, 'anvil_mine', '0x4')
  await openPlayground(page, 'node')
  await expect(page.getByTestId('fork-current')).toHaveText('Not a fork: this chain started from its own genesis.')

  await page.getByTestId('fork-url').fill('not a url')
  await page.getByTestId('fork-start').click()
  await expect(page.getByTestId('fork-error')).toHaveText('error: The upstream must be an http:// or https:// URL, e.g. https://rpc.example.org.')

  await page.getByTestId('fork-url').fill(url)
  await page.getByTestId('fork-block').fill('4')
  await page.getByTestId('fork-start').click()
  const host = new URL(url).host
  await expect(page.getByTestId('fork-current')).toHaveText(`A fork of ${host} at block 4.`)
  await expect(page.getByTestId('fork-note')).toContainText('Forked.')
  // The upstream's state, read by the page's node worker.
  expect(await rpc(page, 'eth_getBalance', FUNDED_UPSTREAM, 'latest')).toBe('0x2a')
})
