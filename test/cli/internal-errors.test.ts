/**
 * An internal error (a bug in pagenode) behind the CLI: the caller gets -32603 saying so, and the
 * CLI prints it on stderr, as one line or, with --verbose, with its params and the stack of every
 * cause. The bug is provoked through a state file whose trie nodes (all but the state root's) are
 * garbage, checksummed as if valid: the node starts, and the first read of an account throws from
 * deep inside the trie, as no typed error of the node.
 */
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { FileStore } from '../../src/cli/stateFile/fileStore.ts'
import { createNode, MemoryStore } from '../../src/core/index.ts'
import { DEV } from '../support/chain.ts'
import { expectNoStackTrace, post, startCli, tempDir } from '../support/cli.ts'

/** A state file for chain 260 whose trie nodes, except the genesis state root's, cannot be decoded. */
async function damagedStateFile(): Promise<string> {
  const memory = new MemoryStore()
  const node = await createNode({ store: memory })
  const genesis = (await node.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })) as { stateRoot: string }
  await node.close()
  const chain = (await memory.load())!
  const root = genesis.stateRoot.slice(2)
  const nodes = new Map<string, Uint8Array>()
  for await (const [key, value] of memory.nodes.entries()) nodes.set(key, key === root ? value : Uint8Array.of(0xc0))
  const path = join(await tempDir(), 'damaged.state')
  const file = await FileStore.open(path)
  await file.commit({ meta: chain.meta, nodes, blocks: chain.blocks.map((bytes, number) => ({ number: BigInt(number), bytes })) })
  await file.close()
  return path
}

const BUG = /^internal error in eth_getBalance \(a bug in pagenode: please report it\): /

async function provoke(verbose: boolean) {
  const state = await damagedStateFile()
  // No dev accounts: the banner would read their balances.
  const cli = await startCli(['--state', state, '--accounts', '0', ...(verbose ? ['--verbose'] : [])])
  const answer = await (await post(cli.url, { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [DEV[0].address, 'latest'] })).json()
  expect(answer).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: expect.stringMatching(BUG) } })
  // Still serving.
  expect(await (await post(cli.url, { jsonrpc: '2.0', id: 2, method: 'eth_chainId' })).json()).toMatchObject({ result: '0x104' })
  await expect.poll(() => cli.stderr()).toContain('pagenode: internal error in eth_getBalance')
  return { cli, message: answer.error.message as string }
}

describe('an internal error', () => {
  test('without --verbose: one line on stderr, no stack', async () => {
    const { cli, message } = await provoke(false)
    expect(cli.stderr()).toBe(`pagenode: ${message} (run with --verbose for its stack)\n`)
    expectNoStackTrace(cli.stderr())
  })

  test('with --verbose: the params, and the stack of the error and of its cause', async () => {
    const { cli, message } = await provoke(true)
    const stderr = cli.stderr()
    const lines = stderr.split('\n')
    expect(lines[0]).toBe(`pagenode: ${message}`)
    expect(lines[1]).toBe(`  params: ["${DEV[0].address}","latest"]`)
    expect(lines[2]).toBe(`  RpcError: ${message}`)
    // The cause: what the trie threw, with its own stack (frames in @ethereumjs/mpt).
    const cause = lines.findIndex((line) => line.startsWith('  caused by: '))
    expect(cause).toBeGreaterThan(2)
    expect(lines[cause]).toBe(`  caused by: ${message.replace(BUG, 'Error: ')}`)
    expect(lines[cause + 1]).toMatch(/^\s+at .+[(:]\d+/)
    expect(lines.slice(cause + 1).some((line) => line.includes('@ethereumjs/mpt'))).toBe(true)
    // The request log line on stdout still gives code and message. stdout is another pipe than
    // stderr: what was written to it may arrive after the stderr lines above.
    await expect.poll(() => cli.stdout()).toMatch(/eth_getBalance id=1 \d+\.\dms error -32603: internal error in eth_getBalance/)
  })
})
