import { createLegacyTx } from '@ethereumjs/tx'
import { Address, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { createChainCommon } from '../../../src/core/exec/chainCommon.ts'
import { decodeRawTransaction, senderAddress } from '../../../src/core/exec/rawTransaction.ts'
import { DEV_ACCOUNTS } from '../../support/accounts.ts'
import { CHAIN_ID, signTx } from '../../support/rawTx.ts'

const common = createChainCommon(Number(CHAIN_ID))

describe('senderAddress', () => {
  it('is the address ethereumjs recovers, for every signed type', async () => {
    for (const [type, account] of [
      [0, DEV_ACCOUNTS[0]],
      [1, DEV_ACCOUNTS[1]],
      [2, DEV_ACCOUNTS[2]],
    ] as const) {
      const signed = decodeRawTransaction(hexToBytes((await signTx(account.key, { type })) as `0x${string}`), common)
      expect(signed.from).toBe(account.address)
      expect(senderAddress(signed.tx).toString()).toBe(signed.tx.getSenderAddress().toString())
    }
  })

  it('is the one a transaction given its sender answers (not frozen, nothing to recover)', () => {
    const tx = createLegacyTx({ gasLimit: 21_000n, gasPrice: 1n }, { common, freeze: false })
    const sender = new Address(hexToBytes(DEV_ACCOUNTS[3].address))
    tx.getSenderAddress = () => sender
    expect(senderAddress(tx)).toBe(sender)
  })
})
