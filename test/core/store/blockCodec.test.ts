/**
 * Block records (store/blockCodec.ts): since schema 4 a receipt's logs bloom is stored empty and
 * made again from its logs on decode; a record written before keeps its bloom and reads as it is.
 */
import { RLP } from '@ethereumjs/rlp'
import { expect, test } from 'vitest'
import { decodeBlockRecord, encodeBlockRecord } from '../../../src/core/store/blockCodec.ts'
import { DEV, deploy, devWallet, startNode } from '../../support/chain.ts'

/** Where a stored transaction keeps its receipt's bloom: [signedTx, hash, from, status, gasUsed, cumulative, price, created, logsBloom, logs, …]. */
const TX_BLOOM = 8

test('a receipt’s bloom is stored empty and decoded as the bloom of its logs; a schema-3 record’s stored bloom is read as it is', async () => {
  const node = await startNode()
  const token = await deploy(devWallet(node), 'Token', 'Bloom', 'B', 1000n)
  await (await token.getFunction('transfer')(DEV[1].address, 5n)).wait()
  const mined = node.chain.head
  const receipt = mined.transactions[0].receipt
  expect(receipt.logs).toHaveLength(1)
  expect(receipt.logsBloom.some((byte) => byte !== 0)).toBe(true)

  const bytes = encodeBlockRecord(mined)
  const fields = RLP.decode(bytes) as unknown as [unknown, unknown, unknown, unknown, Uint8Array[][]]
  expect(fields[4][0][TX_BLOOM]).toEqual(new Uint8Array())
  expect(decodeBlockRecord(bytes, node.common).transactions[0].receipt).toEqual(receipt)

  // As schema 3 wrote it: the bloom in the record, here one that is not its logs' (read as stored, not made again).
  const stored = new Uint8Array(256).fill(0xff)
  fields[4][0][TX_BLOOM] = stored
  const older = RLP.encode(fields as never)
  expect(bytes.length).toBe(older.length - 256 - 2)
  expect(decodeBlockRecord(older, node.common).transactions[0].receipt.logsBloom).toEqual(stored)
})
