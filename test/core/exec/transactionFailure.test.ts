/**
 * throwOnTransactionFailures: the send of a failing transaction is an error in Hardhat's words,
 * the transaction mined all the same. The expected texts and shapes were read off Hardhat 2.29.1's
 * node (`npx hardhat node`, EDR 0.3.8) for the same transactions: deployments whose initcode
 * reverts with each kind of revert data, runs out of gas, or halts.
 */
import { describe, expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { DEV, rpc, startNode } from '../../support/chain.ts'

let node: Node | undefined

const word = (n: number | bigint) => n.toString(16).padStart(64, '0')
/** Initcode that reverts with `data`: CODECOPY it from behind a 12-byte prefix, then REVERT. */
const revertingWith = (data: string) => {
  const length = (data.length / 2).toString(16).padStart(2, '0')
  return `0x60${length}600c60003960${length}6000fd${data}`
}
const ERROR_NOPE = `08c379a0${word(32)}${word(4)}6e6f7065${'0'.repeat(56)}`
const panic = (code: number) => `4e487b71${word(code)}`

/** Hardhat's answers (code, message), by initcode. */
const HARDHAT: [string, string, number, string][] = [
  ['Error(string)', revertingWith(ERROR_NOPE), -32603, "Error: VM Exception while processing transaction: reverted with reason string 'nope'"],
  ['a bare revert', '0x60006000fd', -32603, 'Error: Transaction reverted without a reason string'],
  ['panic 0x11', revertingWith(panic(17)), -32603, 'Error: VM Exception while processing transaction: reverted with panic code 0x11 (Arithmetic operation overflowed outside of an unchecked block)'],
  ['panic 0x32', revertingWith(panic(50)), -32603, 'Error: VM Exception while processing transaction: reverted with panic code 0x32 (Array accessed at an out-of-bounds or negative index)'],
  ['panic 0x0', revertingWith(panic(0)), -32603, 'Error: VM Exception while processing transaction: reverted with unknown panic code 0x0'],
  ['a custom error', revertingWith(`deadbeef${word(7)}`), -32603, `Error: VM Exception while processing transaction: reverted with an unrecognized custom error (return data: 0xdeadbeef${word(7)})`],
  ['an invalid opcode', '0xfe', -32603, 'Error: VM Exception while processing transaction: invalid opcode'],
  ['running out of gas', '0x5b600056', -32000, 'Transaction ran out of gas'],
]

describe('with throwOnTransactionFailures', () => {
  test.each(HARDHAT)('%s: the send fails as in Hardhat, and the transaction is mined', async (_, data, code, message) => {
    node = await startNode({ throwOnTransactionFailures: true })
    const call = rpc(node)
    const error = await call('eth_sendTransaction', { from: DEV[0].address, data, gas: '0x100000' }).then(
      () => undefined,
      (failure: { code: number; message: string; data: { message: string; txHash: string; data: string } }) => failure,
    )
    expect(error).toMatchObject({ code, message, data: { message } })
    expect(await call('eth_blockNumber')).toBe('0x1')
    const receipt = await call<{ status: string; transactionHash: string }>('eth_getTransactionReceipt', error!.data.txHash)
    expect(receipt.status).toBe('0x0')
    if (message.includes("reason string 'nope'")) expect(error!.data.data).toBe(`0x${ERROR_NOPE}`)
  })

  test('a raw transaction fails the same way; one that succeeds answers its hash', async () => {
    node = await startNode({ throwOnTransactionFailures: true })
    const call = rpc(node)
    const sign = (data: string, nonce: number) => call<{ raw: string }>('eth_signTransaction', { from: DEV[0].address, data, gas: '0x100000', nonce: `0x${nonce}` })
    const failing = await sign('0x60006000fd', 0)
    await expect(call('eth_sendRawTransaction', failing.raw ?? failing)).rejects.toMatchObject({ code: -32603, message: 'Error: Transaction reverted without a reason string' })
    const fine = await sign('0x', 1)
    expect(await call('eth_sendRawTransaction', fine.raw ?? fine)).toMatch(/^0x[0-9a-f]{64}$/)
  })
})

test('by default (as anvil) the send answers the hash and the receipt says status 0', async () => {
  node = await startNode()
  const call = rpc(node)
  const hash = await call<string>('eth_sendTransaction', { from: DEV[0].address, data: revertingWith(ERROR_NOPE), gas: '0x100000' })
  expect((await call<{ status: string }>('eth_getTransactionReceipt', hash)).status).toBe('0x0')
})

test('under manual mining nothing is thrown: the transaction waits in the pool', async () => {
  node = await startNode({ throwOnTransactionFailures: true, mining: { mode: 'manual' } })
  const hash = await rpc(node)<string>('eth_sendTransaction', { from: DEV[0].address, data: '0x60006000fd', gas: '0x100000' })
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
})
