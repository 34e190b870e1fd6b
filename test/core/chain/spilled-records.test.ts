/**
 * A node that keeps nothing (createNode's default store) spills its blocks' records to disk once
 * a slab of them is full (issue 21: memory bounded by configuration, not by chain length), and
 * answers old blocks, transactions, receipts and logs exactly as it did when they were mined.
 */
import { expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { DEV, deploy, devWallet, rpc, startNode } from '../../support/chain.ts'
import { signTransfer } from '../../support/rawTx.ts'

test('old blocks, receipts and logs read back from spilled records exactly as mined', async () => {
  const node = await startNode()
  const wallet = devWallet(node)
  const token = await deploy(wallet, 'Token', 'Spill', 'S', 1000n)
  const hashes: string[] = []
  for (let i = 0; i < 3; i++) hashes.push((await (await token.getFunction('transfer')(DEV[1 + (i % 2)].address, BigInt(i + 1))).wait())!.hash)
  const address = await token.getAddress()
  const ask = async (n: Node) => {
    const call = rpc(n)
    const blocks = []
    for (let b = 0; b <= 4; b++) {
      const block = await call<{ hash: string }>('eth_getBlockByNumber', `0x${b.toString(16)}`, true)
      blocks.push(block, await call('eth_getBlockByHash', block.hash, false))
    }
    const txs = []
    for (const hash of hashes) txs.push(await call('eth_getTransactionByHash', hash), await call('eth_getTransactionReceipt', hash))
    const logs = await call('eth_getLogs', { fromBlock: '0x0', toBlock: '0x4', address })
    return { blocks, txs, logs }
  }
  const before = await ask(node)
  expect(node.chain.records.spilledBytes).toBe(0)

  // ~600 bytes a transfer's record: 500 of them fill a 256 KiB slab.
  const raws = await Promise.all(Array.from({ length: 500 }, (_, i) => signTransfer(4 + i)))
  for (const raw of raws) await rpc(node)('eth_sendRawTransaction', raw)
  expect(node.chain.records.spilledBytes).toBeGreaterThan(200_000)

  const after = await ask(node)
  expect(after).toEqual(before)
  // The receipts' blooms, stored empty, are made again from the logs.
  const receipt = before.txs[1] as { logsBloom: string }
  expect(receipt.logsBloom).not.toBe(`0x${'0'.repeat(512)}`)
})
