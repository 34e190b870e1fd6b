/**
 * Dev-node methods on the page's node with its IndexedDB store: edits, snapshots and reverts are
 * stored like blocks, anvil_reset wipes the database.
 */
import { expect, test } from 'vitest'
import { DEV, start, transfer, uniqueName } from '../../support/browser/nodes.ts'

const A = '0x00000000000000000000000000000000000000a1'

test('state edits, a revert and a reset reach IndexedDB: a new worker on the same name finds each', async () => {
  const name = uniqueName('dev-methods')
  const call = (node: Awaited<ReturnType<typeof start>>, method: string, ...params: unknown[]) => node.provider.request({ method, params })

  const first = await start({ name })
  await transfer(first)
  const id = await call(first, 'evm_snapshot')
  await call(first, 'anvil_setBalance', A, '0x2a')
  await call(first, 'anvil_setCode', A, '0x00')
  await call(first, 'anvil_mine', '0x2')
  await first.stop()

  const second = await start({ name })
  expect(await call(second, 'eth_blockNumber')).toBe('0x3')
  expect(await call(second, 'eth_getBalance', A, 'latest')).toBe('0x2a')
  expect(await call(second, 'eth_getCode', A, 'latest')).toBe('0x00')
  // Snapshots are stored with the chain: one taken by the first worker reverts on the second.
  expect(await call(second, 'evm_revert', id)).toBe(true)
  expect(await call(second, 'eth_blockNumber')).toBe('0x1')
  expect(await call(second, 'eth_getBalance', A, 'latest')).toBe('0x0')
  const again = await call(second, 'evm_snapshot')
  await call(second, 'anvil_mine', '0x3')
  await call(second, 'evm_revert', again)
  await second.stop()

  const third = await start({ name })
  expect(await call(third, 'eth_blockNumber')).toBe('0x1')
  // Consumed on the second worker, and stored so.
  expect(await call(third, 'evm_revert', id)).toBe(false)
  await call(third, 'anvil_reset')
  await third.stop()

  const fourth = await start({ name })
  expect(await call(fourth, 'eth_blockNumber')).toBe('0x0')
  expect(await call(fourth, 'eth_getBalance', A, 'latest')).toBe('0x0')
  expect(await call(fourth, 'eth_getBalance', DEV[0].address, 'latest')).toBe('0x21e19e0c9bab2400000')
})
