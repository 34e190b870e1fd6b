import { AbiCoder, Interface, type Contract } from 'ethers'
import { describe, expect, test } from 'vitest'
import { createNode, type Node } from '../../../../src/core/node.ts'
import { expectRpcError } from '../../../support/expectRpc.ts'
import { artifacts, deploy, devWallet, rpc, startNode } from '../../../support/chain.ts'
import { leafAbi, tracingAbi, tracingChain, word, type TracingChain } from '../../../support/tracing.ts'

interface Frame {
  type: string
  gasUsed: string
  output: string
  calls: Frame[]
}

const UNKNOWN_HASH = `0x${'ab'.repeat(32)}`
const probeAbi = new Interface(artifacts.Probe.abi)

let node: Node | undefined
let chain: TracingChain | undefined

describe('debug_traceBlockByNumber / debug_traceBlockByHash', () => {
  test('every transaction of a block, in order, each replayed after the ones before it', async () => {
    chain = await tracingChain({ mining: { mode: 'manual' } })
    const { node: n, tracing, leafAddress, call } = chain
    const leaf = chain.leaf.connect(devWallet(n, 1)) as Contract
    const store = await leaf.store(11, { nonce: 0, gasLimit: 100_000 })
    const relay = await (tracing.connect(devWallet(n, 2)) as Contract).staticRelay.send(leafAddress, { nonce: 0, gasLimit: 200_000 })
    const fail = await (tracing.connect(devWallet(n, 0)) as Contract).fail.send('third', { gasLimit: 100_000 })
    const block = await n.miner.mine()
    expect(block.transactions).toHaveLength(3)

    const byNumber = await call<{ txHash: string; result: Frame }[]>('debug_traceBlockByNumber', `0x${block.number.toString(16)}`)
    const byHash = await call('debug_traceBlockByHash', block.hash)
    expect(byHash).toEqual(byNumber)
    expect(byNumber.map((entry) => entry.txHash)).toEqual([store.hash, relay.hash, fail.hash])
    for (const [i, entry] of byNumber.entries()) {
      expect(Object.keys(entry)).toEqual(['txHash', 'result'])
      expect(entry.result.gasUsed).toBe(`0x${block.transactions[i].receipt.gasUsed.toString(16)}`)
      expect(await call('debug_traceTransaction', entry.txHash)).toEqual(entry.result)
    }
    // The relay saw the store made earlier in the same block.
    expect(byNumber[1].result.output).toBe(AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256'], [12, 11]))
    expect(byNumber[2].result).toMatchObject({ error: 'execution reverted', revertReason: 'third' })
    expect(await call('debug_traceBlockByNumber', 'latest')).toEqual(byNumber)
  })

  test('a replay runs in the mined block’s own context: number, timestamp, base fee, coinbase', async () => {
    // A clock that moves 7 s per reading: each block gets a time of its own.
    let now = Date.UTC(2030, 0, 1)
    node = await startNode({ now: () => (now += 7000) })
    const probe = (await deploy(devWallet(node), 'Probe')) as Contract
    const sent = await probe.context.send()
    const receipt = await sent.wait()
    const call = rpc(node)
    const trace = await call<Frame>('debug_traceTransaction', sent.hash)
    const block = await call<{ number: string; timestamp: string; baseFeePerGas: string; miner: string }>('eth_getBlockByNumber', `0x${receipt!.blockNumber.toString(16)}`, false)
    const [number, timestamp, basefee, chainid, coinbase] = probeAbi.decodeFunctionResult('context', trace.output)
    expect({ number, timestamp, basefee, chainid, coinbase: coinbase.toLowerCase() }).toEqual({
      number: BigInt(block.number),
      timestamp: BigInt(block.timestamp),
      basefee: BigInt(block.baseFeePerGas),
      chainid: 260n,
      coinbase: block.miner,
    })
  })

  test('blocks without transactions, the genesis block included, trace as []', async () => {
    node = await startNode({ mining: { mode: 'manual' } })
    await node.miner.mine()
    const call = rpc(node)
    expect(await call('debug_traceBlockByNumber', '0x0')).toEqual([])
    expect(await call('debug_traceBlockByNumber', 'latest', { tracer: 'prestateTracer' })).toEqual([])
    expect(await call('debug_traceBlockByHash', (await call<{ hash: string }>('eth_getBlockByNumber', '0x1', false)).hash)).toEqual([])
  })

  test('the pending block is [], as on ZKsync: none is built (pending state is the head’s)', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, call, send } = chain
    await send(tracing.nested(leafAddress, 1))
    expect(await call('debug_traceBlockByNumber', 'latest')).toHaveLength(1)
    expect(await call('debug_traceBlockByNumber', 'pending')).toEqual([])
    await expectRpcError(call('debug_traceBlockByNumber', 'pending', { tracer: 'nope' }), -32602, /unknown tracer "nope"/)
  })

  test('an unknown block is an error, as for every method with a block', async () => {
    node = await startNode()
    const call = rpc(node)
    await expectRpcError(call('debug_traceBlockByNumber', '0x64'), -32000, 'header not found')
    await expectRpcError(call('debug_traceBlockByHash', UNKNOWN_HASH), -32000, `header for hash ${UNKNOWN_HASH} not found`)
    await expectRpcError(call('debug_traceCall', { to: UNKNOWN_HASH.slice(0, 42) }, '0x64'), -32000, 'header not found')
  })
})

