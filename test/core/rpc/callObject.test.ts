/** The call object of eth_call & co.: what it refuses, with -32602 naming the field (issue #19). */
import { expect, test } from 'vitest'
import { ACCOUNT_STEPS_ALLOWANCE } from '../../../src/core/exec/bootloaderEstimate.ts'
import { DEV, rpc, startNode } from '../../support/chain.ts'

const MAX_UINT256 = (1n << 256n) - 1n
const hex = (n: bigint) => `0x${n.toString(16)}`
const METHODS = ['eth_call', 'eth_estimateGas', 'debug_traceCall', 'zks_estimateFee', 'zks_estimateGasL1ToL2']

test.each([
  [{ gasPrice: hex(MAX_UINT256 + 1n) }, 'gasPrice: hex number > 256 bits'],
  [{ maxFeePerGas: hex(MAX_UINT256 + 1n) }, 'maxFeePerGas: hex number > 256 bits'],
  [{ maxPriorityFeePerGas: hex(MAX_UINT256 + 1n) }, 'maxPriorityFeePerGas: hex number > 256 bits'],
  [{ value: hex(MAX_UINT256 + 1n) }, 'value: hex number > 256 bits'],
  [{ gas: hex(1n << 64n) }, 'gas: hex number > 64 bits'],
  [{ gasPrice: hex(MAX_UINT256 / 1000n), gas: '0x5208' }, 'gasPrice: gas * gasPrice exceeds 2^256-1 (gas 21000)'],
  [{ maxFeePerGas: hex(MAX_UINT256 / 1000n) }, 'maxFeePerGas: gas * maxFeePerGas exceeds 2^256-1 (gas 50000000)'],
  [{ nonce: hex(1n << 64n) }, 'nonce: hex number > 64 bits'],
  [{ nonce: 1 }, 'nonce: expected a hex quantity like "0x1a" (0x-prefixed, no leading zeros), got 1'],
  [{ type: '0x3' }, 'type: expected a transaction type this node runs: "0x0", "0x1", "0x2", "0x4" or "0x71", got "0x3"'],
  [{ type: 'eip1559' }, 'type: expected a hex quantity like "0x1a" (0x-prefixed, no leading zeros), got "eip1559"'],
  [{ chainId: '0x1' }, "chainId does not match node's (have=1, want=260)"],
  [{ eip712Meta: { paymasterParams: { paymaster: '0x1234', paymasterInput: [] } } }, 'eip712Meta: paymaster: expected a 20-byte address (0x-prefixed, 40 hex digits), got "0x1234"'],
  [
    { eip712Meta: { paymasterParams: { paymaster: DEV[2].address, paymasterInput: [256] } } },
    'eip712Meta: paymasterInput: expected bytes as hex data or an array of byte values, got [256]',
  ],
])('%j is refused by every method that takes a call object', async (fields, problem) => {
  const call = rpc(await startNode())
  for (const method of METHODS) {
    await expect(call(method, { from: DEV[0].address, to: DEV[1].address, ...fields }), method).rejects.toMatchObject({
      code: -32602,
      message: `invalid argument 0 (call): ${problem}`,
    })
  }
})

test("a call object's nonce, type and chainId, when valid, change nothing (but a 0x71 estimate's allowance for account steps)", async () => {
  const call = rpc(await startNode())
  const transfer = { from: DEV[0].address, to: DEV[1].address, value: '0x1' }
  for (const extra of [{}, { nonce: '0x5' }, { type: '0x2' }, { type: '0x71' }, { type: 0 }, { chainId: '0x104' }]) {
    const estimate = 'type' in extra && extra.type === '0x71' ? 21_000n + ACCOUNT_STEPS_ALLOWANCE : 21_000n
    expect(await call('eth_estimateGas', { ...transfer, ...extra })).toBe(hex(estimate))
    expect(await call('eth_call', { ...transfer, ...extra })).toBe('0x')
  }
  // The edge of each width is still taken.
  expect(await call('eth_call', { ...transfer, gas: hex((1n << 64n) - 1n) })).toBe('0x')
})

test("eip712Meta's zero-address paymaster is no paymaster, as in a signed 0x71 transaction", async () => {
  const call = rpc(await startNode())
  const plain = await call('eth_estimateGas', { from: DEV[0].address, to: DEV[1].address, type: '0x71', eip712Meta: { gasPerPubdata: '0xc350' } })
  const zero = { paymaster: '0x0000000000000000000000000000000000000000', paymasterInput: [] }
  expect(await call('eth_estimateGas', { from: DEV[0].address, to: DEV[1].address, type: '0x71', eip712Meta: { gasPerPubdata: '0xc350', paymasterParams: zero } })).toBe(plain)
})
