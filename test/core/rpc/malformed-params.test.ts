/**
 * A fuzz-style sweep: a corpus of malformed values thrown at every parameter position of every
 * method in the method table. Whatever a method makes of them, it must never be -32603 (an
 * internal error: a bug), and nothing may throw past the node.
 */
import { expect, test } from 'vitest'
import { methods } from '../../../src/core/rpc/methods/index.ts'
import { RpcError } from '../../../src/core/errors.ts'
import { DEV, startNode } from '../../support/chain.ts'

const MAX_UINT256 = (1n << 256n) - 1n
const hexOf = (n: bigint) => `0x${n.toString(16)}`
const deep = (levels: number): unknown => {
  let value: unknown = []
  for (let i = 0; i < levels; i++) value = [value]
  return value
}
const deepObject = (levels: number): unknown => {
  let value: unknown = {}
  for (let i = 0; i < levels; i++) value = { a: value }
  return value
}

/** Values no method takes as they are, or takes only at the edge of what it can hold. */
const SCALARS: unknown[] = [
  null, true, false, 0, -1, 1.5, 2 ** 53, 1e300, '', '0x', '0xzz', '0x0', '0x00', '0x1', 'latest', 'pending', 'earliest',
  'safe', 'finalized', hexOf(MAX_UINT256), hexOf(MAX_UINT256 + 1n), hexOf(1n << 64n), `0x${'ab'.repeat(20)}`, `0x${'ab'.repeat(32)}`,
  `0x${'ab'.repeat(33)}`, 'x'.repeat(10_000), '\u0000', '🦊', [], {}, [[]], [{}], { blockHash: `0x${'00'.repeat(32)}` },
  { blockNumber: hexOf(MAX_UINT256) }, { blockHash: `0x${'00'.repeat(32)}`, blockNumber: '0x0' }, deep(6000), deepObject(6000),
]

/** Call objects past what a transaction can carry (#19: each was a -32603). */
const CALL_OBJECTS: unknown[] = [
  { gasPrice: hexOf(MAX_UINT256 + 1n) },
  { maxFeePerGas: hexOf(MAX_UINT256 + 1n) },
  { maxPriorityFeePerGas: hexOf(MAX_UINT256 + 1n), maxFeePerGas: hexOf(MAX_UINT256 + 1n) },
  { value: hexOf(MAX_UINT256 + 1n) },
  { gas: hexOf(1n << 64n) },
  { gasPrice: hexOf(MAX_UINT256 / 1000n) },
  { maxFeePerGas: hexOf(MAX_UINT256 / 1000n), from: DEV[0].address },
  { gasPrice: hexOf(MAX_UINT256), gas: '0x5208', from: DEV[0].address, to: DEV[1].address },
  { value: hexOf(MAX_UINT256), from: DEV[0].address, to: DEV[1].address },
  { value: hexOf(MAX_UINT256), gasPrice: '0x1', from: DEV[0].address, to: DEV[1].address },
  { nonce: hexOf(1n << 64n) },
  { nonce: '0x1', type: '0x3' },
  { type: 'legacy' },
  { type: 2 ** 60 },
  { chainId: '0x1' },
  { chainId: hexOf(MAX_UINT256 + 1n) },
  { from: DEV[0].address, to: DEV[1].address, data: '0x5b600056', gas: '0x1000' },
  { from: DEV[0].address, accessList: [{ address: 'nope' }] },
  { from: DEV[0].address, accessList: [{ address: DEV[1].address, storageKeys: [hexOf(MAX_UINT256 + 1n)] }] },
  { data: '0x12', input: '0x34' },
  { from: DEV[0].address, authorizationList: deep(200) },
]

const CORPUS = [...SCALARS, ...CALL_OBJECTS]

/** Each method gets a node of its own: a dev method that changed the chain changes no other's answers. */
const names = Object.keys(methods).sort()

async function sweep(method: string): Promise<string[]> {
  const node = await startNode({ limits: { evmTimeoutMs: 200, maxMineBlocks: 16 }, onInternalError: () => {} })
  const internal: string[] = []
  const ask = async (params: unknown) => {
    try {
      await node.request({ method, params })
    } catch (error) {
      if (!(error instanceof RpcError)) {
        internal.push(`${method} ${shown(params)}: threw ${String(error)}`)
        return
      }
      if (error.code === -32603) internal.push(`${method} ${shown(params)}: ${error.message}`)
    }
  }
  // Params that are not an array, then each value at each position, the others left out or valid-looking.
  for (const params of ['0x1', 1, {}, true, deep(6000)]) await ask(params)
  for (let position = 0; position < 4; position++) {
    for (const value of CORPUS) {
      const params: unknown[] = Array.from({ length: position }, () => 'latest')
      params.push(value)
      await ask(params)
    }
  }
  await node.close()
  return internal
}

/** Params as a failure lists them (a deep value as its kind only). */
function shown(params: unknown): string {
  let text: string
  try {
    text = JSON.stringify(params)
  } catch {
    text = `<${Array.isArray(params) ? 'array' : typeof params} too deep to show>`
  }
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

// One test per method group, so a failure names its group and the sweep stays parallel-friendly.
const groups = new Map<string, string[]>()
for (const name of names) {
  const prefix = name.split('_')[0]
  groups.set(prefix, [...(groups.get(prefix) ?? []), name])
}

for (const [prefix, group] of groups) {
  test(`no malformed param makes a ${prefix}_ method answer -32603 (${group.length} methods)`, { timeout: 600_000 }, async () => {
    const internal: string[] = []
    for (const method of group) internal.push(...(await sweep(method)))
    expect(internal).toEqual([])
  })
}