describe('debug_traceTransaction', () => {
  test('an unknown or still pending transaction is null', async () => {
    node = await startNode({ mining: { mode: 'manual' } })
    const call = rpc(node)
    expect(await call('debug_traceTransaction', UNKNOWN_HASH)).toBeNull()
    const pending = await devWallet(node).sendTransaction({ to: UNKNOWN_HASH.slice(0, 42), value: 1, gasLimit: 21_000 })
    expect(await call('debug_traceTransaction', pending.hash)).toBeNull()
    await node.miner.mine()
    expect(await call('debug_traceTransaction', pending.hash)).toMatchObject({ type: 'call', gasUsed: '0x5208' })
  })

  test('tracing twice gives the same trace, and tracing leaves the chain as it was', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7))
    const head = await call('eth_getBlockByNumber', 'latest', false)
    const first = await call('debug_traceTransaction', mined.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } })
    expect(await call('debug_traceTransaction', mined.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } })).toEqual(first)
    expect(await call('eth_getBlockByNumber', 'latest', false)).toEqual(head)
    expect(await call('eth_call', { to: leafAddress, data: leafAbi.encodeFunctionData('peek') }, 'latest')).toBe(word(7))
  })
})

describe('which tracer answers', () => {
  test('ZKsync style: no config, {} and a config without tracer are the callTracer; the struct logger on request', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7))
    const callTrace = await call<Frame>('debug_traceTransaction', mined.hash, { tracer: 'callTracer' })
    expect(await call('debug_traceTransaction', mined.hash)).toEqual(callTrace)
    expect(await call('debug_traceTransaction', mined.hash, null)).toEqual(callTrace)
    expect(await call('debug_traceTransaction', mined.hash, {})).toEqual(callTrace)
    expect(await call('debug_traceTransaction', mined.hash, { timeout: '10s', reexec: 128 })).toEqual(callTrace)
    expect(await call('debug_traceTransaction', mined.hash, { tracer: 'structLogger' })).toHaveProperty('structLogs')
  })

  test('geth style: no tracer is the struct logger, as in geth', async () => {
    chain = await tracingChain({ tracing: 'geth' })
    const { tracing, leafAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7))
    const structLog = await call<{ gas: number; structLogs: unknown[] }>('debug_traceTransaction', mined.hash)
    expect(structLog.gas).toBe(Number(mined.receipt.gasUsed))
    expect(structLog.structLogs.length).toBeGreaterThan(100)
    expect(await call('debug_traceTransaction', mined.hash, { disableStack: true, limit: 5 })).toMatchObject({ structLogs: [expect.not.objectContaining({ stack: expect.anything() }), {}, {}, {}, {}] })
    expect(await call('debug_traceTransaction', mined.hash, { tracer: 'callTracer' })).toMatchObject({ type: 'CALL' })
  })

  test('the node option is checked', async () => {
    await expect(createNode({ tracing: 'parity' as never })).rejects.toThrow("tracing must be 'zksync' or 'geth', got parity")
  })
})

