/** The request log switched at run time: anvil_/hardhat_setLoggingEnabled, as viem's test client sends them. */
import { createTestClient, http } from 'viem'
import { expect, test } from 'vitest'
import { post, startCli } from '../support/cli.ts'

test("viem's setLoggingEnabled turns the CLI's request log on and off, in anvil and in hardhat mode", async () => {
  const cli = await startCli()
  const anvil = createTestClient({ mode: 'anvil', transport: http(cli.url, { retryCount: 0 }) })
  const hardhat = createTestClient({ mode: 'hardhat', transport: http(cli.url, { retryCount: 0 }) })
  const send = (id: number) => post(cli.url, { jsonrpc: '2.0', id, method: 'eth_chainId' })

  await send(1) // off by default (no --verbose)
  await anvil.setLoggingEnabled(true)
  await send(2)
  await expect.poll(() => cli.stdout()).toMatch(/^eth_chainId id=2 /m)
  await hardhat.setLoggingEnabled(false)
  await send(3)
  await hardhat.setLoggingEnabled(true)
  await send(4)
  await expect.poll(() => cli.stdout()).toMatch(/^eth_chainId id=4 /m)
  // The lines come through one pipe in order: id=4 is there, so 1 and 3 were never printed.
  expect(cli.stdout()).not.toMatch(/^eth_chainId id=[13] /m)
  expect(cli.stdout()).toMatch(/^anvil_setLoggingEnabled id=\d+ /m)
  expect(cli.stdout()).toMatch(/^hardhat_setLoggingEnabled id=\d+ /m)
})

test('--verbose starts with the log on; turning it off silences it', async () => {
  const cli = await startCli(['--verbose'])
  const hardhat = createTestClient({ mode: 'hardhat', transport: http(cli.url, { retryCount: 0 }) })
  await post(cli.url, { jsonrpc: '2.0', id: 10, method: 'eth_chainId' })
  await expect.poll(() => cli.stdout()).toMatch(/^eth_chainId id=10 /m)
  await hardhat.setLoggingEnabled(false)
  await post(cli.url, { jsonrpc: '2.0', id: 11, method: 'eth_chainId' })
  await post(cli.url, { jsonrpc: '2.0', id: 12, method: 'hardhat_setLoggingEnabled', params: [true] })
  await post(cli.url, { jsonrpc: '2.0', id: 13, method: 'eth_chainId' })
  await expect.poll(() => cli.stdout()).toMatch(/^eth_chainId id=13 /m)
  expect(cli.stdout()).not.toMatch(/^eth_chainId id=11 /m)
  const bad = await post(cli.url, { jsonrpc: '2.0', id: 14, method: 'anvil_setLoggingEnabled', params: ['yes'] })
  expect(await bad.json()).toMatchObject({ error: { code: -32602, message: 'invalid argument 0 (enabled): expected true or false, got "yes"' } })
})
