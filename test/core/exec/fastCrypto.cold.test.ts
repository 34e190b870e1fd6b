/**
 * A cold caller gets the WebAssembly crypto: a fresh process (this test file's own module state)
 * that creates a node and awaits transactions back to back, never yielding to the event loop on
 * its own, still runs them on the fast path once the first has waited for it.
 */
import { expect, test } from 'vitest'
import { createNode } from '../../../src/core/node.ts'
import { fastCryptoStatus } from '../../../src/core/exec/fastCrypto.ts'
import { privateKeyToAccount } from 'viem/accounts'
import { DEV } from '../../support/chain.ts'

test('transactions awaited back to back after createNode run on the WebAssembly crypto', async () => {
  const account = privateKeyToAccount(DEV[0].key)
  const transfer = (nonce: number) =>
    account.signTransaction({ chainId: 260, nonce, to: DEV[1].address, value: 1n, gas: 21_000n, maxFeePerGas: 45_250_000n, maxPriorityFeePerGas: 0n })
  const raws = [await transfer(0), await transfer(1), await transfer(2)]
  const node = await createNode()
  // Not loaded yet: nothing so far let the event loop turn.
  expect(fastCryptoStatus()).toEqual({ keccak256: 'js', ecrecover: 'js' })
  // The first transaction waited for it before its own sender was recovered (Node.decodeTransaction).
  await node.request({ method: 'eth_sendRawTransaction', params: [raws[0]] })
  expect(fastCryptoStatus()).toEqual({ keccak256: 'wasm', ecrecover: 'wasm' })
  for (const raw of raws.slice(1)) await node.request({ method: 'eth_sendRawTransaction', params: [raw] })
  expect(await node.request({ method: 'eth_blockNumber', params: [] })).toBe('0x3')
  await node.close()
})
