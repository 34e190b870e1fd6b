/**
 * pagenode_devSettings: the dev-node settings as the node runs them, and the same after the
 * chain is reopened from its store (what the playground shows after a reload).
 */
import { expect, test } from 'vitest'
import { MemoryStore } from '../../../../src/core/store/memoryStore.ts'
import { rpc, startNode } from '../../../support/chain.ts'
import { expectRpcError } from '../../../support/expectRpc.ts'

const A = '0x00000000000000000000000000000000000000a1'

test('a fresh node: automine, no offset, no impersonation, no snapshot', async () => {
  const call = rpc(await startNode())
  expect(await call('pagenode_devSettings')).toEqual({ mining: { mode: 'auto' }, timeOffsetSeconds: 0, impersonatedAccounts: [], autoImpersonate: false, snapshots: [] })
})

test('the settings changed by dev methods, and the same read from a reopened chain', async () => {
  const store = new MemoryStore()
  const node = await startNode({ store })
  const call = rpc(node)
  await call('evm_mine')
  const snapshot = await call<string>('evm_snapshot')
  const head = await call<{ number: string; hash: string }>('eth_getBlockByNumber', 'latest', false)
  await call('evm_setIntervalMining', 7)
  await call('evm_increaseTime', 3600)
  await call('anvil_impersonateAccount', A)
  const settings = await call<Record<string, unknown>>('pagenode_devSettings')
  expect(settings).toMatchObject({
    mining: { mode: 'interval', intervalSeconds: 7 },
    timeOffsetSeconds: 3600,
    impersonatedAccounts: [A],
    autoImpersonate: false,
    snapshots: [{ id: snapshot, blockNumber: head.number, blockHash: head.hash, takenAt: expect.any(Number) }],
  })
  await node.close()

  const again = rpc(await startNode({ store }))
  const reopened = await again<{ timeOffsetSeconds: number }>('pagenode_devSettings')
  // The offset is kept as the clock stood: only seconds of wall time may separate the two reads.
  expect({ ...reopened, timeOffsetSeconds: 0 }).toEqual({ ...settings, timeOffsetSeconds: 0 })
  expect(reopened.timeOffsetSeconds).toBeGreaterThanOrEqual(3600)

  await again('evm_setAutomine', false)
  await again('evm_setIntervalMining', 0)
  expect(await again('pagenode_devSettings')).toMatchObject({ mining: { mode: 'manual' } })
})

test('parameters are refused', async () => {
  const call = rpc(await startNode())
  await expectRpcError(call('pagenode_devSettings', 1), -32602, /too many/i)
})
