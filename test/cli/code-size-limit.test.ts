/** `--disable-code-size-limit` and `--code-size-limit`: a large contract deploys over HTTP, as on anvil. */
import { expect, test } from 'vitest'
import { DEV } from '../support/chain.ts'
import { call, startCli } from '../support/cli.ts'

/** Initcode that deploys `size` zero bytes: PUSH3 size, PUSH1 0, RETURN. */
const deploying = (size: number) => `0x62${size.toString(16).padStart(6, '0')}6000f3`

async function deployedLength(url: string, size: number): Promise<number> {
  const hash = await call<string>(url, 'eth_sendTransaction', { from: DEV[0].address, data: deploying(size), gas: '0x1c9c380' })
  const receipt = await call<{ contractAddress: string }>(url, 'eth_getTransactionReceipt', hash)
  return ((await call<string>(url, 'eth_getCode', receipt.contractAddress, 'latest')).length - 2) / 2
}

test('the limits apply to what the CLI serves', async () => {
  const unlimited = await startCli(['--disable-code-size-limit'])
  expect(await deployedLength(unlimited.url, 60_000)).toBe(60_000)
  const limited = await startCli(['--code-size-limit', '30000'])
  expect(await deployedLength(limited.url, 30_000)).toBe(30_000)
  expect(await deployedLength(limited.url, 30_001)).toBe(0)
})
