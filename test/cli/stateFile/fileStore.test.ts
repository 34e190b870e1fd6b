import { spawnSync } from 'node:child_process'
import { spawn } from 'node:child_process'
import { appendFile, copyFile, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseEther } from 'ethers'
import { afterEach, describe, expect, test } from 'vitest'
import { createNode, type Node } from '../../../src/core/node.ts'
import { closeMark, COMMIT_MARK, encodeRecord, FILE_HEADER_BYTES, fileHeader, FORMAT_VERSION, MAGIC, scanStateFile } from '../../../src/cli/stateFile/format.ts'
import { FileStore } from '../../../src/cli/stateFile/fileStore.ts'
import { DEV, deploy, devWallet, rpc } from '../../support/chain.ts'
import { tempDir } from '../../support/cli.ts'

const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((thing) => thing.close().catch(() => {})))
})

async function store(path: string): Promise<FileStore> {
  const opened = await FileStore.open(path)
  open.push(opened)
  return opened
}

async function nodeOn(path: string): Promise<{ node: Node; store: FileStore }> {
  const fileStore = await store(path)
  const node = await createNode({ store: fileStore })
  open.push(node)
  return { node, store: fileStore }
}

/** A lock as a pagenode killed while using `path` leaves it: its process is gone. */
async function leftByCrash(path: string): Promise<void> {
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  await writeFile(`${path}.lock`, `${gone.stdout}\n`)
}

/** A state file holding genesis and two transfers (blocks 1 and 2), left as a crash would. */
async function chainWithTwoTransfers(path: string) {
  const { node } = await nodeOn(path)
  const wallet = devWallet(node)
  for (const value of [1n, 2n]) await (await wallet.sendTransaction({ to: DEV[1].address, value })).wait()
  return node
}

