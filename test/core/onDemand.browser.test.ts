/**
 * The code a node loads on first use (src/core/onDemand.ts), in a page's node worker: the first
 * calls of rarely called methods, several at once before anything was loaded, each answered as
 * its method answers; then a 0x71 transaction, whose bootloader flows load on its arrival.
 */
import { BrowserProvider, Provider, Wallet } from 'zksync-ethers'
import { expect, test } from 'vitest'
import { DEV, start, uniqueName } from '../support/browser/nodes.ts'

const TRANSFER = { from: DEV[0].address, to: DEV[3].address, value: '0x1' }

test('the first calls of rare methods, together, each answered by its own code', async () => {
  const node = await start({ name: uniqueName('on-demand'), persist: false })
  const call = (method: string, params: unknown[] = []) => node.provider.request({ method, params })
  const hash = (await call('eth_sendTransaction', [TRANSFER])) as string

  const typedData = {
    types: { EIP712Domain: [{ name: 'name', type: 'string' }], Note: [{ name: 'text', type: 'string' }] },
    primaryType: 'Note',
    domain: { name: 'pagenode' },
    message: { text: 'hello' },
  }
  const [trace, simulated, apiLevel, l1ChainId, pool, signature, proof, rawHeader] = await Promise.all([
    call('debug_traceTransaction', [hash, { tracer: 'callTracer' }]),
    call('eth_simulateV1', [{ blockStateCalls: [{ calls: [TRANSFER] }] }, 'latest']),
    call('ots_getApiLevel'),
    call('zks_L1ChainId'),
    call('txpool_status'),
    call('eth_signTypedData_v4', [DEV[0].address, typedData]),
    call('eth_getProof', [DEV[3].address, [], 'latest']),
    call('debug_getRawHeader', ['latest']),
  ])
  const { type, to, value } = trace as { type: string; to: string; value: string }
  expect({ type, to: to.toLowerCase(), value }).toEqual({ type: 'call', to: DEV[3].address.toLowerCase(), value: '0x1' })
  expect(simulated).toMatchObject([{ calls: [{ status: '0x1' }] }])
  expect(apiLevel).toBe(8)
  expect(l1ChainId).toMatch(/^0x[0-9a-f]+$/)
  expect(pool).toEqual({ pending: '0x0', queued: '0x0' })
  expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
  const { address, accountProof } = proof as { address: string; accountProof: string[] }
  expect(address.toLowerCase()).toBe(DEV[3].address.toLowerCase())
  expect(accountProof.length).toBeGreaterThan(0)
  expect(rawHeader).toMatch(/^0x[0-9a-f]+$/)
})

test('a bad param of a rare method, its first call: -32602 naming the param', async () => {
  const node = await start({ name: uniqueName('on-demand-params'), persist: false })
  await expect(node.provider.request({ method: 'debug_traceTransaction', params: ['0x12'] })).rejects.toMatchObject({
    code: -32602,
    message: expect.stringMatching(/transactionHash/),
  })
})

test("a node's first 0x71 transaction: its estimate and its bootloader flows load, and it is mined", async () => {
  const node = await start({ name: uniqueName('on-demand-0x71'), persist: false })
  // zksync-ethers' Wallet sends EIP-712 (0x71) transactions, estimated with their meta first.
  const wallet = new Wallet(DEV[0].key, new BrowserProvider(node.provider) as unknown as Provider)
  const sent = await wallet.sendTransaction({ to: DEV[3].address, value: 1n })
  const receipt = (await node.provider.request({ method: 'eth_getTransactionReceipt', params: [sent.hash] })) as { status: string; type: string }
  expect(receipt).toMatchObject({ status: '0x1', type: '0x71' })
})
