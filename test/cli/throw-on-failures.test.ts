/** `--throw-on-transaction-failures`: over HTTP, a failing send is Hardhat's error, its transaction mined. */
import { expect, test } from 'vitest'
import { DEV } from '../support/chain.ts'
import { call, post, startCli } from '../support/cli.ts'

test('a reverting deployment answers Hardhat\'s error with the hash of the mined transaction', async () => {
  const cli = await startCli(['--throw-on-transaction-failures'])
  const response = await post(cli.url, { jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ from: DEV[0].address, data: '0x60006000fd', gas: '0x100000' }] })
  const { error } = (await response.json()) as { error: { code: number; message: string; data: { txHash: string } } }
  expect(error).toMatchObject({ code: -32603, message: 'Error: Transaction reverted without a reason string', data: { data: '0x' } })
  expect(await call<{ status: string }>(cli.url, 'eth_getTransactionReceipt', error.data.txHash)).toMatchObject({ status: '0x0' })
})
