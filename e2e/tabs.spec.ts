/**
 * Two tabs of the playground on one chain: one runs it, the other forwards to it; closing the
 * one that runs it hands the chain to the other, from the same head.
 */
import { expect, test } from '@playwright/test'
import { DEV, hangWorker, head, openPlayground, role, rpc, transfer } from './support/playground.ts'

const TO = '0x000000000000000000000000000000000000cafe'

test('two tabs share one chain; closing the leader tab hands it to the other', async ({ context }) => {
  const first = await context.newPage()
  await openPlayground(first)
  const second = await context.newPage()
  await openPlayground(second)
  expect([await role(first), await role(second)]).toEqual(['leader', 'follower'])
  await expect(second.getByTestId('status')).toHaveText(/ · follower$/)

  // A write in the follower tab: both tabs see the block (the leader's status follows new heads).
  await transfer(second, 0, TO, 7n)
  await expect(first.getByTestId('status')).toHaveText('node ready · chain 260 · block 1 · leader')
  await transfer(first, 1, TO, 8n)
  await expect(second.getByTestId('status')).toHaveText('node ready · chain 260 · block 2 · follower')
  const before = await head(second)
  expect(await head(first)).toEqual(before)

  await first.close()
  await expect.poll(() => role(second), { timeout: 15_000 }).toBe('leader')
  // Its header says so at once, before any new block.
  await expect(second.getByTestId('status')).toHaveText('node ready · chain 260 · block 2 · leader')
  expect(await head(second)).toEqual(before)
  expect(await rpc(second, 'eth_getBalance', TO, 'latest')).toBe('0xf')

  // The survivor runs the chain now, and its page still hears new heads.
  await transfer(second, 0, TO, 1n)
  await expect(second.getByTestId('status')).toHaveText('node ready · chain 260 · block 3 · leader')
})

test('a leader that stops answering is replaced; once it wakes it follows, and the chain has not forked', async ({ context }) => {
  const first = await context.newPage()
  await openPlayground(first)
  const second = await context.newPage()
  await openPlayground(second)
  await transfer(first, 0, TO, 1n)

  await hangWorker(first, 12_000)
  // The second tab's call goes unanswered until it takes the chain over (after 5 s of silence).
  const sent = await transfer(second, 0, TO, 2n)
  expect(await role(second)).toBe('leader')
  // The HTTP endpoint moved with the chain: answered while the old leader is still hung.
  const viaHttp = await second.evaluate(async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })
    const response = await fetch('/rpc/', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    return ((await response.json()) as { result?: string }).result
  })
  expect(viaHttp).toBe('0x2')
  expect(await role(first), 'the hung tab answered before the test could tell').toBe('leader')
  // A call made in the hung tab meanwhile: run by it on waking (refused: its store is no longer
  // its own), or forwarded once it has stepped down. Never both, never a fork.
  const fromHung = transfer(first, 1, TO, 4n).then(
    (hash) => ({ hash }),
    (error: Error) => ({ error: error.message }),
  )
  await expect.poll(() => role(first), { timeout: 20_000 }).toBe('follower')
  const outcome = await fromHung
  if ('error' in outcome) expect(outcome.error).toMatch(/another tab took this chain over|leader changed/)

  const after = await head(second)
  expect(await head(first)).toEqual(after)
  expect(await rpc(first, 'eth_getTransactionReceipt', sent)).not.toBeNull()
  const balance = BigInt(await rpc<string>(second, 'eth_getBalance', TO, 'latest'))
  expect(balance).toBe('hash' in outcome ? 7n : 3n)
  expect(await rpc(first, 'eth_getTransactionCount', DEV[1].address, 'latest')).toBe('hash' in outcome ? '0x1' : '0x0')

  // What the tabs agree on is what is stored.
  await second.reload()
  await expect(second.getByTestId('status')).toHaveText(/ · block \d+ · (leader|follower)$/, { timeout: 30_000 })
  expect(await head(second)).toEqual(after)
})
