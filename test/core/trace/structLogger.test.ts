import { getBytes, type Contract } from 'ethers'
import { afterEach, describe, expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { DEV, devWallet, rpc, startNode } from '../../support/chain.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { hex, tracingChain, word, type TracingChain } from '../../support/tracing.ts'

interface StructLog {
  pc: number
  op: string
  gas: number
  gasCost: number
  depth: number
  error?: string
  stack?: string[]
  returnData?: string
  memory?: string[]
  storage?: Record<string, string>
  refund?: number
}
interface StructResult {
  gas: number
  failed: boolean
  returnValue: string
  structLogs: StructLog[]
}

const CODE_AT = '0x00000000000000000000000000000000000c0de1'
const CALLEE = '0x00000000000000000000000000000000000c0de2'
const GAS = 100_000
const INTRINSIC = 21_000
const COLD_ACCOUNT = 2600
const VALUE_TRANSFER = 9000
const STIPEND = 2300

/** SSTORE 0x2a at slot 0, SLOAD it back, MSTORE it at 0, RETURN that word. */
const STORE_LOAD_RETURN = '0x602a60005560005460005260206000f3'

/** CALL `CALLEE` asking for `gas`, sending `value`, then STOP. */
function callCode(gas: number, value: number): string {
  return '0x' + '6000'.repeat(4) + `60${value.toString(16).padStart(2, '0')}` + '73' + CALLEE.slice(2) + `63${gas.toString(16).padStart(8, '0')}` + 'f1' + '00'
}

let node: Node | undefined
// A test's node is started once, on its first call (startNode closes it after the test).
afterEach(() => {
  node = undefined
})
let chain: TracingChain | undefined

/** Traces code put at CODE_AT by a state override (and CALLEE's, when given). */
async function traceCode(code: string, options: Record<string, unknown> = {}, callee?: string) {
  node ??= await startNode()
  const overrides: Record<string, unknown> = { [CODE_AT]: { code, balance: hex(10n ** 18n) } }
  if (callee) overrides[CALLEE] = { code: callee }
  return rpc(node)<StructResult>('debug_traceCall', { from: DEV[0].address, to: CODE_AT, gas: hex(GAS) }, 'latest', {
    tracer: 'structLogger',
    stateOverrides: overrides,
    ...options,
  })
}

describe('struct logger', () => {
  test('each opcode with pc, op, remaining gas, geth’s gas cost, depth, stack and the touched storage', async () => {
    const result = await traceCode(STORE_LOAD_RETURN)
    const costs = [3, 3, 22_100, 3, 100, 3, 6, 3, 3, 0] // SSTORE: cold slot set from zero; SLOAD: warm; MSTORE: one word of memory
    expect(result.structLogs.map(({ pc, op, gasCost, depth }) => ({ pc, op, gasCost, depth }))).toEqual(
      [
        [0, 'PUSH1'],
        [2, 'PUSH1'],
        [4, 'SSTORE'],
        [5, 'PUSH1'],
        [7, 'SLOAD'],
        [8, 'PUSH1'],
        [10, 'MSTORE'],
        [11, 'PUSH1'],
        [13, 'PUSH1'],
        [15, 'RETURN'],
      ].map(([pc, op], i) => ({ pc, op, gasCost: costs[i], depth: 1 })),
    )
    let gas = GAS - INTRINSIC
    for (const [i, entry] of result.structLogs.entries()) {
      expect(entry.gas, `entry ${i}`).toBe(gas)
      gas -= entry.gasCost
    }
    expect(result.structLogs.map((entry) => entry.stack)).toEqual([[], ['0x2a'], ['0x2a', '0x0'], [], ['0x0'], ['0x2a'], ['0x2a', '0x0'], [], ['0x20'], ['0x20', '0x0']])
    const slot = { ['0'.repeat(64)]: '2a'.padStart(64, '0') }
    expect(result.structLogs.map((entry) => entry.storage)).toEqual([undefined, undefined, slot, undefined, slot, undefined, undefined, undefined, undefined, undefined])
    expect(result).toMatchObject({ gas: INTRINSIC + costs.reduce((a, b) => a + b), failed: false, returnValue: word(0x2a) })
    expect(result.structLogs.every((entry) => entry.memory === undefined && entry.returnData === undefined && entry.error === undefined)).toBe(true)
  })

  test('enableMemory shows memory as 32-byte words before each opcode; disableStack and disableStorage drop those', async () => {
    const result = await traceCode(STORE_LOAD_RETURN, { enableMemory: true, disableStack: true, disableStorage: true })
    expect(result.structLogs.map((entry) => entry.memory)).toEqual([[], [], [], [], [], [], [], ['2a'.padStart(64, '0')], ['2a'.padStart(64, '0')], ['2a'.padStart(64, '0')]])
    for (const entry of result.structLogs) {
      expect(entry).not.toHaveProperty('stack')
      expect(entry).not.toHaveProperty('storage')
    }
  })

  test('CALL costs access + value transfer + the gas it forwards; the callee starts with that gas (plus the stipend)', async () => {
    for (const value of [0, 1]) {
      const result = await traceCode(callCode(0xffff, value), {}, '0x00')
      const [callStep, calleeStep, after] = result.structLogs.slice(-3)
      expect(callStep).toMatchObject({ op: 'CALL', depth: 1, gasCost: COLD_ACCOUNT + (value ? VALUE_TRANSFER : 0) + 0xffff })
      expect(calleeStep).toMatchObject({ op: 'STOP', depth: 2, gas: 0xffff + (value ? STIPEND : 0) })
      // The callee used nothing: the forwarded gas comes back, the stipend with it.
      expect(after).toMatchObject({ op: 'STOP', depth: 1, gas: callStep.gas - COLD_ACCOUNT - (value ? VALUE_TRANSFER - STIPEND : 0) })
    }
    // Asking for more than there is forwards all but 1/64th of what is left (EIP-150).
    const greedy = await traceCode(callCode(0xffffffff, 0), {}, '0x00')
    const [callStep, calleeStep] = greedy.structLogs.slice(-3)
    const available = callStep.gas - COLD_ACCOUNT
    const forwarded = available - Math.floor(available / 64)
    expect(callStep.gasCost).toBe(COLD_ACCOUNT + forwarded)
    expect(calleeStep.gas).toBe(forwarded)
  })

  test('enableReturnData shows what the last call returned', async () => {
    const returns42 = '0x602a60005260206000f3'
    const result = await traceCode(callCode(0xffff, 0), { enableReturnData: true }, returns42)
    const last = result.structLogs.at(-1)!
    expect(last).toMatchObject({ op: 'STOP', depth: 1, returnData: word(42) })
    expect(result.structLogs.filter((entry) => entry.depth === 1 && entry.op !== 'STOP').every((entry) => entry.returnData === undefined)).toBe(true)
  })

  test('a failing opcode carries the error; a revert does not, and returns its data', async () => {
    const badJump = await traceCode('0x600056') // PUSH1 0, JUMP to a non-JUMPDEST
    expect(badJump).toMatchObject({ gas: GAS, failed: true, returnValue: '0x' })
    expect(badJump.structLogs.map(({ op, error }) => ({ op, error }))).toEqual([
      { op: 'PUSH1', error: undefined },
      { op: 'JUMP', error: 'invalid jump destination' },
    ])
    const reverted = await traceCode('0x602a60005260206000fd') // MSTORE 42, REVERT one word
    expect(reverted).toMatchObject({ failed: true, returnValue: word(42) })
    expect(reverted.structLogs.at(-1)).toEqual(expect.objectContaining({ op: 'REVERT' }))
    expect(reverted.structLogs.some((entry) => 'error' in entry)).toBe(false)
  })

  test('limit keeps the first entries', async () => {
    const result = await traceCode(STORE_LOAD_RETURN, { limit: 3 })
    expect(result.structLogs.map((entry) => entry.op)).toEqual(['PUSH1', 'PUSH1', 'SSTORE'])
    expect(result.returnValue).toBe(word(0x2a))
  })

  test('a mined transaction: depth 1 and 2, the first opcode has the gas left after intrinsic gas, the total is the receipt’s', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7))
    const result = await call<StructResult>('debug_traceTransaction', mined.hash, { tracer: 'structLogger' })
    const data = getBytes(mined.tx.input)
    const intrinsic = INTRINSIC + data.reduce((sum, byte) => sum + (byte === 0 ? 4 : 16), 0)
    expect(result.structLogs[0]).toMatchObject({ pc: 0, depth: 1, gas: Number(mined.tx.gas) - intrinsic })
    expect(result.gas).toBe(Number(mined.receipt.gasUsed))
    expect(new Set(result.structLogs.map((entry) => entry.depth))).toEqual(new Set([1, 2]))
    expect(result).toMatchObject({ failed: false, returnValue: word(7) })
  })

  test('a struct log over the size limit is a clear -32005, and the node carries on', async () => {
    chain = await tracingChain({ limits: { maxTraceBytes: 20_000 } })
    const { tracing, leafAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7))
    await expectRpcError(
      call('debug_traceTransaction', mined.hash, { tracer: 'structLogger' }),
      -32005,
      /^struct log exceeds the trace size limit of 20000 bytes after \d+ steps; pass "limit", "disableStack"/,
    )
    const small = await call<StructResult>('debug_traceTransaction', mined.hash, { tracer: 'structLogger', limit: 10 })
    expect(small.structLogs).toHaveLength(10)
    expect(small.gas).toBe(Number(mined.receipt.gasUsed))
    const again = await send(tracing.nested(leafAddress, 8))
    expect(again.receipt.status).toBe('0x1')
  })

  test('the size limit spans a whole block trace', async () => {
    /** A block of two leaf.store transactions on a node with this struct log budget. */
    const blockOfTwo = async (maxTraceBytes: number) => {
      const built = await tracingChain({ mining: { mode: 'manual' }, limits: { maxTraceBytes } })
      const txs = []
      for (const [account, value] of [[1, 5], [2, 6]]) {
        txs.push(await (built.leaf.connect(devWallet(built.node, account)) as Contract).store(value, { nonce: 0, gasLimit: 100_000 }))
      }
      const block = await built.node.miner.mine()
      return { built, hashes: txs.map((tx) => tx.hash as string), number: `0x${block.number.toString(16)}` }
    }
    const roomy = await blockOfTwo(1e9)
    const sizes = []
    for (const hash of roomy.hashes) sizes.push(JSON.stringify(await roomy.built.call('debug_traceTransaction', hash, { tracer: 'structLogger' })).length)
    await roomy.built.node.close()

    const budget = Math.floor(0.75 * (sizes[0] + sizes[1]))
    const tight = await blockOfTwo(budget)
    chain = tight.built
    for (const hash of tight.hashes) expect(await chain.call('debug_traceTransaction', hash, { tracer: 'structLogger' })).toHaveProperty('structLogs')
    await expectRpcError(chain.call('debug_traceBlockByNumber', 'latest', { tracer: 'structLogger' }), -32005, /^struct log exceeds the trace size limit/)
  })
})
