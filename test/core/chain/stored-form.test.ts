import { expect, test } from 'vitest'
import { StoredBlock } from '../../../src/core/chain/storedBlock.ts'
import { MemoryStore } from '../../../src/core/store/memoryStore.ts'
import { rpc, startNode } from '../../support/chain.ts'
import { signTransfer, txHash } from '../../support/rawTx.ts'

/**
 * A block the node mined is kept as its stored bytes once stored, as a restored one is, not as
 * decoded objects beside the store's copy (issue 19, item 7: bench/memory.ts measures it).
 */
test('mined blocks are kept in their stored form once stored, and read the same', async () => {
  const node = await startNode({ store: new MemoryStore() })
  const call = rpc(node)
  const raws = await Promise.all(Array.from({ length: 300 }, (_, nonce) => signTransfer(nonce)))
  await call('eth_sendRawTransaction', raws[0])
  const receipt = await call('eth_getTransactionReceipt', txHash(raws[0]))
  const block = await call('eth_getBlockByNumber', '0x1', true)
  for (const raw of raws.slice(1)) await call('eth_sendRawTransaction', raw)

  expect(node.chain.byNumber(1n)).toBeInstanceOf(StoredBlock)
  expect(node.chain.byNumber(300n)).toBeInstanceOf(StoredBlock)
  expect(node.chain.transaction(txHash(raws[0]) as `0x${string}`)).toMatchObject({ blockNumber: 1n })
  // Block 1 was decoded longest ago: its decoded parts are gone, and it reads the same from its bytes.
  expect(await call('eth_getTransactionReceipt', txHash(raws[0]))).toEqual(receipt)
  expect(await call('eth_getBlockByNumber', '0x1', true)).toEqual(block)
  expect(await call('eth_getBlockByHash', (block as { hash: string }).hash, false)).toMatchObject({ number: '0x1' })
})
