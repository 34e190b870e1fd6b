import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { describe, expect, test, vi } from 'vitest'
import { codeFeatures, isInstruction } from '../../../src/core/trace/codeFeatures.ts'
import { artifacts } from '../../support/chain.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { tracingChain, type TracingChain } from '../../support/tracing.ts'

let chain: TracingChain | undefined

/** The sandbox VM a replay of `blockNumber` runs on, with every `step` subscription counted. */
async function watchReplayVm(blockNumber: bigint) {
  const node = chain!.node
  const parent = node.chain.byNumber(blockNumber - 1n)!
  const sandbox = await node.state.sandbox(parent.header.stateRoot)
  const events = sandbox.vm.evm.events!
  const on = vi.spyOn(events, 'on')
  const listeners = () => ({ step: events.listenerCount('step'), before: events.listenerCount('beforeMessage'), after: events.listenerCount('afterMessage') })
  return { stepSubscriptions: () => on.mock.calls.filter(([event]) => event === 'step').length, listeners }
}

describe('what tracing costs', () => {
  test('mining never listens to the EVM; the call tracers listen to steps only when they must; every listener goes away', async () => {
    chain = await tracingChain()
    const { node, tracing, leafAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7))
    const minerEvents = node.state.vm.evm.events!
    expect(['step', 'beforeMessage', 'afterMessage'].map((event) => minerEvents.listenerCount(event as 'step'))).toEqual([0, 0, 0])

    const replay = await watchReplayVm(BigInt(mined.receipt.blockNumber))
    const idle = replay.listeners()
    for (const tracer of ['callTracer', 'flatCallTracer', 'prestateTracer']) {
      await call('debug_traceTransaction', mined.hash, { tracer })
      expect(replay.stepSubscriptions(), tracer).toBe(0)
      expect(replay.listeners()).toEqual(idle)
    }
    await call('debug_traceTransaction', mined.hash, { tracer: 'callTracer', tracerConfig: { withLog: true } })
    expect(replay.stepSubscriptions()).toBeGreaterThan(0) // the frames that log
    expect(replay.listeners()).toEqual(idle)
    await call('debug_traceTransaction', mined.hash, { tracer: 'structLogger' })
    expect(replay.listeners()).toEqual(idle)
  })

  test('listeners are removed when a trace fails', async () => {
    chain = await tracingChain({ limits: { maxTraceBytes: 1000 } })
    const { tracing, leafAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7))
    const replay = await watchReplayVm(BigInt(mined.receipt.blockNumber))
    const idle = replay.listeners()
    await expectRpcError(call('debug_traceTransaction', mined.hash, { tracer: 'structLogger' }), -32005, /^struct log exceeds the trace size limit/)
    expect(replay.listeners()).toEqual(idle)
  })
})

describe('codeFeatures', () => {
  test('finds instructions, not PUSH data, and ignores solc’s metadata trailer', () => {
    // PUSH2 0xf1fa (data), LOG0 (real), STOP.
    expect(codeFeatures(hexToBytes('0x61f1faa000'))).toEqual({ call: false, staticCall: false, log: true })
    expect(codeFeatures(hexToBytes('0xfa00'))).toEqual({ call: false, staticCall: true, log: false })
    // solc's metadata trailer starts with 0xa2, LOG2's byte: a lone STOP followed by Leaf's
    // trailer still never logs.
    const leaf = artifacts.Leaf.deployedBytecode
    const trailer = leaf.slice(leaf.lastIndexOf('a264697066735822'))
    expect(codeFeatures(hexToBytes(`0x00${trailer}` as PrefixedHexString))).toEqual({ call: false, staticCall: false, log: false })
    expect(codeFeatures(hexToBytes(artifacts.Tracing.deployedBytecode as PrefixedHexString))).toMatchObject({ call: true, staticCall: true, log: true })
  })

  test('isInstruction tells opcodes from PUSH data', () => {
    const code = hexToBytes('0x60ff00ff') // PUSH1 0xff, STOP, SELFDESTRUCT
    expect([0, 1, 2, 3].map((i) => isInstruction(code, i))).toEqual([true, false, true, true])
  })
})
