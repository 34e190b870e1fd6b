import { mkdir, readdir, readFile, truncate } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { scanStateFile } from '../../src/cli/stateFile/format.ts'
import { signTransfer, txHash } from '../support/rawTx.ts'
import { call, post, runCli, startCli, tempDir } from '../support/cli.ts'

/**
 * kill -9 of `pagenode --state` loses nothing it acknowledged, whatever waits in the pool, and
 * the dev-node settings survive a restart (issue 19: 5 of 5 pooled transactions were lost in
 * each mining mode).
 */

type Pool = { pending: Record<string, Record<string, { hash: string }>>; queued: Record<string, Record<string, { hash: string }>> }
const pooled = (pool: Pool) => [...Object.values(pool.pending), ...Object.values(pool.queued)].flatMap((byNonce) => Object.values(byNonce).map((tx) => tx.hash))

describe('kill -9 with transactions in the pool', () => {
  test.each([
    // Automine: nonces 1..5 wait for nonce 0, each acknowledged once stored in the pool.
    ['automine, future nonces', ['--mining', 'auto'], [1, 2, 3, 4, 5]],
    ['interval mining', ['--mining', 'interval=3600000'], [0, 1, 2, 3, 4]],
    ['manual mining', ['--mining', 'manual'], [0, 1, 2, 3, 4]],
  ])('%s: a restart finds every acknowledged one in the pool, in order, and mines them', async (_, mining, nonces) => {
    const state = join(await tempDir(), 'chain.state')
    const first = await startCli(['--state', state, ...mining])
    const raws = await Promise.all(nonces.map((nonce) => signTransfer(nonce)))
    const hashes = []
    for (const raw of [...raws].reverse()) hashes.push(await call<string>(first.url, 'eth_sendRawTransaction', raw))
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL')

    // Restarted without --mining: the saved mode holds.
    const second = await startCli(['--state', state])
    expect(pooled(await call<Pool>(second.url, 'txpool_content')).sort()).toEqual([...hashes].sort())
    if (nonces[0] === 1) await call(second.url, 'eth_sendRawTransaction', await signTransfer(0))
    else await call(second.url, 'evm_mine')
    for (const hash of hashes) expect(await call(second.url, 'eth_getTransactionReceipt', hash)).toMatchObject({ status: '0x1' })
    // Mined in nonce order (the arrival order within one sender), the pool empty.
    const mined = await Promise.all(hashes.map((hash) => call<{ blockNumber: string; transactionIndex: string }>(second.url, 'eth_getTransactionReceipt', hash)))
    const order = mined.map((receipt) => BigInt(receipt.blockNumber) * 1000n + BigInt(receipt.transactionIndex))
    expect([...order].reverse()).toEqual([...order].sort((a, b) => (a < b ? -1 : 1)))
    expect(pooled(await call<Pool>(second.url, 'txpool_content'))).toEqual([])
    expect(txHash(raws[0])).toBe(hashes.at(-1))
  })

  test.each([
    ['--mining auto at the restart', ['--mining', 'manual'], ['--mining', 'auto']],
    ['automine stored before the kill', ['--mining', 'interval=3600000'], []],
  ])('a restart in automine (%s) mines the executable pooled transactions at start', async (how, before, after) => {
    const state = join(await tempDir(), 'chain.state')
    const first = await startCli(['--state', state, ...before])
    const hashes = []
    for (const nonce of [0, 1, 2]) hashes.push(await call<string>(first.url, 'eth_sendRawTransaction', await signTransfer(nonce)))
    if (after.length === 0) await call(first.url, 'evm_setAutomine', true)
    expect(await call(first.url, 'eth_blockNumber')).toBe('0x0')
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL')

    const second = await startCli(['--state', state, ...after])
    expect(second.stdout()).toContain('Mining:     automine')
    // Mined before the server answered its first request: one block each, in nonce order.
    expect(await call(second.url, 'eth_blockNumber')).toBe('0x3')
    for (const [i, hash] of hashes.entries()) {
      expect(await call(second.url, 'eth_getTransactionReceipt', hash), how).toMatchObject({ status: '0x1', blockNumber: `0x${i + 1}` })
    }
    expect(pooled(await call<Pool>(second.url, 'txpool_content'))).toEqual([])
  })

  test('manual mining keeps its pool across a clean stop (Ctrl-C) too', async () => {
    const state = join(await tempDir(), 'chain.state')
    const first = await startCli(['--state', state, '--mining', 'manual'])
    const hash = await call<string>(first.url, 'eth_sendRawTransaction', await signTransfer(0))
    expect((await first.stop('SIGINT')).code).toBe(0)
    const second = await startCli(['--state', state])
    expect(second.stdout()).toContain('Mining:     manual (transactions wait in the pool)')
    expect(pooled(await call<Pool>(second.url, 'txpool_content'))).toEqual([hash])
  })
})