describe('bad input is -32602 naming the argument', () => {
  test('tracer names, tracerConfig values and options', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, call, send } = chain
    const { hash } = await send(tracing.nested(leafAddress, 7))
    const allowed = 'the tracers are callTracer, flatCallTracer, prestateTracer, 4byteTracer, noopTracer, muxTracer, structLogger'
    await expectRpcError(call('debug_traceTransaction', hash, { tracer: 'bigramTracer' }), -32602, `invalid argument 1 (config): tracer: unknown tracer "bigramTracer"; ${allowed}`)
    await expectRpcError(call('debug_traceTransaction', hash, { tracer: '{ step: function() {} }' }), -32602, /^invalid argument 1 \(config\): tracer: unknown tracer/)
    await expectRpcError(call('debug_traceTransaction', hash, { tracer: 7 }), -32602, `invalid argument 1 (config): tracer: unknown tracer 7; ${allowed}`)
    await expectRpcError(call('debug_traceBlockByNumber', '0x1', { tracer: 'nope' }), -32602, /^invalid argument 1 \(config\): tracer: unknown tracer "nope"/)
    await expectRpcError(call('debug_traceCall', { to: leafAddress }, 'latest', { tracer: 'nope' }), -32602, /^invalid argument 2 \(config\): tracer: unknown tracer "nope"/)
    await expectRpcError(
      call('debug_traceTransaction', hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: 'yes' } }),
      -32602,
      'invalid argument 1 (config): tracerConfig: onlyTopCall: expected true or false, got "yes"',
    )
    await expectRpcError(call('debug_traceTransaction', hash, { tracerConfig: [] }), -32602, 'invalid argument 1 (config): tracerConfig: expected an object, got []')
    await expectRpcError(call('debug_traceTransaction', hash, 'callTracer'), -32602, 'invalid argument 1 (config): expected an object, got "callTracer"')
    await expectRpcError(call('debug_traceTransaction', hash, { limit: -1 }), -32602, 'invalid argument 1 (config): limit: expected a non-negative integer, got -1')
    await expectRpcError(call('debug_traceTransaction', hash, { limit: '0x10' }), -32602, 'invalid argument 1 (config): limit: expected a non-negative integer, got "0x10"')
    await expectRpcError(call('debug_traceTransaction', hash, { enableMemory: 1 }), -32602, 'invalid argument 1 (config): enableMemory: expected true or false, got 1')
    await expectRpcError(call('debug_traceTransaction', hash, { timeout: 'soon' }), -32602, 'invalid argument 1 (config): timeout: expected a duration like "10s" or "500ms", got "soon"')
    await expectRpcError(
      call('debug_traceTransaction', hash, { stateOverrides: {} }),
      -32602,
      'invalid argument 1 (config): stateOverrides: state overrides apply to debug_traceCall only',
    )
    await expectRpcError(
      call('debug_traceCall', { to: leafAddress }, 'latest', { blockOverrides: { number: '0x1' } }),
      -32602,
      /^invalid argument 2 \(config\): blockOverrides: block overrides are not supported/,
    )
    await expectRpcError(
      call('debug_traceCall', { to: leafAddress }, 'latest', { stateOverrides: { [leafAddress]: { balance: 5 } } }),
      -32602,
      /^invalid argument 2 \(config\): stateOverrides: balance: expected a hex quantity/,
    )
  })

  test('hashes, blocks, call objects and argument counts', async () => {
    node = await startNode()
    const call = rpc(node)
    await expectRpcError(call('debug_traceTransaction'), -32602, 'missing value for required argument 0 (transactionHash)')
    await expectRpcError(call('debug_traceTransaction', '0x1234'), -32602, /^invalid argument 0 \(transactionHash\): expected a 32-byte hash/)
    await expectRpcError(call('debug_traceTransaction', UNKNOWN_HASH, {}, 1), -32602, 'too many arguments, want at most 2')
    await expectRpcError(call('debug_traceBlockByHash', 'latest'), -32602, /^invalid argument 0 \(blockHash\): expected a 32-byte hash/)
    await expectRpcError(call('debug_traceBlockByNumber'), -32602, 'missing value for required argument 0 (block)')
    await expectRpcError(call('debug_traceBlockByNumber', 'newest'), -32602, /^invalid argument 0 \(block\): expected a block number/)
    await expectRpcError(call('debug_traceCall'), -32602, 'missing value for required argument 0 (call)')
    await expectRpcError(call('debug_traceCall', { to: '0x12' }), -32602, /^invalid argument 0 \(call\): to: expected a 20-byte address/)
    await expectRpcError(call('debug_traceCall', { data: '0x00' }, 'soon'), -32602, /^invalid argument 1 \(block\): expected a block number/)
    await expectRpcError(call('debug_traceCall', {}, 'latest', {}, 1), -32602, 'too many arguments, want at most 3')
  })

  test('a call the node cannot run is refused as eth_call refuses it', async () => {
    chain = await tracingChain()
    const { tracingAddress, call } = chain
    const poor = '0x00000000000000000000000000000000000000c1'
    await expectRpcError(
      call('debug_traceCall', { from: poor, to: tracingAddress, value: '0x1', data: tracingAbi.encodeFunctionData('pay', [poor]) }),
      -32000,
      /^insufficient funds for gas \* price \+ value/,
    )
  })
})
