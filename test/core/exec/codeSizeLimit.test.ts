/**
 * The contract size limit: EIP-170's 24,576 bytes by default, another number of bytes, or none
 * (anvil's --code-size-limit / --disable-code-size-limit, Hardhat's allowUnlimitedContractSize).
 */
import { afterEach, expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { MemoryStore } from '../../../src/core/store/memoryStore.ts'
import { DEV, rpc, startNode } from '../../support/chain.ts'

let node: Node | undefined
// A test's node is started once, on its first call (startNode closes it after the test).
afterEach(() => {
  node = undefined
})

/** Initcode that deploys `size` zero bytes: PUSH3 size, PUSH1 0, RETURN. */
const deploying = (size: number) => `0x62${size.toString(16).padStart(6, '0')}6000f3`

/** Deploys `size` bytes of code; the receipt's status and the code's length. */
async function deploy(size: number, codeSizeLimit?: number | false) {
  node ??= await startNode(codeSizeLimit === undefined ? {} : { codeSizeLimit })
  const call = rpc(node)
  const hash = await call<string>('eth_sendTransaction', { from: DEV[0].address, data: deploying(size), gas: '0x1c9c380' })
  const receipt = await call<{ status: string; contractAddress: string }>('eth_getTransactionReceipt', hash)
  const code = await call<string>('eth_getCode', receipt.contractAddress, 'latest')
  return { status: receipt.status, length: (code.length - 2) / 2 }
}

test("by default, EIP-170's 24,576 bytes: one more fails the deployment", async () => {
  expect(await deploy(24_576)).toEqual({ status: '0x1', length: 24_576 })
  expect(await deploy(24_577)).toEqual({ status: '0x0', length: 0 })
})

test('a limit of its own: 40,000 bytes deploy, 40,001 do not', async () => {
  expect(await deploy(40_000, 40_000)).toEqual({ status: '0x1', length: 40_000 })
  expect(await deploy(40_001)).toEqual({ status: '0x0', length: 0 })
  // Transactions built meanwhile (each merges ethereumjs' transaction params back) change nothing.
  expect(await deploy(39_999)).toEqual({ status: '0x1', length: 39_999 })
})

test('no limit: 100,000 bytes deploy, and so does initcode past EIP-3860', async () => {
  expect(await deploy(100_000, false)).toEqual({ status: '0x1', length: 100_000 })
  // 60,000 bytes of initcode (EIP-3860 allows 49,152): a deployment whose data is mostly padding.
  const call = rpc(node!)
  const data = `${deploying(1)}${'00'.repeat(60_000)}`
  const hash = await call<string>('eth_sendTransaction', { from: DEV[0].address, data, gas: '0x1c9c380' })
  expect((await call<{ status: string }>('eth_getTransactionReceipt', hash)).status).toBe('0x1')
  // and as a raw transaction a client signed, and in a call and an estimate.
  expect(await call('eth_call', { from: DEV[0].address, data })).toBe('0x00')
  expect(BigInt(await call<string>('eth_estimateGas', { from: DEV[0].address, data }))).toBeGreaterThan(21_000n)
})

test('a node reopened on its store reads back the blocks that deployed past the limits', async () => {
  const store = new MemoryStore()
  node = await startNode({ codeSizeLimit: false, store })
  const call = rpc(node)
  const data = `${deploying(30_000)}${'00'.repeat(60_000)}`
  const hash = await call<string>('eth_sendTransaction', { from: DEV[0].address, data, gas: '0x1c9c380' })
  await node.close()
  node = await startNode({ codeSizeLimit: false, store })
  const receipt = await rpc(node)<{ status: string; contractAddress: string }>('eth_getTransactionReceipt', hash)
  expect(receipt.status).toBe('0x1')
  expect((await rpc(node)<string>('eth_getCode', receipt.contractAddress, 'latest')).length).toBe(2 + 60_000)
})

test('a bad limit is refused when the node is created', async () => {
  await expect(startNode({ codeSizeLimit: 0 })).rejects.toThrow('codeSizeLimit must be a positive number of bytes, or false for no limit, got 0')
})
