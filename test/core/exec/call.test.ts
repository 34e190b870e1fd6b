import { getCreateAddress, Interface, solidityPackedKeccak256, toBeHex, zeroPadValue, type Contract } from 'ethers'
import { describe, expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { artifacts, deploy, DEV, devWallet, rpc, startNode, withProbe } from '../../support/chain.ts'
import { failure } from '../../support/failure.ts'

const probeAbi = new Interface(artifacts.Probe.abi)
const errorAbi = new Interface(['error Error(string)', 'error Panic(uint256)'])
const FRESH = '0x00000000000000000000000000000000000000c0'
const POOR = '0x00000000000000000000000000000000000000c1'

/** Runtime code returning [CALLVALUE, BALANCE(CALLER), GASPRICE, BASEFEE] as four words. */
const ECHO_CODE = '0x345f523331602052' + '3a604052' + '48606052' + '60805ff3'
/** Runtime code that CREATEs an empty contract and returns its address. */
const CREATE_CODE = '0x5f5f5ff05f5260205ff3'

let node: Node | undefined


const encode = (fn: string, ...args: unknown[]) => probeAbi.encodeFunctionData(fn, args)
const word = (value: bigint | number) => zeroPadValue(toBeHex(value), 32)
const hex = (value: bigint | number) => `0x${value.toString(16)}`
const words = (hex: string) => (hex.slice(2).match(/.{64}/g) ?? []).map((w) => BigInt(`0x${w}`))

describe('eth_call', () => {
  test('returns the call result at latest and at past blocks', async () => {
    const { call, probe, address: to } = await withProbe()
    await (await probe.set(5)).wait() // block 2
    await (await probe.set(9)).wait() // block 3
    const valueAt = async (block: unknown) => call<string>('eth_call', { to, data: encode('value') }, block)

    expect(await valueAt('latest')).toBe(word(9))
    expect(await valueAt(undefined)).toBe(word(9))
    expect(await valueAt('0x1')).toBe(word(0))
    expect(await valueAt('0x2')).toBe(word(5))
    expect(await valueAt({ blockNumber: '0x2' })).toBe(word(5))
    const block2 = await call<{ hash: string }>('eth_getBlockByNumber', '0x2', false)
    expect(await valueAt({ blockHash: block2.hash })).toBe(word(5))
    // Before the deployment there is no code: a call to a code-less address returns nothing.
    expect(await valueAt('earliest')).toBe('0x')
  })

  test('a block that does not exist is an error', async () => {
    const { call, address: to } = await withProbe()
    expect(await failure(call('eth_call', { to, data: encode('value') }, '0x64'))).toMatchObject({
      code: -32000,
      message: 'header not found',
    })
    const unknown = `0x${'ab'.repeat(32)}`
    expect(await failure(call('eth_call', { to, data: encode('value') }, { blockHash: unknown }))).toMatchObject({
      code: -32000,
      message: `header for hash ${unknown} not found`,
    })
  })

  test('without `to` it runs the init code and returns the runtime code', async () => {
    node = await startNode()
    expect(await rpc(node)('eth_call', { from: DEV[0].address, data: artifacts.Probe.bytecode })).toBe(artifacts.Probe.deployedBytecode)
  })

  test('`input` and `data` are both accepted; equal is fine, different is -32602', async () => {
    const { call, address: to } = await withProbe()
    const data = encode('divide', 10, 2)
    expect(await call('eth_call', { to, input: data })).toBe(word(5))
    expect(await call('eth_call', { to, data, input: data })).toBe(word(5))
    expect(await failure(call('eth_call', { to, data, input: encode('divide', 10, 5) }))).toEqual({
      code: -32602,
      message: 'invalid argument 0 (call): both "data" and "input" are set and not equal; use "input"',
    })
  })

  test('bad call objects are -32602 naming the field', async () => {
    const { call, address: to } = await withProbe()
    expect(await failure(call('eth_call', { to: '0x12' }))).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^invalid argument 0 \(call\): to: expected a 20-byte address/),
    })
    expect(await failure(call('eth_call', { to, value: '0x01' }))).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^invalid argument 0 \(call\): value: expected a hex quantity/),
    })
    expect(await failure(call('eth_call', { to, gasPrice: '0x1', maxFeePerGas: '0x1' }))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified'),
    })
    expect(await failure(call('eth_call', 'latest'))).toMatchObject({ code: -32602 })
    expect(await failure(call('eth_call'))).toMatchObject({ code: -32602, message: 'missing value for required argument 0 (call)' })
  })

  describe('from, value and prices', () => {
    test('msg.sender is `from`, and an unpriced call sees the full balance', async () => {
      const { call, address: to } = await withProbe()
      const balance = await call<string>('eth_getBalance', DEV[1].address, 'latest')
      expect(await call('eth_call', { from: DEV[1].address, to, data: encode('balanceOfCaller') })).toBe(word(BigInt(balance)))
      // Without `from` the caller is the zero address, which holds nothing.
      expect(await call('eth_call', { to, data: encode('balanceOfCaller') })).toBe(word(0))
    })

    test('value is transferred before the code runs; more than the balance is refused', async () => {
      node = await startNode()
      const call = rpc(node)
      const overrides = { [FRESH]: { code: ECHO_CODE } }
      const balance = BigInt(await call<string>('eth_getBalance', DEV[1].address, 'latest'))
      const [value, callerBalance] = words(await call('eth_call', { from: DEV[1].address, to: FRESH, value: '0x3e8' }, 'latest', overrides))
      expect(value).toBe(1000n)
      expect(callerBalance).toBe(balance - 1000n)

      expect(await failure(call('eth_call', { from: POOR, to: FRESH, value: '0x1' }, 'latest', overrides))).toEqual({
        code: -32000,
        message: `insufficient funds for gas * price + value: address ${POOR} have 0 want 1`,
      })
    })

    test('gasPrice is GASPRICE and gas · price is taken from the sender up front', async () => {
      node = await startNode()
      const call = rpc(node)
      const balance = BigInt(await call<string>('eth_getBalance', DEV[1].address, 'latest'))
      const request = { from: DEV[1].address, to: FRESH, gas: hex(100_000), gasPrice: hex(10n ** 9n) }
      const [, callerBalance, gasPrice, baseFee] = words(await call('eth_call', request, 'latest', { [FRESH]: { code: ECHO_CODE } }))
      expect(gasPrice).toBe(10n ** 9n)
      expect(callerBalance).toBe(balance - 100_000n * 10n ** 9n)
      expect(baseFee).toBe(45_250_000n)
    })

    test('maxFeePerGas pays the base fee plus the tip; below the base fee is refused', async () => {
      node = await startNode()
      const call = rpc(node)
      const overrides = { [FRESH]: { code: ECHO_CODE } }
      const request = { from: DEV[1].address, to: FRESH, gas: hex(100_000), maxFeePerGas: hex(10n ** 9n), maxPriorityFeePerGas: '0x7' }
      const [, , gasPrice] = words(await call('eth_call', request, 'latest', overrides))
      expect(gasPrice).toBe(45_250_000n + 7n)

      const error = await failure(call('eth_call', { to: FRESH, maxFeePerGas: '0x1' }, 'latest', overrides))
      expect(error.code).toBe(-32000)
      expect(error.message).toMatch(/maxFeePerGas \(1\) is less than the block's baseFeePerGas \(45250000\)/)
    })

    test('a contract can be the sender, and its code is still there during the call', async () => {
      const { node, call, address: to } = await withProbe()
      await (await devWallet(node).sendTransaction({ to, value: 777n })).wait()
      // `to` is the sender itself: the call only returns its balance if its code is in place.
      expect(await call('eth_call', { from: to, to, data: encode('balanceOfCaller') })).toBe(word(777))
    })
  })

  describe('reverts', () => {
    test('Error(string): code 3, the reason in the message, the raw bytes in data', async () => {
      const { call, address: to } = await withProbe()
      expect(await failure(call('eth_call', { to, data: encode('failWith', 'not today') }))).toEqual({
        code: 3,
        message: 'execution reverted: not today',
        data: errorAbi.encodeErrorResult('Error', ['not today']),
      })
    })

    test('panics are decoded: division by zero and assert', async () => {
      const { call, address: to } = await withProbe()
      expect(await failure(call('eth_call', { to, data: encode('divide', 1, 0) }))).toEqual({
        code: 3,
        message: 'execution reverted: division or modulo by zero',
        data: errorAbi.encodeErrorResult('Panic', [0x12]),
      })
      expect(await failure(call('eth_call', { to, data: encode('assertFalse') }))).toEqual({
        code: 3,
        message: 'execution reverted: assert(false)',
        data: errorAbi.encodeErrorResult('Panic', [0x01]),
      })
    })

    test('a custom error keeps its raw data and a plain message', async () => {
      const { call, address: to } = await withProbe()
      const error = await failure(call('eth_call', { to, data: encode('failCustom', 42) }))
      expect(error).toEqual({ code: 3, message: 'execution reverted', data: probeAbi.encodeErrorResult('Custom', [42, 'custom']) })
      expect(probeAbi.parseError(error.data as string)?.args.toArray()).toEqual([42n, 'custom'])
    })

    test('a bare revert has data 0x', async () => {
      const { call, address: to } = await withProbe()
      expect(await failure(call('eth_call', { to, data: encode('failBare') }))).toEqual({
        code: 3,
        message: 'execution reverted',
        data: '0x',
      })
    })

    test('the revert travels through the JSON-RPC envelope with its data', async () => {
      const { node, address: to } = await withProbe()
      const reply = await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to, data: encode('failWith', 'x') }] })
      expect(reply).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: 3, message: 'execution reverted: x', data: errorAbi.encodeErrorResult('Error', ['x']) },
      })
    })

    test('ethers decodes what the node reports', async () => {
      const { probe } = await withProbe()
      await expect(probe.failWith.staticCall('because')).rejects.toMatchObject({ code: 'CALL_EXCEPTION', reason: 'because' })
      await expect(probe.failCustom.staticCall(3)).rejects.toMatchObject({
        code: 'CALL_EXCEPTION',
        revert: { name: 'Custom', args: [3n, 'custom'] },
      })
    })

    test('other failures are -32000 in geth words', async () => {
      const { call, address: to } = await withProbe()
      expect(await failure(call('eth_call', { to, data: encode('burn', 1000), gas: hex(30_000) }))).toEqual({
        code: -32000,
        message: 'out of gas',
      })
      expect(await failure(call('eth_call', { to: FRESH }, 'latest', { [FRESH]: { code: '0xfe' } }))).toEqual({
        code: -32000,
        message: 'invalid opcode',
      })
    })
  })

  describe('state overrides', () => {
    test('balance', async () => {
      const { call, address: to } = await withProbe()
      const overrides = { [DEV[1].address]: { balance: '0x1234' } }
      expect(await call('eth_call', { from: DEV[1].address, to, data: encode('balanceOfCaller') }, 'latest', overrides)).toBe(word(0x1234))
    })

    test('nonce (the address a CREATE gets depends on it)', async () => {
      node = await startNode()
      const result = await rpc(node)<string>('eth_call', { to: FRESH }, 'latest', { [FRESH]: { code: CREATE_CODE, nonce: '0x7' } })
      expect(result).toBe(zeroPadValue(getCreateAddress({ from: FRESH, nonce: 7 }), 32).toLowerCase())
    })

    test('code: a contract at a fresh address, with its own (empty) storage', async () => {
      const { call } = await withProbe()
      const overrides = { [FRESH]: { code: artifacts.Probe.deployedBytecode } }
      expect(await call('eth_call', { to: FRESH, data: encode('divide', 84, 2) }, 'latest', overrides)).toBe(word(42))
      expect(await call('eth_call', { to: FRESH, data: encode('value') }, 'latest', overrides)).toBe(word(0))
    })

    test('state replaces all storage; stateDiff patches one slot', async () => {
      const { call, probe, address: to } = await withProbe()
      await (await probe.fill(2)).wait()
      await (await probe.set(5)).wait()
      const slotOfSlots0 = solidityPackedKeccak256(['uint256', 'uint256'], [0, 1])
      const read = (fn: string, args: unknown[], overrides: unknown) =>
        call('eth_call', { to, data: encode(fn, ...args) }, 'latest', overrides)

      const state = { [to]: { state: { [word(0)]: word(7) } } }
      expect(await read('value', [], state)).toBe(word(7))
      expect(await read('slots', [0], state)).toBe(word(0))

      const stateDiff = { [to]: { stateDiff: { [word(0)]: word(7) } } }
      expect(await read('value', [], stateDiff)).toBe(word(7))
      expect(await read('slots', [0], stateDiff)).toBe(word(1))
      expect(await read('slots', [1], { [to]: { stateDiff: { [slotOfSlots0]: word(99) } } })).toBe(word(2))
      expect(await read('slots', [0], { [to]: { stateDiff: { [slotOfSlots0]: word(99) } } })).toBe(word(99))
    })

    test('overrides never leak into later calls or the chain', async () => {
      const { call, probe, address: to } = await withProbe()
      await (await probe.fill(1)).wait()
      await (await probe.set(5)).wait()
      const before = {
        block: await call('eth_blockNumber'),
        balance: await call('eth_getBalance', DEV[1].address, 'latest'),
        nonce: await call('eth_getTransactionCount', DEV[1].address, 'latest'),
      }
      const overrides = {
        [to]: { state: { [word(0)]: word(7) }, balance: '0x1' },
        [DEV[1].address]: { balance: '0x5', nonce: '0x9' },
        [FRESH]: { code: artifacts.Probe.deployedBytecode },
      }
      await call('eth_call', { from: DEV[1].address, to, data: encode('value') }, 'latest', overrides)
      await call('eth_call', { to, data: encode('value') }, 'latest', { [to]: { stateDiff: { [word(0)]: word(8) } } })

      expect(await call('eth_call', { to, data: encode('value') })).toBe(word(5))
      expect(await call('eth_call', { to, data: encode('slots', 0) })).toBe(word(1))
      expect(await call('eth_getStorageAt', to, '0x0', 'latest')).toBe(word(5))
      expect(await call('eth_getBalance', to, 'latest')).toBe('0x0')
      expect(await call('eth_getCode', FRESH, 'latest')).toBe('0x')
      expect(await call('eth_blockNumber')).toBe(before.block)
      expect(await call('eth_getBalance', DEV[1].address, 'latest')).toBe(before.balance)
      expect(await call('eth_getTransactionCount', DEV[1].address, 'latest')).toBe(before.nonce)
      expect(await probe.value()).toBe(5n)
    })

    test('bad overrides are -32602', async () => {
      const { call, address: to } = await withProbe()
      const run = (overrides: unknown) => call('eth_call', { to, data: encode('value') }, 'latest', overrides)
      expect(await failure(run({ [to]: { state: {}, stateDiff: {} } }))).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^invalid argument 2 \(stateOverrides\): .*both 'state' and 'stateDiff'/),
      })
      expect(await failure(run({ '0x1234': { balance: '0x1' } }))).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^invalid argument 2 \(stateOverrides\): expected a 20-byte address/),
      })
      expect(await failure(run({ [to]: { balance: 5 } }))).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/balance: expected a hex quantity/),
      })
    })
  })

  describe('block context', () => {
    test("a call at block N runs in block N's own context; at pending, in the next block's", async () => {
      let nowMs = 1_750_000_000_000
      node = await startNode({ now: () => nowMs })
      const call = rpc(node)
      const probe = (await deploy(devWallet(node), 'Probe')) as Contract
      await (await probe.set(1)).wait()
      const to = await probe.getAddress()
      type Header = { number: string; timestamp: string; miner: string }
      const head = await call<Header>('eth_getBlockByNumber', 'latest', false)
      const parent = await call<Header>('eth_getBlockByNumber', hex(BigInt(head.number) - 1n), false)
      nowMs += 10_000 // the wall clock moves on; mined blocks keep their time

      const [number, timestamp, basefee, chainid, coinbase] = words(await call('eth_call', { to, data: encode('context') }, 'latest'))
      expect([number, timestamp]).toEqual([BigInt(head.number), BigInt(head.timestamp)])
      expect(basefee).toBe(45_250_000n)
      expect(chainid).toBe(260n)
      expect(coinbase).toBe(BigInt(head.miner))
      // An older block: its own number and time (as geth and Hardhat answer).
      const [parentNumber, parentTime] = words(await call('eth_call', { to, data: encode('context') }, parent.number))
      expect([parentNumber, parentTime]).toEqual([BigInt(parent.number), BigInt(parent.timestamp)])
      // pending: the block to come, at the clock's time.
      const [next, nextTime] = words(await call('eth_call', { to, data: encode('context') }, 'pending'))
      expect([next, nextTime]).toEqual([BigInt(head.number) + 1n, BigInt(nowMs / 1000)])
      // The estimate and the trace run where the call does.
      const trace = await call<{ output: string }>('debug_traceCall', { to, data: encode('context') }, 'latest', { tracer: 'callTracer' })
      expect(words(trace.output).slice(0, 2)).toEqual([BigInt(head.number), BigInt(head.timestamp)])
    })

    test('BLOCKHASH gives the hashes eth_getBlockByNumber reports', async () => {
      const { call, probe, address: to } = await withProbe()
      await (await probe.set(1)).wait()
      await (await probe.set(2)).wait()
      for (const n of [0, 1, 2]) {
        const block = await call<{ hash: string }>('eth_getBlockByNumber', hex(n), false)
        expect(await call('eth_call', { to, data: encode('hashOf', n) })).toBe(block.hash)
      }
      // The block the call runs in (at latest, block 3 itself) is not among its own BLOCKHASHes.
      expect(await call('eth_call', { to, data: encode('hashOf', 3) })).toBe(word(0))
      // At pending the call runs in block 4, which sees block 3.
      const three = await call<{ hash: string }>('eth_getBlockByNumber', hex(3), false)
      expect(await call('eth_call', { to, data: encode('hashOf', 3) }, 'pending')).toBe(three.hash)
      expect(await call('eth_call', { to, data: encode('hashOf', 4) }, 'pending')).toBe(word(0))
    })
  })

  test('eth_call never changes state', async () => {
    const { call, probe, address: to } = await withProbe()
    await (await probe.set(5)).wait()
    const snapshot = async () => ({
      block: await call('eth_blockNumber'),
      nonce: await call('eth_getTransactionCount', DEV[1].address, 'pending'),
      balance: await call('eth_getBalance', DEV[1].address, 'latest'),
      probeBalance: await call('eth_getBalance', to, 'latest'),
      value: await call('eth_getStorageAt', to, '0x0', 'latest'),
    })
    const before = await snapshot()
    expect(await call('eth_call', { from: DEV[1].address, to, data: encode('set', 77) })).toBe('0x')
    expect(await call('eth_call', { from: DEV[1].address, to, value: '0x64' })).toBe('0x')
    expect(await call('eth_call', { from: DEV[1].address, to, data: encode('fill', 3), gasPrice: hex(10n ** 9n) })).toBe('0x')
    expect(await snapshot()).toEqual(before)
    expect(before.value).toBe(word(5))
  })
})
