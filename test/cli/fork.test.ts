import { join } from 'node:path'
import { Interface, type InterfaceAbi } from 'ethers'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parseCliArgs } from '../../src/cli/args.ts'
import { artifacts, DEV } from '../support/chain.ts'
import { call, runCli, startCli, tempDir } from '../support/cli.ts'
import { SEED_SENT, startForkUpstream, UPSTREAM_CHAIN_ID, type ForkUpstream } from '../support/forkUpstream.ts'

const token = new Interface(artifacts.Token.abi as InterfaceAbi)
let upstream: ForkUpstream

beforeAll(async () => {
  upstream = await startForkUpstream()
}, 60_000)
afterAll(() => upstream.close())

const balanceOf = async (url: string, who: string) => BigInt(await call<string>(url, 'eth_call', { to: upstream.token, data: token.encodeFunctionData('balanceOf', [who]) }, 'latest'))

it('forks with --fork-url into a state file, and starts again from it with the upstream down, state and history', async () => {
  const state = join(await tempDir(), 'fork.state')
  const cli = await startCli(['--fork-url', upstream.url, '--fork-block-number', String(upstream.seededBlock), '--state', state])
  expect(cli.stdout()).toContain(`Chain ID:   ${UPSTREAM_CHAIN_ID} (0x${UPSTREAM_CHAIN_ID.toString(16)})`)
  expect(cli.stdout()).toContain(`Fork:       ${new URL(upstream.url).host} at block ${upstream.seededBlock}`)
  expect(await balanceOf(cli.url, DEV[1].address)).toBe(SEED_SENT)
  const hash = await call<string>(cli.url, 'eth_sendTransaction', { from: DEV[1].address, to: upstream.token, data: token.encodeFunctionData('transfer', [DEV[2].address, 10n]) })
  const receipt = await call<{ status: string; blockNumber: string }>(cli.url, 'eth_getTransactionReceipt', hash)
  expect(receipt).toMatchObject({ status: '0x1' })
  // The block numbers continue the upstream's; its blocks up to the fork point are served from it.
  expect(BigInt(receipt.blockNumber)).toBe(upstream.seededBlock + 1n)
  const block1 = await call<{ number: string; transactions: unknown[] }>(cli.url, 'eth_getBlockByNumber', '0x1', true)
  expect(block1).toMatchObject({ number: '0x1' })
  expect(block1.transactions).toHaveLength(1)
  expect((await cli.stop()).code).toBe(0)

  upstream.down = true
  try {
    const again = await startCli(['--state', state])
    expect(again.stdout()).toContain(`Chain ID:   ${UPSTREAM_CHAIN_ID} `)
    expect(again.stdout()).toContain(`Fork:       ${new URL(upstream.url).host} at block ${upstream.seededBlock}`)
    expect(await balanceOf(again.url, DEV[1].address)).toBe(SEED_SENT - 10n)
    expect(await balanceOf(again.url, DEV[2].address)).toBe(10n)
    // What was read of the history is in the state file too.
    expect(await call(again.url, 'eth_getBlockByNumber', '0x1', true)).toEqual(block1)
    await expect(call(again.url, 'eth_getBalance', '0x00000000000000000000000000000000000000bb', 'latest')).rejects.toThrow(
      /^eth_getBalance: -32603 the fork's upstream 127\.0\.0\.1:\d+ failed/,
    )
  } finally {
    upstream.down = false
  }
})

it('refuses fork flags it cannot use, and an upstream it cannot reach', async () => {
  expect(() => parseCliArgs(['--fork-block-number', '5'])).toThrow('--fork-block-number needs --fork-url <url>: the chain to fork')
  expect(() => parseCliArgs(['--fork-url', 'ws://x'])).toThrow("--fork-url must be an http:// or https:// URL, got 'ws://x'")
  expect(() => parseCliArgs(['--fork-url', 'http://x', '--fork-block-number', 'latest'])).toThrow(
    "--fork-block-number must be a block number (decimal or 0x-hex), got 'latest'",
  )
  const exit = await runCli(['--port', '0', '--fork-url', 'http://user:secret@127.0.0.1:9/'])
  expect(exit.code).toBe(1)
  expect(exit.stderr).toMatch(/cannot fork: the fork's upstream 127\.0\.0\.1:9 failed eth_blockNumber, eth_getBlockByNumber, eth_chainId: it could not be reached/)
  expect(exit.stderr).not.toContain('secret')
})