describe('FileStore', () => {
  test('a node on a state file, closed and opened again, finds the same chain and carries on', async () => {
    const path = join(await tempDir(), 'chain.state')
    const { node: first, store: firstStore } = await nodeOn(path)
    expect(firstStore.opened).toMatchObject({ created: true, tornBytes: 0 })
    const wallet = devWallet(first)
    const token = await deploy(wallet, 'Token', 'Kept', 'K', 1000n)
    const tokenAddress = (await token.getAddress()).toLowerCase()
    const sent = await (await wallet.sendTransaction({ to: DEV[1].address, value: parseEther('1.5') })).wait()
    const before = rpc(first)
    const head = await before<{ number: string; hash: string }>('eth_getBlockByNumber', 'latest', true)
    const receipt = await before('eth_getTransactionReceipt', sent!.hash)
    const logs = await before('eth_getLogs', { fromBlock: '0x0', address: tokenAddress })
    const balances = await Promise.all(DEV.map(({ address }) => before('eth_getBalance', address, 'latest')))
    await first.close()

    // Closing compacted the log (genesis, deploy, transfer) into one snapshot record.
    const compacted = scanStateFile(await readFile(path))
    expect(compacted.commits).toHaveLength(1)
    expect(compacted.commits[0].meta.headNumber).toBe(BigInt(head.number))

    const { node: second, store: secondStore } = await nodeOn(path)
    expect(secondStore.opened).toMatchObject({ created: false, tornBytes: 0 })
    const after = rpc(second)
    expect(await after('eth_getBlockByNumber', 'latest', true)).toEqual(head)
    expect(await after('eth_getTransactionReceipt', sent!.hash)).toEqual(receipt)
    expect(await after('eth_getLogs', { fromBlock: '0x0', address: tokenAddress })).toEqual(logs)
    expect(await Promise.all(DEV.map(({ address }) => after('eth_getBalance', address, 'latest')))).toEqual(balances)

    const next = await (await devWallet(second).sendTransaction({ to: DEV[2].address, value: 1n })).wait()
    expect(next!.blockNumber).toBe(Number(head.number) + 1)
    expect((await after<{ parentHash: string }>('eth_getBlockByNumber', 'latest', false)).parentHash).toBe(head.hash)
  })

  test('every acknowledged block is in the file before close: a copy taken then is the whole chain', async () => {
    const dir = await tempDir()
    const node = await chainWithTwoTransfers(join(dir, 'chain.state'))
    const head = await rpc(node)('eth_getBlockByNumber', 'latest', false)
    // As a crash would leave it: no close, no compaction; one record per commit.
    await copyFile(join(dir, 'chain.state'), join(dir, 'crashed.state'))
    await leftByCrash(join(dir, 'crashed.state'))
    expect(scanStateFile(await readFile(join(dir, 'crashed.state'))).commits).toHaveLength(3)

    const { node: restored } = await nodeOn(join(dir, 'crashed.state'))
    expect(await rpc(restored)('eth_getBlockByNumber', 'latest', false)).toEqual(head)
  })

  test('a torn last record (an append a crash cut short) is dropped, and appends continue cleanly', async () => {
    const dir = await tempDir()
    const node = await chainWithTwoTransfers(join(dir, 'chain.state'))
    const block1 = await rpc(node)<{ hash: string }>('eth_getBlockByNumber', '0x1', false)
    const crashed = join(dir, 'crashed.state')
    await copyFile(join(dir, 'chain.state'), crashed)
    await leftByCrash(crashed)
    const full = (await stat(crashed)).size
    await truncate(crashed, full - 7)

    const { node: restored, store: restoredStore } = await nodeOn(crashed)
    const lastRecord = encodeRecord(scanStateFile(await readFile(join(dir, 'chain.state'))).commits[2]).length
    expect(restoredStore.opened).toMatchObject({ created: false, tornBytes: lastRecord - 7 })
    expect((await stat(crashed)).size).toBe(full - lastRecord)
    const call = rpc(restored)
    expect(await call('eth_blockNumber')).toBe('0x1')
    expect(await call('eth_getBlockByNumber', 'latest', false)).toEqual(block1)

    // The next block lands right after the last intact record, so the file reads back whole.
    await (await devWallet(restored).sendTransaction({ to: DEV[2].address, value: 5n })).wait()
    expect(scanStateFile(await readFile(crashed))).toMatchObject({ tornBytes: 0 })
    expect(scanStateFile(await readFile(crashed)).commits.at(-1)!.meta.headNumber).toBe(2n)
  })

  test('a tail of zeros (a file extended before its data landed) is a torn write too', async () => {
    const path = join(await tempDir(), 'chain.state')
    await chainWithTwoTransfers(path)
    const copy = `${path}.copy`
    await copyFile(path, copy)
    await leftByCrash(copy)
    await appendFile(copy, new Uint8Array(4096))
    expect((await store(copy)).opened.tornBytes).toBe(4096)
  })

  test('damage before the end is refused with where it is, never skipped', async () => {
    const path = join(await tempDir(), 'chain.state')
    await chainWithTwoTransfers(path)
    const bytes = await readFile(path)

    const payloadFlipped = Uint8Array.from(bytes)
    payloadFlipped[FILE_HEADER_BYTES + 40] ^= 0xff
    await writeFile(`${path}.payload`, payloadFlipped)
    await expect(FileStore.open(`${path}.payload`)).rejects.toThrow(`damaged: a record fails its checksum at byte ${FILE_HEADER_BYTES}`)

    // A damaged length would otherwise look like a record running past the end (a torn tail).
    const lengthFlipped = Uint8Array.from(bytes)
    lengthFlipped[FILE_HEADER_BYTES] ^= 0x01
    await writeFile(`${path}.length`, lengthFlipped)
    await expect(FileStore.open(`${path}.length`)).rejects.toThrow(`damaged: a record header fails its checksum at byte ${FILE_HEADER_BYTES}`)
  })

  test('a file that is not a state file, or is from a newer format, is refused; an empty one starts a chain', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'anvil.json'), '{"block":{"number":"0x0"},"accounts":{}}')
    await expect(FileStore.open(join(dir, 'anvil.json'))).rejects.toThrow('not a pagenode state file')

    const newer = fileHeader()
    newer[MAGIC.length] = 99
    await writeFile(join(dir, 'newer.state'), newer)
    await expect(FileStore.open(join(dir, 'newer.state'))).rejects.toThrow(
      `written by a newer pagenode (state format 99; this version reads ${FORMAT_VERSION}): upgrade pagenode or use another file`,
    )

    await writeFile(join(dir, 'empty.state'), '')
    const { node } = await nodeOn(join(dir, 'empty.state'))
    expect(await rpc(node)('eth_blockNumber')).toBe('0x0')
  })

  test('one pagenode per state file: a second is refused while the first runs; a dead one’s lock is taken over', async () => {
    const dir = await tempDir()
    const path = join(dir, 'chain.state')
    const first = await store(path)
    await expect(FileStore.open(path)).rejects.toThrow(
      `in use by another pagenode (process ${process.pid}); stop it first, or delete ${path}.lock if no pagenode is running`,
    )
    await first.close()
    await (await store(path)).close()

    // A lock left behind by a process that is gone (kill -9).
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
    await writeFile(`${path}.lock`, `${gone.stdout}\n`)
    await (await store(path)).close()
    await expect(stat(`${path}.lock`)).rejects.toThrow(/ENOENT/)
  })

  test('an append that fails (a full disk) is cut back off: not acknowledged, and the file stays whole', async () => {
    const path = join(await tempDir(), 'chain.state')
    const { node, store: fileStore } = await nodeOn(path)
    const wallet = devWallet(node)
    await (await wallet.sendTransaction({ to: DEV[1].address, value: 1n })).wait()
    const sizeBefore = (await stat(path)).size

    // A full disk cannot be arranged here: the file handle's flush fails once instead, after
    // the record's bytes were written.
    const handle = (fileStore as unknown as { handle: { datasync(): Promise<void> } }).handle
    const datasync = handle.datasync.bind(handle)
    handle.datasync = async () => {
      handle.datasync = datasync
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    }
    await expect(wallet.sendTransaction({ to: DEV[1].address, value: 2n })).rejects.toThrow(/could not save to .*ENOSPC/)
    expect((await stat(path)).size).toBe(sizeBefore)
    expect(await rpc(node)('eth_blockNumber')).toBe('0x1')

    // The next change is written after the last good record, and the file reads back whole.
    await (await wallet.sendTransaction({ to: DEV[1].address, value: 3n })).wait()
    const scanned = scanStateFile(await readFile(path))
    expect(scanned.tornBytes).toBe(0)
    expect(scanned.commits.map((commit) => commit.meta.headNumber)).toEqual([0n, 1n, 2n])
  })

  test('records keep every field: an absent dropAbove differs from dropAbove 0, keys and bytes survive', () => {
    const meta = { schemaVersion: 1, chainId: 260, genesisHash: '0xabc', headNumber: 0n }
    const commits = [
      { meta, nodes: new Map([['k1', Uint8Array.of(1, 2)]]), blocks: [{ number: 0n, bytes: Uint8Array.of(9) }] },
      { meta: { ...meta, headNumber: 7n }, nodes: new Map(), blocks: [], dropAbove: 0n },
    ]
    const file = new Uint8Array([...fileHeader(), ...encodeRecord(commits[0]), ...encodeRecord(commits[1])])
    const scanned = scanStateFile(file)
    expect(scanned).toMatchObject({ validBytes: file.length, tornBytes: 0 })
    expect(scanned.commits).toEqual([{ ...commits[0], dropAbove: undefined }, commits[1]])
  })
})

