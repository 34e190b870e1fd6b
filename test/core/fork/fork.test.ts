import { AbiCoder, Contract, Interface, keccak256, type InterfaceAbi } from 'ethers'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { UpstreamError } from '../../../src/core/errors.ts'
import { MemoryStore } from '../../../src/core/store/memoryStore.ts'
import { artifacts, DEV, devWallet, rpc, startNode } from '../../support/chain.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { askUpstream, SEED_SENT, startForkUpstream, TOKEN_SUPPLY, UPSTREAM_CHAIN_ID, type ForkUpstream } from '../../support/forkUpstream.ts'
import type { Node } from '../../../src/core/node.ts'

const token = new Interface(artifacts.Token.abi as InterfaceAbi)
let upstream: ForkUpstream

beforeAll(async () => {
  upstream = await startForkUpstream()
}, 60_000)
afterAll(() => upstream.close())
beforeEach(() => {
  upstream.down = false
  upstream.resetCounts()
})

async function balanceOf(node: Node, who: string, block = 'latest'): Promise<bigint> {
  const data = token.encodeFunctionData('balanceOf', [who])
  return BigInt(await rpc(node)<string>('eth_call', { to: upstream.token, data }, block))
}

async function transfer(node: Node, from: number, to: string, amount: bigint) {
  const contract = new Contract(upstream.token, artifacts.Token.abi as InterfaceAbi, devWallet(node, from))
  const sent = await contract.getFunction('transfer')(to, amount)
  return sent.wait()
}

