import { getCreate2Address, getCreateAddress, keccak256 } from 'ethers'
import { describe, expect, test } from 'vitest'
import { artifacts, DEV } from '../../support/chain.ts'
import { hex, leafAbi, tracingChain, type TracingChain } from '../../support/tracing.ts'

type Flat = Record<string, unknown> & { action: Record<string, string>; traceAddress: number[]; result?: Record<string, string> | null }

const ZERO_HASH = `0x${'00'.repeat(32)}`
const SALT = `0x${'77'.repeat(32)}`

let chain: TracingChain | undefined

describe('flatCallTracer, ZKsync shape', () => {
  test('every frame in order: type "call", the kind in callType, trace addresses led by the transaction’s position', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, tracingAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7, { value: 5 }))
    const flat = await call<Flat[]>('debug_traceTransaction', mined.hash, { tracer: 'flatCallTracer' })
    const position = Number(mined.receipt.transactionIndex)
    const meta = {
      transactionPosition: position,
      transactionHash: mined.hash,
      blockNumber: Number(mined.receipt.blockNumber),
      blockHash: mined.receipt.blockHash,
      type: 'call',
    }
    expect(flat).toHaveLength(4)
    expect(flat[0]).toEqual({
      action: { callType: 'call', from: DEV[0].address, to: tracingAddress, gas: mined.tx.gas, value: '0x5', input: mined.tx.input },
      result: { output: expect.any(String), gasUsed: mined.receipt.gasUsed },
      subtraces: 3,
      error: null,
      traceAddress: [position],
      ...meta,
    })
    expect(Object.keys(flat[0])).toEqual(['action', 'result', 'subtraces', 'error', 'traceAddress', 'transactionPosition', 'transactionHash', 'blockNumber', 'blockHash', 'type'])
    expect(flat.slice(1).map((entry) => ({ callType: entry.action.callType, to: entry.action.to, traceAddress: entry.traceAddress, subtraces: entry.subtraces }))).toEqual([
      { callType: 'call', to: leafAddress, traceAddress: [position, 0], subtraces: 0 },
      { callType: 'staticCall', to: leafAddress, traceAddress: [position, 1], subtraces: 0 },
      { callType: 'delegateCall', to: leafAddress, traceAddress: [position, 2], subtraces: 0 },
    ])
    for (const entry of flat) expect(entry).toMatchObject(meta)
  })

  test('a failed frame has no result and its revert reason (else its error) as the error', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, call, send } = chain
    const caught = await call<Flat[]>('debug_traceTransaction', (await send(tracing.caught(leafAddress))).hash, { tracer: 'flatCallTracer' })
    expect(caught[1]).toMatchObject({ result: null, error: 'leaf says no', action: { callType: 'staticCall', input: leafAbi.encodeFunctionData('fail', ['leaf says no']) } })
    const starved = await call<Flat[]>('debug_traceTransaction', (await send(tracing.starve(leafAddress))).hash, { tracer: 'flatCallTracer' })
    expect(starved[1]).toMatchObject({ result: null, error: 'out of gas', action: { gas: hex(50_000) } })
  })

  test('debug_traceCall: position 0, zero hashes, the block asked for', async () => {
    chain = await tracingChain()
    const { leafAddress, call } = chain
    const head = await call<string>('eth_blockNumber')
    const flat = await call<Flat[]>('debug_traceCall', { to: leafAddress, data: leafAbi.encodeFunctionData('peek') }, 'latest', { tracer: 'flatCallTracer' })
    expect(flat).toEqual([
      expect.objectContaining({ traceAddress: [0], transactionPosition: 0, transactionHash: ZERO_HASH, blockHash: ZERO_HASH, blockNumber: Number(head), error: null }),
    ])
  })

  test('block traces are [{txHash, result: [...]}]', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 1))
    const block = await call<{ txHash: string; result: Flat[] }[]>('debug_traceBlockByNumber', mined.receipt.blockNumber, { tracer: 'flatCallTracer' })
    expect(block).toEqual([{ txHash: mined.hash, result: await call('debug_traceTransaction', mined.hash, { tracer: 'flatCallTracer' }) }])
  })
})