describe('a damaged state file', () => {
  /** A file of genesis and two transfers, closed cleanly without compaction: three records, then the close mark. */
  async function closedWithThreeRecords(): Promise<{ path: string; records: number[] }> {
    const dir = await tempDir()
    await chainWithTwoTransfers(join(dir, 'live.state'))
    const bytes = await readFile(join(dir, 'live.state'))
    const path = join(dir, 'chain.state')
    await writeFile(path, Buffer.concat([bytes, closeMark()]))
    const { commits } = scanStateFile(bytes)
    let offset = FILE_HEADER_BYTES
    const records = commits.map((commit) => (offset += encodeRecord(commit).length))
    return { path, records: [FILE_HEADER_BYTES, ...records] }
  }

  test('cut short inside a record, with no crash to explain it, is refused; --state-recover keeps the records before it and the original', async () => {
    const { path, records } = await closedWithThreeRecords()
    const cut = records[2] + 30 // inside the third record
    await truncate(path, cut)
    const cutBytes = await readFile(path)
    await expect(FileStore.open(path)).rejects.toThrow(
      `damaged: cut short inside a record at byte ${records[2]}, and no pagenode crashed while using it (a crash leaves its lock); start with --state-recover to keep the 2 intact records before it (the file is copied aside first)`,
    )
    expect(await readFile(path)).toEqual(cutBytes) // refused: left as it was
    await expect(stat(`${path}.lock`)).rejects.toThrow(/ENOENT/)

    const recovered = await FileStore.open(path, { recover: true })
    open.push(recovered)
    expect(recovered.opened.recovered).toMatchObject({ records: 2 })
    expect(await readFile(recovered.opened.recovered!.copy)).toEqual(cutBytes)
    const node = await createNode({ store: recovered })
    open.push(node)
    expect(await rpc(node)('eth_blockNumber')).toBe('0x1')
  })

  test('cut short at a record boundary (the close mark and a record gone) is refused too', async () => {
    const { path, records } = await closedWithThreeRecords()
    const whole = await readFile(path)
    // Whole, with its close mark, it opens (and a clean close marks it again).
    await (await FileStore.open(path)).close()
    expect(await readFile(path)).toEqual(whole)
    await truncate(path, records[2])
    await expect(FileStore.open(path)).rejects.toThrow(`damaged: cut short at byte ${records[2]} (it lacks the mark a clean close leaves`)
  })

  test('a flipped byte in the last complete record is damage, not a torn write, even after a crash', async () => {
    const dir = await tempDir()
    await chainWithTwoTransfers(join(dir, 'live.state'))
    const bytes = Uint8Array.from(await readFile(join(dir, 'live.state')))
    const path = join(dir, 'crashed.state')
    const lastStart = bytes.length - encodeRecord(scanStateFile(bytes).commits[2]).length
    bytes[lastStart + 20] ^= 0x01
    await writeFile(path, bytes)
    await leftByCrash(path)
    await expect(FileStore.open(path)).rejects.toThrow(`damaged: a record fails its checksum at byte ${lastStart}; start with --state-recover`)
    // Its commit mark flipped instead: damage too.
    bytes[lastStart + 20] ^= 0x01
    bytes[bytes.length - 1] ^= 0x01
    await writeFile(path, bytes)
    await expect(FileStore.open(path)).rejects.toThrow(`damaged: a record lacks its commit mark at byte ${lastStart}`)
    expect(COMMIT_MARK.length).toBe(4)
  })

  test('a .tmp left by a kill during compaction is removed at start', async () => {
    const path = join(await tempDir(), 'chain.state')
    await (await store(path)).close()
    await writeFile(`${path}.tmp`, new Uint8Array(1000))
    const reopened = await store(path)
    expect(reopened.opened.staleTemp).toBe(true)
    await expect(stat(`${path}.tmp`)).rejects.toThrow(/ENOENT/)
  })

  test('a lock whose pid now belongs to another live process (not a pagenode) is taken over', async () => {
    const path = join(await tempDir(), 'chain.state')
    const other = spawn('sleep', ['30'])
    try {
      // An older pagenode's lock (pid only): the live process is not a pagenode.
      await writeFile(`${path}.lock`, `${other.pid}\n`)
      await (await store(path)).close()
      // This version's (pid and start time): the live process started at another time.
      await writeFile(`${path}.lock`, `${other.pid} 1\n`)
      await (await store(path)).close()
    } finally {
      other.kill('SIGKILL')
    }
  })

  test('a file of the previous format (1) is read, and rewritten in this one', async () => {
    const dir = await tempDir()
    await chainWithTwoTransfers(join(dir, 'live.state'))
    const { commits } = scanStateFile(await readFile(join(dir, 'live.state')))
    const header = fileHeader()
    header[MAGIC.length] = 1
    const path = join(dir, 'v1.state')
    await writeFile(path, Buffer.concat([header, ...commits.map((commit) => encodeRecord(commit).subarray(0, -COMMIT_MARK.length))]))
    const { node } = await nodeOn(path)
    expect(await rpc(node)('eth_blockNumber')).toBe('0x2')
    expect(scanStateFile(await readFile(path)).version).toBe(FORMAT_VERSION)
    expect((await readdir(dir)).sort()).toEqual(['live.state', 'live.state.lock', 'v1.state', 'v1.state.lock'])
  })
})

