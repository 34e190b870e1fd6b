import { dataSlice } from 'ethers'
import { describe, expect, test } from 'vitest'
import { DEV } from '../../support/chain.ts'
import { leafAbi, tracingAbi, tracingChain } from '../../support/tracing.ts'

const selector = (abi: typeof tracingAbi, name: string) => dataSlice(abi.getFunction(name)!.selector, 0, 4)

describe('4byteTracer', () => {
  test("counts each selector with its argument size, the top call included, geth's keys in order", async () => {
    const { tracing, leafAddress, call, send } = await tracingChain()
    const mined = await send(tracing.nested(leafAddress, 7, { value: 5 }))
    const trace = await call<Record<string, number>>('debug_traceTransaction', mined.hash, { tracer: '4byteTracer' })
    // nested(address,uint256) at the top; store(uint256) by CALL and by DELEGATECALL; peek() by STATICCALL.
    const expected = {
      [`${selector(tracingAbi, 'nested')}-64`]: 1,
      [`${selector(leafAbi, 'store')}-32`]: 2,
      [`${selector(leafAbi, 'peek')}-0`]: 1,
    }
    expect(trace).toEqual(expected)
    expect(Object.keys(trace)).toEqual(Object.keys(expected).sort())
  })

  test('calls to precompiles, transfers and creations are not counted', async () => {
    const { tracingAddress, call } = await tracingChain()
    const data = tracingAbi.encodeFunctionData('hashes', ['0x1234'])
    // sha256 and ecrecover run as calls to 0x02 and 0x01: fancy opcodes, not functions.
    expect(await call('debug_traceCall', { to: tracingAddress, data }, 'latest', { tracer: '4byteTracer' })).toEqual({
      [`${selector(tracingAbi, 'hashes')}-96`]: 1,
    })
    expect(await call('debug_traceCall', { from: DEV[0].address, to: DEV[1].address, value: '0x1' }, 'latest', { tracer: '4byteTracer' })).toEqual({})
    expect(await call('debug_traceCall', { from: DEV[0].address, data: '0x6000' }, 'latest', { tracer: '4byteTracer' })).toEqual({})
  })
})
