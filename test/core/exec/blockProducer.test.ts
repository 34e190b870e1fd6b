import { createBlock, createBlockHeader } from '@ethereumjs/block'
import { createAddressFromString, KECCAK256_RLP } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { contextFields, sealedHeader, type BlockTemplate } from '../../../src/core/exec/blockProducer.ts'
import { createChainCommon } from '../../../src/core/exec/chainCommon.ts'

const common = createChainCommon(260)

test("a sealed header is the header createBlockHeader makes of the context's fields and the execution's: the same raw(), hash() and JSON, frozen, with a hash of its own", () => {
  const parent = createBlockHeader({ number: 41n, timestamp: 1_700_000_000n, gasLimit: 1n << 32n, baseFeePerGas: 45_250_000n }, { common })
  const template: BlockTemplate = {
    parent,
    timestamp: 1_700_000_001n,
    coinbase: createAddressFromString(`0x${'80'.padStart(40, '0')}`),
    gasLimit: 1n << 32n,
    baseFeePerGas: 45_250_000n,
  }
  const fields = contextFields(template)
  const context = createBlock({ header: fields }, { common })
  // The context's hash asked for first: the sealed header must not answer with it.
  const contextHash = context.header.hash()
  const bloom = new Uint8Array(256)
  bloom[17] = 0x40
  const sealed = {
    stateRoot: new Uint8Array(32).fill(3),
    transactionsTrie: new Uint8Array(32).fill(4),
    receiptTrie: KECCAK256_RLP,
    logsBloom: bloom,
    gasUsed: 21_000n,
  }
  const header = sealedHeader(context.header, sealed)
  const made = createBlockHeader({ ...fields, ...sealed }, { common })

  expect(header.raw()).toEqual(made.raw())
  expect(header.serialize()).toEqual(made.serialize())
  expect(header.hash()).toEqual(made.hash())
  expect(header.hash()).not.toEqual(contextHash)
  expect(header.toJSON()).toEqual(made.toJSON())
  expect(header.number).toBe(42n)
  expect(header.isGenesis()).toBe(false)
  expect(Object.isFrozen(header)).toBe(true)
  expect(context.header.gasUsed).toBe(0n)
})