describe('settings survive a restart', () => {
  test('time offset, impersonations, interval mining and snapshots; a --mining given at start wins', async () => {
    const state = join(await tempDir(), 'chain.state')
    const first = await startCli(['--state', state])
    const snapshot = await call<string>(first.url, 'evm_snapshot')
    await call(first.url, 'evm_mine')
    await call(first.url, 'evm_increaseTime', 86_400)
    const impersonated = '0x00000000000000000000000000000000000000a1'
    await call(first.url, 'anvil_impersonateAccount', impersonated)
    await call(first.url, 'evm_setIntervalMining', 3600)
    await first.stop('SIGKILL')

    const second = await startCli(['--state', state])
    expect(second.stdout()).toContain('Mining:     a block at the interval saved in the state file')
    expect(await call(second.url, 'eth_mining')).toBe(true)
    expect(await call(second.url, 'anvil_getAutomine')).toBe(false)
    await call(second.url, 'evm_mine')
    const { timestamp } = await call<{ timestamp: string }>(second.url, 'eth_getBlockByNumber', 'latest', false)
    expect(Number(timestamp)).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 86_400 - 5)
    // eth_sendTransaction from the impersonated account is accepted without its key.
    await call(second.url, 'anvil_setBalance', impersonated, '0xde0b6b3a7640000')
    await call(second.url, 'eth_sendTransaction', { from: impersonated, to: impersonated, value: '0x1' })
    expect(await call(second.url, 'evm_revert', snapshot)).toBe(true)
    expect(await call(second.url, 'eth_blockNumber')).toBe('0x0')
    await second.stop('SIGKILL')

    const third = await startCli(['--state', state, '--mining', 'auto'])
    expect(third.stdout()).toContain('Mining:     automine')
    expect(await call(third.url, 'anvil_getAutomine')).toBe(true)
  })
})

describe('a damaged state file', () => {
  test('is refused with what to do; --state-recover starts from the intact records and keeps the original', async () => {
    const dir = await tempDir()
    const state = join(dir, 'chain.state')
    const first = await startCli(['--state', state])
    await call(first.url, 'evm_mine')
    await call(first.url, 'evm_mine')
    await first.stop('SIGINT')
    // Cut in the middle after a clean close: no crash explains it.
    const size = (await readFile(state)).length
    await truncate(state, Math.floor(size / 2))

    const refused = await runCli(['--port', '0', '--state', state])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/^pagenode: cannot use state file .*chain\.state: damaged: cut short inside a record at byte 16, .*start with --state-recover/)

    const recovered = await startCli(['--state', state, '--state-recover'])
    expect(recovered.stdout()).toMatch(/Note: the state file was damaged \(damaged: cut short inside a record at byte 16, .*\); started from the 0 intact records before it\. The original is kept as .*chain\.state\.damaged-/)
    expect((await readdir(dir)).filter((name) => name.startsWith('chain.state.damaged-'))).toHaveLength(1)
    expect(await call(recovered.url, 'eth_blockNumber')).toBe('0x0')
    expect(scanStateFile(await readFile(state)).damage).toBeUndefined()
  })

  test('--state-recover without --state is a usage error', async () => {
    const exit = await runCli(['--state-recover'])
    expect(exit.code).not.toBe(0)
    expect(exit.stderr).toContain('--state-recover needs --state <file>')
  })

  test('an error writing the state file tells an HTTP client no absolute path', async () => {
    const dir = await tempDir()
    const state = join(dir, 'chain.state')
    const cli = await startCli(['--state', state])
    // A directory where the rewrite's temporary file goes: anvil_reset's rewrite fails.
    await mkdir(`${state}.tmp`)
    const response = await post(cli.url, { jsonrpc: '2.0', id: 1, method: 'anvil_reset', params: [] })
    const { error } = (await response.json()) as { error: { code: number; message: string } }
    expect(error.code).toBe(-32000)
    expect(error.message).toContain('chain.state')
    expect(error.message).not.toContain(dir)
  })
})