describe('a fork of a live chain', () => {
  it('takes the upstream chain id and pins its head as the fork block', async () => {
    const node = await startNode({ fork: { url: upstream.url } })
    const forkBlock = await askUpstream<{ hash: string; timestamp: string; l1BatchNumber: string; baseFeePerGas: string }>(upstream, 'eth_getBlockByNumber', [
      `0x${upstream.seededBlock.toString(16)}`,
      false,
    ])
    expect(node.fork!.point).toEqual({
      url: upstream.url,
      blockNumber: upstream.seededBlock,
      chainId: UPSTREAM_CHAIN_ID,
      blockHash: forkBlock.hash,
      timestamp: BigInt(forkBlock.timestamp),
      baseFee: BigInt(forkBlock.baseFeePerGas),
      l1Batch: BigInt(forkBlock.l1BatchNumber),
    })
    expect(await rpc(node)('eth_chainId')).toBe(`0x${UPSTREAM_CHAIN_ID.toString(16)}`)
  })

  it('reads forked state lazily, once: a first balanceOf asks the upstream, the same call again does not', async () => {
    const node = await startNode({ fork: { url: upstream.url } })
    upstream.resetCounts()
    expect(await balanceOf(node, DEV[1].address)).toBe(SEED_SENT)
    // The caller's and the Token's accounts and code in one batch, then the slot.
    expect(upstream.requests).toBe(2)
    expect(upstream.calls.sort()).toEqual(['eth_getCode', 'eth_getCode', 'eth_getProof', 'eth_getProof', 'eth_getStorageAt'])
    expect(await balanceOf(node, DEV[0].address)).toBe(TOKEN_SUPPLY - SEED_SENT)
    const requests = upstream.requests
    expect(requests).toBe(3)
    expect(await balanceOf(node, DEV[1].address)).toBe(SEED_SENT)
    expect(await rpc(node)('eth_getCode', upstream.token, 'latest')).toMatch(/^0x60/)
    expect(upstream.requests).toBe(requests)
  })

  it('shares one fetch between concurrent reads of the same slot, and batches what one task asks', async () => {
    const node = await startNode({ fork: { url: upstream.url } })
    upstream.resetCounts()
    const [a, b] = await Promise.all([balanceOf(node, DEV[2].address), balanceOf(node, DEV[2].address)])
    expect([a, b]).toEqual([0n, 0n])
    expect(upstream.calls.filter((method) => method === 'eth_getStorageAt')).toHaveLength(1)
    // The account's proof and code came in one POST.
    expect(upstream.requests).toBeLessThan(upstream.calls.length)
  })

  it('funds the dev accounts on top of the forked state, keeping their upstream nonces', async () => {
    const upstreamNonce = BigInt(await rpc(await startNode())('eth_getTransactionCount', DEV[0].address, 'latest'))
    const node = await startNode({ fork: { url: upstream.url } })
    // The seeding sent two transactions from dev account 0 upstream.
    expect(BigInt(await rpc(node)<string>('eth_getTransactionCount', DEV[0].address, 'latest'))).toBe(upstreamNonce + 2n)
    expect(BigInt(await rpc(node)<string>('eth_getBalance', DEV[0].address, 'latest'))).toBe(10_000n * 10n ** 18n)
  })

  it('runs a forked ERC-20 transfer with ethers, leaving the upstream untouched', async () => {
    const node = await startNode({ fork: { url: upstream.url } })
    const receipt = await transfer(node, 1, DEV[2].address, 34n)
    expect(receipt.status).toBe(1)
    expect(await balanceOf(node, DEV[1].address)).toBe(SEED_SENT - 34n)
    expect(await balanceOf(node, DEV[2].address)).toBe(34n)
    const upstreamBalance = BigInt(await askUpstream<string>(upstream, 'eth_call', [{ to: upstream.token, data: token.encodeFunctionData('balanceOf', [DEV[2].address]) }, 'latest']))
    expect(upstreamBalance).toBe(0n)
  })

  it('keeps a forked slot written to zero at zero (not read from the upstream again), also after a restart', async () => {
    const store = new MemoryStore()
    const node = await startNode({ fork: { url: upstream.url }, store })
    await transfer(node, 1, DEV[2].address, SEED_SENT)
    expect(await balanceOf(node, DEV[1].address)).toBe(0n)
    expect(await rpc(node)('eth_getStorageAt', upstream.token, balanceSlot(DEV[1].address), 'latest')).toBe(`0x${'0'.repeat(64)}`)
    await node.close()
    const again = await startNode({ store })
    expect(await balanceOf(again, DEV[1].address)).toBe(0n)
    expect(await balanceOf(again, DEV[2].address)).toBe(SEED_SENT)
  })

  it('continues from the same store with the upstream gone, for everything it touched', async () => {
    const store = new MemoryStore()
    const node = await startNode({ fork: { url: upstream.url, retries: 0 }, store })
    expect(await balanceOf(node, DEV[1].address)).toBe(SEED_SENT)
    await transfer(node, 1, DEV[2].address, 5n)
    await node.close()

    upstream.down = true
    upstream.resetCounts()
    const offline = await startNode({ store })
    expect(offline.fork!.point.blockNumber).toBe(upstream.seededBlock)
    expect(await rpc(offline)('eth_chainId')).toBe(`0x${UPSTREAM_CHAIN_ID.toString(16)}`)
    expect(await balanceOf(offline, DEV[1].address)).toBe(SEED_SENT - 5n)
    expect(await balanceOf(offline, DEV[2].address)).toBe(5n)
    await transfer(offline, 1, DEV[2].address, 6n)
    expect(await balanceOf(offline, DEV[2].address)).toBe(11n)
    // Never touched: the upstream is needed, and its failure is the answer.
    const error = await expectRpcError(
      rpc(offline)('eth_getBalance', '0x00000000000000000000000000000000000000aa', 'latest'),
      -32603,
      /^the fork's upstream 127\.0\.0\.1:\d+ failed eth_get(Code|Proof), eth_get(Code|Proof): it could not be reached \(fetch failed: .*\) \(4 attempts\)$/,
    )
    expect(error).toBeInstanceOf(UpstreamError)
    expect(upstream.requests).toBe(0)
  })

  it('stores what a call fetched without a block or a close: a second node on the store reads it offline', async () => {
    const store = new MemoryStore()
    const node = await startNode({ fork: { url: upstream.url, retries: 0 }, store })
    expect(await balanceOf(node, DEV[0].address)).toBe(TOKEN_SUPPLY - SEED_SENT)
    // The flush after a read is a commit of its own, soon after the fetch.
    const slotKey = `s${upstream.token.slice(2)}${balanceSlot(DEV[0].address).slice(2)}`
    await vi.waitFor(async () => expect([...((await store.load())?.fork ?? [])].map(([key]) => key)).toContain(slotKey))
    upstream.down = true
    const second = await startNode({ store })
    expect(await balanceOf(second, DEV[0].address)).toBe(TOKEN_SUPPLY - SEED_SENT)
  })

  it("refuses to run an upstream contract whose code is EraVM bytecode (a ZKsync Era upstream's), rather than run it as EVM code", async () => {
    const eraVm = '0x00000000000000000000000000000000000e7a00'
    const code = `0x00${'11'.repeat(95)}`
    await fetch(upstream.cli.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setCode', params: [eraVm, code] }) })
    const node = await startNode({ fork: { url: upstream.url } })
    expect(await rpc(node)('eth_getCode', eraVm, 'latest')).toBe(code)
    await expectRpcError(
      rpc(node)('eth_call', { to: eraVm, data: '0x' }, 'latest'),
      -32000,
      /^the contract at 0x00000000000000000000000000000000000e7a00 \(from the fork's upstream 127\.0\.0\.1:\d+\) is EraVM bytecode \(zksolc output\), which this node cannot run: it runs EVM bytecode only$/,
    )
  })

  it('estimates and traces calls on forked state', async () => {
    const node = await startNode({ fork: { url: upstream.url } })
    const data = token.encodeFunctionData('transfer', [DEV[2].address, 5n])
    const gas = BigInt(await rpc(node)<string>('eth_estimateGas', { from: DEV[1].address, to: upstream.token, data }))
    expect(gas).toBeGreaterThan(21_000n)
    const trace = await rpc(node)<{ to: string; output: string; calls?: unknown[] }>('debug_traceCall', { from: DEV[1].address, to: upstream.token, data }, 'latest', { tracer: 'callTracer' })
    expect(trace).toMatchObject({ to: upstream.token, output: `0x${'1'.padStart(64, '0')}` })
  })

  it('fails a transaction that needs the upstream while it is down, leaving the chain as it was', async () => {
    const node = await startNode({ fork: { url: upstream.url, retries: 1 } })
    const head = await rpc(node)('eth_blockNumber')
    upstream.down = true
    await expectRpcError(
      rpc(node)('eth_sendTransaction', { from: DEV[1].address, to: upstream.token, data: token.encodeFunctionData('transfer', [DEV[2].address, 1n]), gas: '0x30d40' }),
      -32603,
      /^the fork's upstream 127\.0\.0\.1:\d+ failed .*\(2 attempts\)$/,
    )
    expect(await rpc(node)('eth_blockNumber')).toBe(head)
    upstream.down = false
    expect(await balanceOf(node, DEV[1].address)).toBe(SEED_SENT)
    expect((await transfer(node, 1, DEV[2].address, 1n)).status).toBe(1)
    expect(await balanceOf(node, DEV[1].address)).toBe(SEED_SENT - 1n)
  })

  it('fails a call that needs the upstream while it is down, and answers it once the upstream is back', async () => {
    const node = await startNode({ fork: { url: upstream.url, retries: 0 } })
    expect(await balanceOf(node, DEV[1].address)).toBe(SEED_SENT)
    upstream.down = true
    // The Token and its code are cached; DEV[0]'s slot is not: the call fails inside the EVM.
    await expectRpcError(balanceOf(node, DEV[0].address), -32603, /^the fork's upstream 127\.0\.0\.1:\d+ failed eth_getStorageAt: it could not be reached/)
    expect(await balanceOf(node, DEV[1].address)).toBe(SEED_SENT)
    upstream.down = false
    expect(await balanceOf(node, DEV[0].address)).toBe(TOKEN_SUPPLY - SEED_SENT)
    // The same sandbox still reverts what a call writes (its journal was unwound).
    const data = token.encodeFunctionData('transfer', [DEV[2].address, 3n])
    await rpc(node)('eth_call', { from: DEV[1].address, to: upstream.token, data }, 'latest')
    expect(await balanceOf(node, DEV[2].address)).toBe(0n)
  })

  it('reverts to a snapshot of forked state, and resets to the fork', async () => {
    const node = await startNode({ fork: { url: upstream.url } })
    const snapshot = await rpc(node)('evm_snapshot')
    await transfer(node, 1, DEV[2].address, 7n)
    expect(await balanceOf(node, DEV[2].address)).toBe(7n)
    expect(await rpc(node)('evm_revert', snapshot)).toBe(true)
    expect(await balanceOf(node, DEV[2].address)).toBe(0n)
    await transfer(node, 1, DEV[2].address, 8n)
    await rpc(node)('anvil_reset', { forking: { jsonRpcUrl: upstream.url, blockNumber: Number(upstream.seededBlock) } })
    expect(BigInt(await rpc(node)<string>('eth_blockNumber'))).toBe(upstream.seededBlock)
    expect(await balanceOf(node, DEV[2].address)).toBe(0n)
    expect(await balanceOf(node, DEV[1].address)).toBe(SEED_SENT)
  })

  it('resets a plain node onto a fork at an earlier block (hardhat_reset), and back to that fork point', async () => {
    const node = await startNode()
    expect(await rpc(node)('eth_getCode', upstream.token, 'latest')).toBe('0x')
    // The block before the Token's transfer: dev account 1 held none of it yet.
    await rpc(node)('hardhat_reset', { forking: { jsonRpcUrl: upstream.url, blockNumber: Number(upstream.seededBlock - 1n) } })
    expect(node.fork!.point.blockNumber).toBe(upstream.seededBlock - 1n)
    expect(await balanceOf(node, DEV[1].address)).toBe(0n)
    expect(await balanceOf(node, DEV[0].address)).toBe(TOKEN_SUPPLY)
    await transfer(node, 0, DEV[2].address, 9n)
    await rpc(node)('hardhat_reset')
    expect(node.fork!.point.blockNumber).toBe(upstream.seededBlock - 1n)
    expect(await balanceOf(node, DEV[2].address)).toBe(0n)
    expect(await rpc(node)('eth_chainId')).toBe('0x104')
  })

  it('switches the upstream URL (anvil_setRpcUrl) and stores the new one', async () => {
    const store = new MemoryStore()
    const node = await startNode({ fork: { url: 'http://127.0.0.1:9/', retries: 0, blockNumber: 1 }, store }).catch((error: unknown) => error)
    expect(node).toBeInstanceOf(UpstreamError)
    const forked = await startNode({ fork: { url: upstream.url }, store })
    await expectRpcError(rpc(forked)('anvil_setRpcUrl', 'ftp://x'), -32602, /an http: or https: URL/)
    const other = upstream.url.replace('127.0.0.1', 'localhost')
    expect(await rpc(forked)('anvil_setRpcUrl', other)).toBe(null)
    expect(forked.fork!.upstream.host).toBe(new URL(other).host)
    expect(await balanceOf(forked, DEV[1].address)).toBe(SEED_SENT)
    await forked.close()
    const again = await startNode({ store })
    expect(again.fork!.point.url).toBe(other)
  })

  it('refuses a fork block past the upstream head, and a stored fork at another block', async () => {
    await expectRpcError(startNode({ fork: { url: upstream.url, blockNumber: 1_000_000 } }), -32602, /the fork block 1000000 is past the head of the upstream 127\.0\.0\.1:\d+/)
    const store = new MemoryStore()
    await (await startNode({ fork: { url: upstream.url, blockNumber: 1 }, store })).close()
    await expectRpcError(startNode({ fork: { url: upstream.url, blockNumber: 2 }, store }), -32603, /forked 127\.0\.0\.1:\d+ at block 1, not 2/)
    await expect(startNode({ fork: { url: 'file:///x' } })).rejects.toThrow('fork.url must be an http: or https: URL, got "file:///x"')
  })
})

/** The Token's balanceOf slot of `who` (mapping at slot 3). */
function balanceSlot(who: string): string {
  return keccakSlot(who, 3n)
}

function keccakSlot(who: string, slot: bigint): string {
  return keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [who, slot]))
}
