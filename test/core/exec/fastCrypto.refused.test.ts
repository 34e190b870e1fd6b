/**
 * Where WebAssembly is refused (a page whose Content-Security-Policy forbids it), the node runs on
 * ethereumjs' pure-JS crypto: the same transactions, the same senders and hashes, only slower.
 * A file of its own: fastCrypto.ts loads once per module instance, and this one must never load.
 */
import { afterAll, expect, test, vi } from 'vitest'
import { privateKeyToAccount } from 'viem/accounts'
import { keccak256 as viemKeccak } from 'viem'
import { fastCryptoSettled, fastCryptoStatus } from '../../../src/core/exec/fastCrypto.ts'
import { createNode } from '../../../src/core/node.ts'
import { DEV } from '../../support/chain.ts'

const refused = () => Promise.reject(new WebAssembly.CompileError('WebAssembly is refused by this test'))
vi.stubGlobal('WebAssembly', { ...WebAssembly, compile: refused, instantiate: refused, instantiateStreaming: refused, compileStreaming: refused })
afterAll(() => vi.unstubAllGlobals())

test('transactions run on the pure-JS crypto when WebAssembly cannot be instantiated', async () => {
  const account = privateKeyToAccount(DEV[0].key)
  const transfer = (nonce: number) =>
    account.signTransaction({ chainId: 260, nonce, to: DEV[1].address, value: 1n, gas: 21_000n, maxFeePerGas: 45_250_000n, maxPriorityFeePerGas: 0n })
  const raws = [await transfer(0), await transfer(1)]
  const node = await createNode()
  try {
    for (const raw of raws) {
      const hash = await node.request({ method: 'eth_sendRawTransaction', params: [raw] })
      expect(hash).toBe(viemKeccak(raw))
      const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string; from: string }
      expect(receipt.status).toBe('0x1')
      expect(receipt.from).toBe(DEV[0].address.toLowerCase())
    }
    // Both loads were attempted and gave up: the node does not wait for them again.
    expect(fastCryptoSettled()).toBe(true)
    expect(fastCryptoStatus()).toEqual({ keccak256: 'js', ecrecover: 'js' })
  } finally {
    await node.close()
  }
})
