import { createBlockHeader } from '@ethereumjs/block'
import { expect, test } from 'vitest'
import { createChainCommon } from '../../../src/core/exec/chainCommon.ts'
import { headerBytes, headerHash } from '../../../src/core/exec/headerBytes.ts'
import { startNode } from '../../support/chain.ts'

test("a header's bytes and hash are ethereumjs' own", () => {
  const common = createChainCommon(260)
  for (const number of [0n, 1n, 1000n, 2n ** 40n]) {
    const header = createBlockHeader({ number, timestamp: 1_700_000_000n + number, gasLimit: 30_000_000n, baseFeePerGas: 45_250_000n, extraData: new Uint8Array(number === 1000n ? 32 : 0) }, { common })
    expect(headerBytes(header)).toEqual(header.serialize())
    expect(headerHash(header)).toEqual(header.hash())
  }
})

test('mined blocks carry the hash of their header, and each names its parent by it', async () => {
  const node = await startNode()
  await node.request({ method: 'evm_mine', params: [] })
  await node.request({ method: 'evm_mine', params: [] })
  const [one, two] = [node.chain.at(1n)!, node.chain.at(2n)!]
  expect(one.hash).toBe(`0x${Buffer.from(one.header.hash()).toString('hex')}`)
  expect(two.header.parentHash).toEqual(one.header.hash())
})
