import { readFile, stat } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { JsonRpcProvider, Network, parseEther, Wallet } from 'ethers'
import { describe, expect, test } from 'vitest'
import { scanStateFile } from '../../src/cli/stateFile/format.ts'
import { DEV } from '../support/chain.ts'
import { call, startCli, tempDir } from '../support/cli.ts'

/** A transfer from dev account 0 through an ethers Wallet over HTTP, mined (automine). */
async function transfer(url: string, value: bigint) {
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: Network.from(260), pollingInterval: 20, cacheTimeout: -1 })
  const receipt = await (await new Wallet(DEV[0].key, provider).sendTransaction({ to: DEV[1].address, value })).wait()
  provider.destroy()
  return receipt!
}

describe('--state', () => {
  test('SIGINT saves and exits 0; a restart finds the chain (head, balances, receipts) and continues', async () => {
    const state = join(await tempDir(), 'chain.state')
    const first = await startCli(['--state', state])
    expect(first.stdout()).toContain(`State:      ${state} (new chain)`)
    const sent = await transfer(first.url, parseEther('2'))
    const head = await call<{ number: string; hash: string }>(first.url, 'eth_getBlockByNumber', 'latest', true)
    const receipt = await call(first.url, 'eth_getTransactionReceipt', sent.hash)
    const balances = await Promise.all(DEV.map(({ address }) => call(first.url, 'eth_getBalance', address, 'latest')))

    const exit = await first.stop('SIGINT')
    expect(exit).toMatchObject({ code: 0, signal: null, stderr: '' })
    expect(exit.stdout).toContain(`SIGINT: shutting down…\nState saved to ${state}\n`)
    // Compacted into a snapshot, lock released.
    expect(scanStateFile(await readFile(state)).commits).toHaveLength(1)
    await expect(stat(`${state}.lock`)).rejects.toThrow(/ENOENT/)

    const second = await startCli(['--state', state])
    expect(second.stdout()).toContain(`State:      ${state} (restored, head at block ${Number(head.number)})`)
    expect(await call(second.url, 'eth_getBlockByNumber', 'latest', true)).toEqual(head)
    expect(await call(second.url, 'eth_getTransactionReceipt', sent.hash)).toEqual(receipt)
    expect(await Promise.all(DEV.map(({ address }) => call(second.url, 'eth_getBalance', address, 'latest')))).toEqual(balances)

    const next = await transfer(second.url, 1n)
    expect(next.blockNumber).toBe(Number(head.number) + 1)
    expect(await call(second.url, 'eth_getTransactionByHash', next.hash)).toMatchObject({ nonce: '0x1' })
    expect((await call<{ parentHash: string }>(second.url, 'eth_getBlockByNumber', 'latest', false)).parentHash).toBe(head.hash)
  })

  test('kill -9 loses nothing acknowledged: the log is replayed and the stale lock taken over', async () => {
    const state = join(await tempDir(), 'chain.state')
    const first = await startCli(['--state', state])
    const sent = await transfer(first.url, 7n)
    const exit = await first.stop('SIGKILL')
    expect(exit.signal).toBe('SIGKILL')
    await stat(`${state}.lock`) // left behind

    const second = await startCli(['--state', state])
    expect(await call(second.url, 'eth_getTransactionReceipt', sent.hash)).toMatchObject({ status: '0x1', blockNumber: '0x1' })
    expect(await call(second.url, 'eth_blockNumber')).toBe('0x1')
  })

  test('SIGTERM during a request: the request is answered, then the node stops and saves', async () => {
    const state = join(await tempDir(), 'chain.state')
    const cli = await startCli(['--state', state])
    const { hostname, port } = new URL(cli.url)
    const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'eth_chainId', params: [] })
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest({ hostname, port, method: 'POST', path: '/', headers: { 'Content-Type': 'application/json', 'Content-Length': body.length } }, (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, text }))
      })
      req.on('error', reject)
      // Half the body now, the rest after the signal: the request is in flight when it arrives.
      req.write(body.slice(0, 10))
      setTimeout(() => {
        cli.child.kill('SIGTERM')
        setTimeout(() => req.end(body.slice(10)), 300)
      }, 300)
    })
    expect(await answer).toEqual({ status: 200, text: '{"jsonrpc":"2.0","id":9,"result":"0x104"}' })
    expect((await cli.exited).code).toBe(0)
  })

})
