import { describe, expect, test, vi } from 'vitest'
import { DEV, rpc, startNode } from '../../support/chain.ts'
import { signTx, txHash } from '../../support/rawTx.ts'

async function fresh(config: Parameters<typeof startNode>[0] = {}) {
  return rpc(await startNode(config))
}

interface Tx {
  blockHash: string | null
  blockNumber: string | null
  transactionIndex: string | null
}
interface Block {
  transactions: string[]
}

describe('automine', () => {
  test('each transaction is mined into its own block before the call returns', async () => {
    const call = await fresh()
    const hashes = []
    for (let nonce = 0; nonce < 3; nonce++) {
      hashes.push(await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce })))
      expect(await call('eth_blockNumber')).toBe(`0x${nonce + 1}`)
    }
    for (const [i, hash] of hashes.entries()) {
      expect((await call<Block>('eth_getBlockByNumber', `0x${i + 1}`, false)).transactions).toEqual([hash])
    }
  })
})

describe('manual mining', () => {
  test('transactions are accepted and wait in the pool: no block, no receipt', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    const raws = [await signTx(DEV[0].key), await signTx(DEV[0].key, { nonce: 1 }), await signTx(DEV[1].key)]
    for (const raw of raws) expect(await call('eth_sendRawTransaction', raw)).toBe(txHash(raw))
    await new Promise((resolve) => setTimeout(resolve, 100))

    expect(await call('eth_blockNumber')).toBe('0x0')
    for (const raw of raws) {
      expect(await call<Tx>('eth_getTransactionByHash', txHash(raw))).toMatchObject({
        blockHash: null,
        blockNumber: null,
        transactionIndex: null,
      })
      expect(await call('eth_getTransactionReceipt', txHash(raw))).toBeNull()
    }
    expect(await call('eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x0')
    expect(await call('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x2')
    // State reads see the head, not the pool.
    expect(await call('eth_getBalance', DEV[1].address, 'pending')).toBe(await call('eth_getBalance', DEV[1].address, '0x0'))
  })
})

describe('interval mining', () => {
  test('blocks appear by themselves, empty or not, and include what was sent', async () => {
    const call = await fresh({ mining: { mode: 'interval', intervalMs: 50 } })
    await vi.waitFor(async () => expect(BigInt(await call<string>('eth_blockNumber'))).toBeGreaterThanOrEqual(2n), {
      timeout: 5_000,
      interval: 20,
    })
    expect((await call<Block>('eth_getBlockByNumber', '0x1', false)).transactions).toEqual([])

    const raw = await signTx(DEV[0].key)
    const hash = await call<string>('eth_sendRawTransaction', raw)
    expect(hash).toBe(txHash(raw))
    const receipt = await vi.waitFor(
      async () => {
        const found = await call<{ status: string; blockNumber: string } | null>('eth_getTransactionReceipt', hash)
        expect(found).not.toBeNull()
        return found!
      },
      { timeout: 5_000, interval: 20 },
    )
    expect(receipt.status).toBe('0x1')
    expect((await call<Block>('eth_getBlockByNumber', receipt.blockNumber, false)).transactions).toEqual([hash])
  })
})
