import { getCreateAddress, Interface, type InterfaceAbi } from 'ethers'
import { expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { artifacts, DEV, mineBlock, rpc, startNode } from '../../support/chain.ts'
import { zksyncProvider, zksyncWallet } from '../../support/zksync.ts'
import { signTx } from '../../support/rawTx.ts'

type Json = Record<string, unknown>
interface DetailedOutput {
  transactionHash: string
  storageLogs: { address: string; key: string; writtenValue: string }[]
  events: Json[]
}

const probe = new Interface(artifacts.Probe.abi as InterfaceAbi)
/** A counter: runtime `slot 0 += 1` (PUSH1 0 SLOAD PUSH1 1 ADD PUSH1 0 SSTORE STOP). */
const COUNTER_RUNTIME = '60005460010160005500'
/** Init code: PUSH10 runtime, PUSH1 0 MSTORE (right-aligned in the word), RETURN its 10 bytes from 22. */
const COUNTER_INIT = `0x69${COUNTER_RUNTIME}600052600a6016f3`

async function deploy(node: Node, data: string, nonce = 0): Promise<string> {
  const hash = await rpc(node)<string>('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce, to: null, data, gasLimit: 3_000_000n, value: 0n }))
  if (node.config.mining.mode === 'manual') await mineBlock(node)
  return (await rpc(node)<Json>('eth_getTransactionReceipt', hash)).contractAddress as string
}

test('the storage slots a transaction changes and its events, before they are in a block', async () => {
  const node = await startNode()
  const call = rpc(node)
  const address = await deploy(node, artifacts.Probe.bytecode)
  const raw = await signTx(DEV[0].key, { nonce: 1, to: address, data: probe.encodeFunctionData('set', [42n]), gasLimit: 200_000n, value: 0n })
  const output = await call<DetailedOutput>('zks_sendRawTransactionWithDetailedOutput', raw)

  expect(output.storageLogs).toEqual([{ address, key: '0x0', writtenValue: '0x2a' }])
  expect(output.events).toHaveLength(1)
  const [event] = output.events
  expect(Object.keys(event)).toEqual([
    'address',
    'topics',
    'data',
    'blockHash',
    'blockNumber',
    'l1BatchNumber',
    'transactionHash',
    'transactionIndex',
    'logIndex',
    'transactionLogIndex',
    'logType',
    'removed',
    'blockTimestamp',
  ])
  // Optimistic: no block yet; the batch the next block (2) joins, and the transaction's place in it.
  expect(event).toMatchObject({
    blockHash: null,
    blockNumber: null,
    l1BatchNumber: '0x2',
    transactionHash: output.transactionHash,
    transactionIndex: '0x0',
    logIndex: null,
    transactionLogIndex: null,
    logType: null,
    removed: false,
    blockTimestamp: null,
  })
  const parsed = probe.parseLog(event as { topics: string[]; data: string })!
  expect([parsed.name, parsed.args.by.toLowerCase(), parsed.args.value, parsed.args.note]).toEqual(['ValueSet', DEV[0].address, 42n, 'set'])

  // What was said is what happened: the mined receipt has the same log, the slot the same value.
  const receipt = await call<{ logs: Json[]; status: string }>('eth_getTransactionReceipt', output.transactionHash)
  expect(receipt.status).toBe('0x1')
  expect(receipt.logs.map(({ address, topics, data }) => ({ address, topics, data }))).toEqual(
    output.events.map(({ address, topics, data }) => ({ address, topics, data })),
  )
  expect(BigInt(await call<string>('eth_getStorageAt', address, '0x0', 'latest'))).toBe(42n)
})

test('writes a revert undid are not reported; the transaction is still submitted and mined (failed)', async () => {
  const node = await startNode()
  const call = rpc(node)
  const address = await deploy(node, artifacts.Probe.bytecode)
  const raw = await signTx(DEV[0].key, { nonce: 1, to: address, data: probe.encodeFunctionData('failWith', ['no']), gasLimit: 200_000n, value: 0n })
  const output = await call<DetailedOutput>('unstable_sendRawTransactionWithDetailedOutput', raw)
  expect(output).toMatchObject({ storageLogs: [], events: [] })
  expect(await call('eth_getTransactionReceipt', output.transactionHash)).toMatchObject({ status: '0x0' })
})

test('manual mining: two pending transactions touching the same slot have no causal link in their outputs', async () => {
  const node = await startNode({ mining: { mode: 'manual' } })
  const call = rpc(node)
  const counter = await deploy(node, COUNTER_INIT)
  expect(counter).toBe(getCreateAddress({ from: DEV[0].address, nonce: 0 }).toLowerCase())
  const outputs: DetailedOutput[] = []
  for (const key of [DEV[1].key, DEV[2].key]) {
    const raw = await signTx(key, { nonce: 0, to: counter, data: '0x', gasLimit: 100_000n, value: 0n })
    outputs.push(await call<DetailedOutput>('zks_sendRawTransactionWithDetailedOutput', raw))
  }
  // Each ran on the head state: both saw 0 and wrote 1; their pool positions follow each other.
  expect(outputs.map((o) => o.storageLogs)).toEqual([
    [{ address: counter, key: '0x0', writtenValue: '0x1' }],
    [{ address: counter, key: '0x0', writtenValue: '0x1' }],
  ])
  await mineBlock(node)
  expect(BigInt(await call<string>('eth_getStorageAt', counter, '0x0', 'latest'))).toBe(2n)
})

test('the optimistic transaction index counts what waits in the pool before it', async () => {
  const node = await startNode({ mining: { mode: 'manual' } })
  const call = rpc(node)
  const probeAddress = await deploy(node, artifacts.Probe.bytecode)
  const indexes: unknown[] = []
  for (const [i, key] of [DEV[1].key, DEV[2].key].entries()) {
    const raw = await signTx(key, { nonce: 0, to: probeAddress, data: probe.encodeFunctionData('set', [BigInt(i + 1)]), gasLimit: 200_000n, value: 0n })
    const output = await call<DetailedOutput>('zks_sendRawTransactionWithDetailedOutput', raw)
    indexes.push(output.events[0].transactionIndex)
  }
  expect(indexes).toEqual(['0x0', '0x1'])
})

test('refused like eth_sendRawTransaction, and then nothing is pooled', async () => {
  const node = await startNode({ mining: { mode: 'manual' } })
  const call = rpc(node)
  await call('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce: 0 }))
  await mineBlock(node)
  const stale = await signTx(DEV[0].key, { nonce: 0, value: 2n })
  await expect(call('zks_sendRawTransactionWithDetailedOutput', stale)).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/^nonce too low/) })
  const poor = await signTx(DEV[0].key, { nonce: 1, value: 10n ** 30n })
  await expect(call('zks_sendRawTransactionWithDetailedOutput', poor)).rejects.toMatchObject({ message: expect.stringMatching(/^insufficient funds/) })
  expect(await call('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x1')
})

test("zksync-ethers' sendRawTransactionWithDetailedOutput with a 0x71 transaction signed by its Wallet", async () => {
  const node = await startNode()
  const provider = zksyncProvider(node)
  const wallet = zksyncWallet(node, 0, provider)
  const address = await deploy(node, artifacts.Probe.bytecode)
  const signed = await wallet.signTransaction({ to: address, data: probe.encodeFunctionData('set', [7n]) })
  expect(signed.startsWith('0x71')).toBe(true)
  const output = await provider.sendRawTransactionWithDetailedOutput(signed)
  expect(output.storageLogs).toEqual([{ address, key: '0x0', writtenValue: '0x7' }])
  expect(await provider.getTransactionReceipt(output.transactionHash)).toMatchObject({ status: 1, type: 113 })
})