describe('flatCallTracer, geth style', () => {
  test('parity shapes for calls, creates and self-destructs; top trace address is []', async () => {
    chain = await tracingChain({ tracing: 'geth' })
    const { tracing, tracingAddress, call, send } = chain
    const nonce = BigInt(await call<string>('eth_getTransactionCount', tracingAddress, 'latest'))
    const mined = await send(tracing.creates(SALT, { value: 4 }))
    const flat = await call<Flat[]>('debug_traceTransaction', mined.hash, { tracer: 'flatCallTracer' })
    const meta = {
      blockHash: mined.receipt.blockHash,
      blockNumber: Number(mined.receipt.blockNumber),
      transactionHash: mined.hash,
      transactionPosition: Number(mined.receipt.transactionIndex),
    }
    expect(flat[0]).toEqual({
      action: { callType: 'call', from: DEV[0].address, gas: mined.tx.gas, input: mined.tx.input, to: tracingAddress, value: '0x4' },
      ...meta,
      result: { gasUsed: mined.receipt.gasUsed, output: expect.any(String) },
      subtraces: 2,
      traceAddress: [],
      type: 'call',
    })
    expect(Object.keys(flat[0])).toEqual(['action', 'blockHash', 'blockNumber', 'result', 'subtraces', 'traceAddress', 'transactionHash', 'transactionPosition', 'type'])
    const created = getCreateAddress({ from: tracingAddress, nonce }).toLowerCase()
    const created2 = getCreate2Address(tracingAddress, SALT, keccak256(artifacts.Leaf.bytecode)).toLowerCase()
    expect(flat.slice(1)).toEqual([
      {
        action: { creationMethod: 'create', from: tracingAddress, gas: expect.any(String), init: artifacts.Leaf.bytecode, value: '0x2' },
        ...meta,
        result: { address: created, code: artifacts.Leaf.deployedBytecode, gasUsed: expect.any(String) },
        subtraces: 0,
        traceAddress: [0],
        type: 'create',
      },
      expect.objectContaining({ action: expect.objectContaining({ creationMethod: 'create2' }), result: expect.objectContaining({ address: created2 }), traceAddress: [1] }),
    ])

    const destroyed = await send(tracing.ephemeral(DEV[2].address, { value: 10 }))
    const suicide = (await call<Flat[]>('debug_traceTransaction', destroyed.hash, { tracer: 'flatCallTracer' })).find((entry) => entry.type === 'suicide')
    expect(suicide).toEqual({
      action: { address: getCreateAddress({ from: tracingAddress, nonce: nonce + 2n }).toLowerCase(), balance: hex(10), refundAddress: DEV[2].address },
      blockHash: destroyed.receipt.blockHash,
      blockNumber: Number(destroyed.receipt.blockNumber),
      subtraces: 0,
      traceAddress: [1, 0],
      transactionHash: destroyed.hash,
      transactionPosition: 0,
      type: 'suicide',
    })
  })

  test('precompile calls are left out unless includePrecompiles; errors in parity’s words with convertParityErrors', async () => {
    chain = await tracingChain({ tracing: 'geth' })
    const { tracing, leafAddress, call, send } = chain
    const hashes = await send(tracing.hashes.send('0x1234'))
    expect(await call<Flat[]>('debug_traceTransaction', hashes.hash, { tracer: 'flatCallTracer' })).toHaveLength(1)
    const all = await call<Flat[]>('debug_traceTransaction', hashes.hash, { tracer: 'flatCallTracer', tracerConfig: { includePrecompiles: true } })
    expect(all.map((entry) => [entry.action.callType, entry.action.to])).toEqual([
      ['call', chain.tracingAddress],
      ['staticcall', '0x0000000000000000000000000000000000000002'],
      ['staticcall', '0x0000000000000000000000000000000000000001'],
    ])
    expect(all[0].subtraces).toBe(2)

    const caught = await send(tracing.caught(leafAddress))
    const plain = await call<Flat[]>('debug_traceTransaction', caught.hash, { tracer: 'flatCallTracer' })
    // A revert keeps its result (the reason data); other failures lose it.
    expect(plain[1]).toMatchObject({ error: 'execution reverted', result: { output: expect.stringMatching(/^0x08c379a0/) } })
    const parity = await call<Flat[]>('debug_traceTransaction', caught.hash, { tracer: 'flatCallTracer', tracerConfig: { convertParityErrors: true } })
    expect(parity[1].error).toBe('Reverted')
    const starved = await call<Flat[]>('debug_traceTransaction', (await send(tracing.starve(leafAddress))).hash, {
      tracer: 'flatCallTracer',
      tracerConfig: { convertParityErrors: true },
    })
    expect(starved[1]).toMatchObject({ error: 'Out of gas', action: { callType: 'call', value: '0x0' } })
    expect(starved[1]).not.toHaveProperty('result')
  })

  test('debug_traceCall: no hashes, the block asked for', async () => {
    chain = await tracingChain({ tracing: 'geth' })
    const { leafAddress, call } = chain
    const flat = await call<Flat[]>('debug_traceCall', { to: leafAddress, data: leafAbi.encodeFunctionData('peek') }, '0x1', { tracer: 'flatCallTracer' })
    expect(flat).toEqual([expect.objectContaining({ blockHash: null, blockNumber: 1, transactionHash: null, transactionPosition: 0, traceAddress: [] })])
  })
})
