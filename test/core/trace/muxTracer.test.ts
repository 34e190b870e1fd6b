import { describe, expect, test } from 'vitest'
import { expectRpcError } from '../../support/expectRpc.ts'
import { tracingChain } from '../../support/tracing.ts'

describe('muxTracer and noopTracer', () => {
  test("muxTracer answers each tracer's own result under its name, as each alone answers it", async () => {
    const { tracing, leafAddress, call, send } = await tracingChain()
    const mined = await send(tracing.nested(leafAddress, 7, { value: 5 }))
    const config = {
      tracer: 'muxTracer',
      tracerConfig: { prestateTracer: { diffMode: true }, callTracer: { onlyTopCall: true }, '4byteTracer': {}, noopTracer: {} },
    }
    const trace = await call<Record<string, unknown>>('debug_traceTransaction', mined.hash, config)
    expect(Object.keys(trace)).toEqual(['4byteTracer', 'callTracer', 'noopTracer', 'prestateTracer'])
    expect(trace).toEqual({
      '4byteTracer': await call('debug_traceTransaction', mined.hash, { tracer: '4byteTracer' }),
      callTracer: await call('debug_traceTransaction', mined.hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } }),
      noopTracer: {},
      prestateTracer: await call('debug_traceTransaction', mined.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }),
    })
  })

  test('in a block every transaction is traced on the state the one before left: each tracer sees the same', async () => {
    const { tracing, leafAddress, call, node } = await tracingChain({ mining: { mode: 'manual' } })
    const first = await tracing.nested(leafAddress, 1)
    const second = await tracing.nested(leafAddress, 2)
    await node.miner.mine()
    await Promise.all([first.wait(), second.wait()])
    const config = { tracer: 'muxTracer', tracerConfig: { prestateTracer: {}, callTracer: {} } }
    const traces = await call<{ txHash: string; result: Record<string, unknown> }[]>('debug_traceBlockByNumber', 'latest', config)
    expect(traces.map((entry) => entry.txHash)).toEqual([first.hash, second.hash])
    for (const entry of traces) {
      expect(entry.result).toEqual({
        callTracer: await call('debug_traceTransaction', entry.txHash, { tracer: 'callTracer' }),
        prestateTracer: await call('debug_traceTransaction', entry.txHash, { tracer: 'prestateTracer' }),
      })
    }
  })

  test('noopTracer reports {}; an empty mux {}; bad mux configs are -32602', async () => {
    const { tracing, leafAddress, call, send, tracingAddress } = await tracingChain()
    const mined = await send(tracing.nested(leafAddress, 3))
    expect(await call('debug_traceTransaction', mined.hash, { tracer: 'noopTracer' })).toEqual({})
    expect(await call('debug_traceCall', { to: tracingAddress }, 'latest', { tracer: 'muxTracer' })).toEqual({})
    await expectRpcError(
      call('debug_traceTransaction', mined.hash, { tracer: 'muxTracer', tracerConfig: { fooTracer: {} } }),
      -32602,
      /^invalid argument 1 \(config\): tracerConfig: unknown tracer "fooTracer"/,
    )
    await expectRpcError(
      call('debug_traceTransaction', mined.hash, { tracer: 'muxTracer', tracerConfig: { muxTracer: {} } }),
      -32602,
      'invalid argument 1 (config): tracerConfig: muxTracer: a muxTracer cannot combine another muxTracer',
    )
    await expectRpcError(
      call('debug_traceTransaction', mined.hash, { tracer: 'muxTracer', tracerConfig: { callTracer: { onlyTopCall: 'yes' } } }),
      -32602,
      /^invalid argument 1 \(config\): tracerConfig: callTracer: onlyTopCall: expected true or false/,
    )
  })
})
