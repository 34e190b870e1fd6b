import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createNode } from '../../src/core/node.ts'
import { FILE_HEADER_BYTES } from '../../src/cli/stateFile/format.ts'
import { FileStore } from '../../src/cli/stateFile/fileStore.ts'
import { DEV } from '../support/chain.ts'
import { call, expectNoStackTrace, runCli, startCli, tempDir } from '../support/cli.ts'

describe('startup', () => {
  test('prints the URL, the chain, each account with its balance and private key, like anvil', async () => {
    const cli = await startCli(['--accounts', '2', '--balance', '12.5', '--chain-id', '270', '--mining', 'manual'])
    const banner = cli.stdout()
    expect(banner).toContain('Chain ID:   270 (0x10e)')
    expect(banner).toContain('Mining:     manual (transactions wait in the pool)')
    expect(banner).toContain('State:      in memory')
    expect(banner).toContain(
      [
        'Available Accounts',
        '==================',
        '(0) 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 (12.5 ETH)',
        '(1) 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 (12.5 ETH)',
        '',
        'Private Keys',
        '==================',
        `(0) ${DEV[0].key}`,
        `(1) ${DEV[1].key}`,
      ].join('\n'),
    )
    expect(banner).toContain('Mnemonic:        test test test test test test test test test test test junk')
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    // The flags reached the node.
    expect(await call(cli.url, 'eth_chainId')).toBe('0x10e')
    expect(await call(cli.url, 'eth_getBalance', DEV[1].address, 'latest')).toBe(`0x${(125n * 10n ** 17n).toString(16)}`)
    expect(await call(cli.url, 'eth_accounts')).toHaveLength(2)
    expect(await call(cli.url, 'eth_mining')).toBe(false)
  })

  test('a port in use: one clear line, exit 1, and no state file created', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address() as AddressInfo
    try {
      const state = join(await tempDir(), 'chain.state')
      const exit = await runCli(['--port', String(port), '--state', state])
      expect(exit.code).toBe(1)
      expect(exit.stderr).toBe(
        `pagenode: port ${port} on 127.0.0.1 is already in use (another pagenode or anvil-zksync?): stop it or pick another with --port\n`,
      )
      await expect(stat(state)).rejects.toThrow(/ENOENT/)
    } finally {
      blocker.close()
    }
  })
})

describe('a state file that cannot be used', () => {
  test('a state file of another chain id: a clear line naming the flag, exit 1', async () => {
    const state = join(await tempDir(), 'chain.state')
    const node = await createNode({ chainId: 270, store: await FileStore.open(state) })
    await node.close()

    // --port 0: the port is bound before the state file is read, and 8011 may be taken here.
    const exit = await runCli(['--port', '0', '--state', state])
    expect(exit.code).toBe(1)
    expect(exit.stderr).toBe(`pagenode: state file ${state} holds chain id 270, not 260: start with --chain-id 270, or use another --state file\n`)
    // And with the right flag it opens.
    const cli = await startCli(['--state', state, '--chain-id', '270'])
    expect(await call(cli.url, 'eth_chainId')).toBe('0x10e')
  })

  test('corrupt, foreign or unreachable state files: a clear line, exit 1, no stack trace', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'foreign.json'), JSON.stringify({ block: {}, accounts: {} }))
    const damagedPath = join(dir, 'damaged.state')
    await (await createNode({ store: await FileStore.open(damagedPath) })).close()
    const damaged = await readFile(damagedPath)
    damaged[FILE_HEADER_BYTES + 100] ^= 0xff
    // A flipped byte in a record is damage wherever it is (here, with records after it too).
    await writeFile(damagedPath, Buffer.concat([damaged, damaged.subarray(FILE_HEADER_BYTES)]))
    await mkdir(join(dir, 'a-directory'))
    const missing = join(dir, 'no', 'such', 'dir', 'chain.state')

    const cases: [string, string][] = [
      [join(dir, 'foreign.json'), `cannot use state file ${join(dir, 'foreign.json')}: not a pagenode state file`],
      [
        damagedPath,
        `cannot use state file ${damagedPath}: damaged: a record fails its checksum at byte ${FILE_HEADER_BYTES}; start with --state-recover to keep the 0 intact records before it (the file is copied aside first)`,
      ],
      [join(dir, 'a-directory'), `cannot use state file ${join(dir, 'a-directory')}: it is a directory`],
      [missing, `cannot create state file ${missing}: the directory ${join(dir, 'no', 'such', 'dir')} does not exist`],
    ]
    // Concurrent runs each bind a port before reading the state file: a free one each.
    const exits = await Promise.all(cases.map(([path]) => runCli(['--port', '0', '--state', path])))
    exits.forEach((exit, i) => {
      expect(exit.code).toBe(1)
      expect(exit.stderr).toBe(`pagenode: ${cases[i][1]}\n`)
      expectNoStackTrace(exit.stderr)
    })
  })
})
