import { AbiCoder, ContractFactory, getCreate2Address, getCreateAddress, keccak256, sha256, type Contract } from 'ethers'
import { describe, expect, test } from 'vitest'
import { artifacts, DEV, devWallet } from '../../support/chain.ts'
import { hex, leafAbi, tracingAbi, tracingChain, word, type MinedTx, type TracingChain } from '../../support/tracing.ts'

interface DebugCall {
  type: string
  from: string
  to: string
  gas: string
  gasUsed: string
  value: string
  output: string
  input: string
  error: string | null
  revertReason: string | null
  calls: DebugCall[]
  logs?: { address: string; topics: string[]; data: string; position: string }[]
}

type GethFrame = Record<string, unknown> & { type: string; calls?: GethFrame[] }

const DEBUG_CALL_KEYS = ['type', 'from', 'to', 'gas', 'gasUsed', 'value', 'output', 'input', 'error', 'revertReason', 'calls']
const abi = AbiCoder.defaultAbiCoder()
const errorData = (reason: string) => '0x08c379a0' + abi.encode(['string'], [reason]).slice(2)
const SALT = `0x${'5a'.repeat(32)}`

let chain: TracingChain | undefined

/** Every frame of a tree, depth first. */
function frames<T extends { calls?: T[] }>(root: T): T[] {
  return [root, ...(root.calls ?? []).flatMap((call) => frames(call))]
}

/** The top frame of a mined transaction: what the user sent, gas as signed, gasUsed as the receipt. */
function expectTop(trace: DebugCall, mined: MinedTx) {
  expect(trace).toMatchObject({
    from: mined.tx.from.toLowerCase(),
    gas: mined.tx.gas,
    gasUsed: mined.receipt.gasUsed,
    value: mined.tx.value,
    input: mined.tx.input,
  })
}

describe('callTracer, ZKsync DebugCall shape (the default)', () => {
  test('nested CALL, STATICCALL and DELEGATECALL; DELEGATECALL is from the caller to the code, with the inherited value', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, tracingAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7, { value: 5 }))
    const trace = await call<DebugCall>('debug_traceTransaction', mined.hash)

    for (const frame of frames(trace)) expect(Object.keys(frame)).toEqual(DEBUG_CALL_KEYS)
    expectTop(trace, mined)
    expect(trace).toMatchObject({ type: 'call', to: tracingAddress, value: '0x5', output: word(7), error: null, revertReason: null })
    expect(trace.calls.map(({ type, from, to, value, input, output, error }) => ({ type, from, to, value, input, output, error }))).toEqual([
      { type: 'call', from: tracingAddress, to: leafAddress, value: '0x0', input: leafAbi.encodeFunctionData('store', [7]), output: '0x', error: null },
      { type: 'staticCall', from: tracingAddress, to: leafAddress, value: '0x0', input: leafAbi.encodeFunctionData('peek'), output: word(7), error: null },
      { type: 'delegateCall', from: tracingAddress, to: leafAddress, value: '0x5', input: leafAbi.encodeFunctionData('store', [8]), output: '0x', error: null },
    ])
    for (const frame of frames(trace)) {
      expect(BigInt(frame.gasUsed)).toBeLessThanOrEqual(BigInt(frame.gas))
      for (const child of frame.calls) expect(BigInt(child.gas)).toBeLessThan(BigInt(frame.gas))
    }
    // The same SSTORE + LOG runs in both: one pays a cold slot in the leaf, the other in Tracing.
    expect(trace.calls[0].gasUsed).toBe(trace.calls[2].gasUsed)
  })

  test('CREATE and CREATE2 frames are to the new contracts, with the init code in and the runtime code out', async () => {
    chain = await tracingChain()
    const { tracing, tracingAddress, call, send } = chain
    const nonce = BigInt(await call<string>('eth_getTransactionCount', tracingAddress, 'latest'))
    const mined = await send(tracing.creates(SALT, { value: 10 }))
    const trace = await call<DebugCall>('debug_traceTransaction', mined.hash)

    expectTop(trace, mined)
    const created = getCreateAddress({ from: tracingAddress, nonce }).toLowerCase()
    const created2 = getCreate2Address(tracingAddress, SALT, keccak256(artifacts.Leaf.bytecode)).toLowerCase()
    expect(trace.output).toBe(abi.encode(['address', 'address'], [created, created2]))
    expect(trace.calls.map(({ type, from, to, value, input, output }) => ({ type, from, to, value, input, output }))).toEqual([
      { type: 'create', from: tracingAddress, to: created, value: '0x5', input: artifacts.Leaf.bytecode, output: artifacts.Leaf.deployedBytecode },
      { type: 'create2', from: tracingAddress, to: created2, value: '0x5', input: artifacts.Leaf.bytecode, output: artifacts.Leaf.deployedBytecode },
    ])
    expect(await call('eth_getCode', created, 'latest')).toBe(artifacts.Leaf.deployedBytecode)
  })

  test('a contract-creation transaction is a create frame to the receipt’s contract address', async () => {
    chain = await tracingChain()
    const { wallet, call, mined } = chain
    const factory = new ContractFactory(artifacts.Leaf.abi, artifacts.Leaf.bytecode, wallet)
    const deployment = await factory.deploy({ value: 3 })
    const receipt = await deployment.deploymentTransaction()!.wait()
    const tx = await mined(receipt!.hash)
    const trace = await call<DebugCall>('debug_traceTransaction', tx.hash)
    expectTop(trace, tx)
    expect(trace).toMatchObject({ type: 'create', to: tx.receipt.contractAddress, input: artifacts.Leaf.bytecode, output: artifacts.Leaf.deployedBytecode, calls: [] })
  })

  test('a value transfer to an account without code gets the 2300 gas stipend and uses none of it', async () => {
    chain = await tracingChain()
    const { tracing, tracingAddress, call, send } = chain
    const mined = await send(tracing.pay(DEV[2].address, { value: 1234 }))
    const trace = await call<DebugCall>('debug_traceTransaction', mined.hash)
    expectTop(trace, mined)
    expect(trace.calls).toEqual([
      { type: 'call', from: tracingAddress, to: DEV[2].address, gas: hex(2300), gasUsed: '0x0', value: hex(1234), output: '0x', input: '0x', error: null, revertReason: null, calls: [] },
    ])
  })

  test('a revert caught inside a successful transaction: the frame fails with its decoded reason', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, call, send } = chain
    const mined = await send(tracing.caught(leafAddress))
    expect(mined.receipt.status).toBe('0x1')
    const trace = await call<DebugCall>('debug_traceTransaction', mined.hash)
    expectTop(trace, mined)
    expect(trace).toMatchObject({ error: null, revertReason: null, output: abi.encode(['string'], ['leaf says no']) })
    expect(trace.calls).toHaveLength(1)
    expect(trace.calls[0]).toMatchObject({
      type: 'staticCall',
      to: leafAddress,
      input: leafAbi.encodeFunctionData('fail', ['leaf says no']),
      output: errorData('leaf says no'),
      error: 'execution reverted',
      revertReason: 'leaf says no',
    })
  })

  test('a reverted transaction: the top frame has the error, the reason and the revert data', async () => {
    chain = await tracingChain()
    const { tracingAddress, call, sendRaw } = chain
    const mined = await sendRaw({ to: tracingAddress, data: tracingAbi.encodeFunctionData('fail', ['nope']) })
    expect(mined.receipt.status).toBe('0x0')
    const trace = await call<DebugCall>('debug_traceTransaction', mined.hash)
    expectTop(trace, mined)
    expect(trace).toMatchObject({ error: 'execution reverted', revertReason: 'nope', output: errorData('nope'), calls: [] })
  })

  test('a sub-call that runs out of gas uses all it was given; the caller carries on', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, call, send } = chain
    const mined = await send(tracing.starve(leafAddress))
    const trace = await call<DebugCall>('debug_traceTransaction', mined.hash)
    expectTop(trace, mined)
    expect(trace.error).toBeNull()
    expect(trace.calls[0]).toMatchObject({
      type: 'call',
      to: leafAddress,
      gas: hex(50_000),
      gasUsed: hex(50_000),
      input: leafAbi.encodeFunctionData('spin'),
      output: '0x',
      error: 'out of gas',
      revertReason: null,
    })
  })

  test('precompile calls are frames with the precompile’s input and output', async () => {
    chain = await tracingChain()
    const { tracing, tracingAddress, call, send } = chain
    const data = '0xdeadbeef'
    const mined = await send(tracing.hashes.send(data))
    const trace = await call<DebugCall>('debug_traceTransaction', mined.hash)
    expectTop(trace, mined)
    const digest = sha256(data)
    const [, signer] = tracingAbi.decodeFunctionResult('hashes', await call<string>('eth_call', { to: tracingAddress, data: tracingAbi.encodeFunctionData('hashes', [data]) }))
    expect(trace.calls.map(({ type, to, input, output, error }) => ({ type, to, input, output, error }))).toEqual([
      { type: 'staticCall', to: '0x0000000000000000000000000000000000000002', input: data, output: digest, error: null },
      {
        type: 'staticCall',
        to: '0x0000000000000000000000000000000000000001',
        input: digest + word(27).slice(2) + word(1).slice(2) + word(2).slice(2),
        // No key signs (r=1, s=2): ecrecover returns nothing, which Solidity reads as address(0).
        output: BigInt(signer) === 0n ? '0x' : abi.encode(['address'], [signer]),
        error: null,
      },
    ])
  })

  test('inside a static frame, a CALL stays a call and a STATICCALL a staticCall', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, tracingAddress, call, send } = chain
    await send(tracing.nested(leafAddress, 4)) // leaf.stored = 4
    const request = { to: tracingAddress, data: tracingAbi.encodeFunctionData('staticRelay', [leafAddress]) }
    const trace = await call<DebugCall>('debug_traceCall', request, 'latest')
    expect(trace.output).toBe(abi.encode(['uint256', 'uint256'], [5, 4]))
    const relay = trace.calls[0]
    expect(relay).toMatchObject({ type: 'staticCall', from: tracingAddress, to: tracingAddress, input: tracingAbi.encodeFunctionData('relay', [leafAddress]) })
    expect(relay.calls.map(({ type, to, input }) => ({ type, to, input }))).toEqual([
      { type: 'call', to: leafAddress, input: leafAbi.encodeFunctionData('ping') },
      { type: 'staticCall', to: leafAddress, input: leafAbi.encodeFunctionData('peek') },
    ])
  })

  test('SELFDESTRUCT is a frame from the contract to the beneficiary carrying the balance', async () => {
    chain = await tracingChain()
    const { wallet, tracing, tracingAddress, call, send } = chain
    const funded = (await new ContractFactory(artifacts.Leaf.abi, artifacts.Leaf.bytecode, wallet).deploy({ value: 777 })) as Contract
    await funded.waitForDeployment()
    const fundedAddress = (await funded.getAddress()).toLowerCase()
    const mined = await send(tracing.destroy(fundedAddress, DEV[2].address))
    const trace = await call<DebugCall>('debug_traceTransaction', mined.hash)
    expectTop(trace, mined)
    expect(trace.calls[0]).toMatchObject({ type: 'call', from: tracingAddress, to: fundedAddress, input: leafAbi.encodeFunctionData('destroy', [DEV[2].address]) })
    expect(trace.calls[0].calls).toEqual([
      { type: 'selfDestruct', from: fundedAddress, to: DEV[2].address, gas: '0x0', gasUsed: '0x0', value: hex(777), output: '0x', input: '0x', error: null, revertReason: null, calls: [] },
    ])
  })

  test('a failed CREATE2 (address collision) keeps the address it would have had', async () => {
    chain = await tracingChain()
    const { tracing, tracingAddress, call, send, sendRaw } = chain
    await send(tracing.creates(SALT))
    const mined = await sendRaw({ to: tracingAddress, data: tracingAbi.encodeFunctionData('creates', [SALT]) })
    expect(mined.receipt.status).toBe('0x0')
    const trace = await call<DebugCall>('debug_traceTransaction', mined.hash)
    expectTop(trace, mined)
    expect(trace.error).toBe('execution reverted')
    const collided = trace.calls[1]
    expect(collided).toMatchObject({
      type: 'create2',
      to: getCreate2Address(tracingAddress, SALT, keccak256(artifacts.Leaf.bytecode)).toLowerCase(),
      error: 'contract address collision',
      output: '0x',
    })
    expect(collided.gasUsed).toBe(collided.gas)
  })

  test('onlyTopCall leaves the sub-calls out and changes nothing else', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7))
    const full = await call<DebugCall>('debug_traceTransaction', mined.hash, { tracer: 'callTracer' })
    const top = await call<DebugCall>('debug_traceTransaction', mined.hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } })
    expect(top).toEqual({ ...full, calls: [] })
  })

  test('withLog: each frame’s logs in order, positioned among its calls; a reverted frame’s logs are dropped', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, tracingAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7))
    const trace = await call<DebugCall>('debug_traceTransaction', mined.hash, { tracerConfig: { withLog: true } })
    const logs = (frame: DebugCall) => frame.logs!.map(({ address, topics, data }) => ({ address, topics, data }))
    const receiptLogs = mined.receipt.logs.map(({ address, topics, data }) => ({ address, topics, data }))
    // Execution order: Step(1), the CALL's Stored(7), the DELEGATECALL's Stored(8) on Tracing, Step(2).
    expect([logs(trace)[0], ...logs(trace.calls[0]), ...logs(trace.calls[2]), logs(trace)[1]]).toEqual(receiptLogs)
    expect(trace.logs!.map((log) => log.position)).toEqual(['0x0', '0x3'])
    expect(trace.calls[2].logs![0].address).toBe(tracingAddress)
    expect(trace.calls[1].logs).toEqual([])

    const undone = await send(tracing.undone(leafAddress))
    const withFailure = await call<DebugCall>('debug_traceTransaction', undone.hash, { tracerConfig: { withLog: true } })
    expect(withFailure.calls[0]).toMatchObject({ error: 'execution reverted', revertReason: 'undone', logs: [] })
    expect(logs(withFailure)).toEqual(undone.receipt.logs.map(({ address, topics, data }) => ({ address, topics, data })))
    expect(withFailure.logs![0].position).toBe('0x1')
  })

  test('the top frame spans the whole transaction: its gasUsed is the receipt’s for every kind of transaction', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, call, send } = chain
    const txs = [
      await send(tracing.nested(leafAddress, 1, { value: 1 })),
      await send(tracing.creates(SALT, { value: 2 })),
      await send(tracing.caught(leafAddress)),
      await send(tracing.starve(leafAddress)),
      await send(tracing.hashes.send('0x01')),
      await send(tracing.ephemeral(DEV[2].address, { value: 9 })),
    ]
    for (const mined of txs) {
      const trace = await call<DebugCall>('debug_traceTransaction', mined.hash)
      expect(trace.gasUsed, mined.hash).toBe(mined.receipt.gasUsed)
      expect(trace.gas).toBe(mined.tx.gas)
    }
  })
})

describe('callTracer, geth style (tracing: "geth")', () => {
  test('uppercase types, geth’s key order, empty keys left out, STATICCALL without value', async () => {
    chain = await tracingChain({ tracing: 'geth' })
    const { tracing, leafAddress, tracingAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7, { value: 5 }))
    const trace = await call<GethFrame>('debug_traceTransaction', mined.hash, { tracer: 'callTracer' })
    expect(trace).toEqual({
      from: DEV[0].address,
      gas: mined.tx.gas,
      gasUsed: mined.receipt.gasUsed,
      to: tracingAddress,
      input: mined.tx.input,
      output: word(7),
      calls: [
        expect.objectContaining({ from: tracingAddress, to: leafAddress, input: leafAbi.encodeFunctionData('store', [7]), value: '0x0', type: 'CALL' }),
        expect.objectContaining({ from: tracingAddress, to: leafAddress, input: leafAbi.encodeFunctionData('peek'), output: word(7), type: 'STATICCALL' }),
        expect.objectContaining({ from: tracingAddress, to: leafAddress, input: leafAbi.encodeFunctionData('store', [8]), value: '0x5', type: 'DELEGATECALL' }),
      ],
      value: '0x5',
      type: 'CALL',
    })
    expect(Object.keys(trace)).toEqual(['from', 'gas', 'gasUsed', 'to', 'input', 'output', 'calls', 'value', 'type'])
    const [store, peek] = trace.calls!
    expect(Object.keys(store)).toEqual(['from', 'gas', 'gasUsed', 'to', 'input', 'value', 'type'])
    expect(Object.keys(peek)).toEqual(['from', 'gas', 'gasUsed', 'to', 'input', 'output', 'type'])
  })

  test('failures: a revert keeps output and reason, out of gas has neither, a failed CREATE2 has no `to`', async () => {
    chain = await tracingChain({ tracing: 'geth' })
    const { tracing, leafAddress, tracingAddress, call, send, sendRaw } = chain
    const caught = await call<GethFrame>('debug_traceTransaction', (await send(tracing.caught(leafAddress))).hash, { tracer: 'callTracer' })
    expect(caught.calls![0]).toEqual({
      from: tracingAddress,
      gas: expect.any(String),
      gasUsed: expect.any(String),
      to: leafAddress,
      input: leafAbi.encodeFunctionData('fail', ['leaf says no']),
      output: errorData('leaf says no'),
      error: 'execution reverted',
      revertReason: 'leaf says no',
      type: 'STATICCALL',
    })
    const starved = await call<GethFrame>('debug_traceTransaction', (await send(tracing.starve(leafAddress))).hash, { tracer: 'callTracer' })
    expect(starved.calls![0]).toEqual({
      from: tracingAddress,
      gas: hex(50_000),
      gasUsed: hex(50_000),
      to: leafAddress,
      input: leafAbi.encodeFunctionData('spin'),
      error: 'out of gas',
      value: '0x0',
      type: 'CALL',
    })
    await send(tracing.creates(SALT))
    const collision = await sendRaw({ to: tracingAddress, data: tracingAbi.encodeFunctionData('creates', [SALT]) })
    const collided = await call<GethFrame>('debug_traceTransaction', collision.hash, { tracer: 'callTracer' })
    expect(collided).toMatchObject({ error: 'execution reverted', gasUsed: collision.receipt.gasUsed })
    expect(collided.calls![1]).toEqual({
      from: tracingAddress,
      gas: expect.any(String),
      gasUsed: expect.any(String),
      input: artifacts.Leaf.bytecode,
      error: 'contract address collision',
      value: '0x0',
      type: 'CREATE2',
    })
  })

  test('SELFDESTRUCT frame and withLog in geth’s shape', async () => {
    chain = await tracingChain({ tracing: 'geth' })
    const { tracing, tracingAddress, call, send } = chain
    const mined = await send(tracing.ephemeral(DEV[2].address, { value: 1000 }))
    const trace = await call<GethFrame>('debug_traceTransaction', mined.hash, { tracer: 'callTracer', tracerConfig: { withLog: true } })
    const created = getCreateAddress({ from: tracingAddress, nonce: 1 }).toLowerCase()
    expect(trace.calls!.map((frame) => frame.type)).toEqual(['CREATE', 'CALL'])
    expect(trace.calls![1].calls).toEqual([
      { from: created, gas: '0x0', gasUsed: '0x0', to: DEV[2].address, input: '0x', value: hex(1000), type: 'SELFDESTRUCT' },
    ])
    expect(trace).not.toHaveProperty('logs') // no logs in this transaction: the key is left out
  })
})

describe('debug_traceCall with the callTracer', () => {
  test('runs like eth_call: the top frame has the call’s gas (the cap when none is given) and what a transaction would use', async () => {
    chain = await tracingChain()
    const { tracing, tracingAddress, call, send } = chain
    const data = tracingAbi.encodeFunctionData('hashes', ['0xabcd'])
    const request = { from: DEV[1].address, to: tracingAddress, data }
    const traced = await call<DebugCall>('debug_traceCall', request, 'latest')
    expect(traced).toMatchObject({ type: 'call', from: DEV[1].address, to: tracingAddress, gas: hex(50_000_000n), input: data, error: null })
    expect(traced.output).toBe(await call('eth_call', request, 'latest'))
    // The same call mined as a transaction from the same sender on the same state uses the same gas.
    const mined = await send((tracing.connect(devWallet(chain.node, 1)) as Contract).hashes.send('0xabcd'))
    expect(traced.gasUsed).toBe(mined.receipt.gasUsed)
    const limited = await call<DebugCall>('debug_traceCall', { ...request, gas: hex(100_000) }, 'latest')
    expect(limited.gas).toBe(hex(100_000))
  })

  test('a reverting call is traced, not refused', async () => {
    chain = await tracingChain()
    const { tracingAddress, call } = chain
    const trace = await call<DebugCall>('debug_traceCall', { to: tracingAddress, data: tracingAbi.encodeFunctionData('fail', ['x']) }, 'latest')
    expect(trace).toMatchObject({ error: 'execution reverted', revertReason: 'x', output: errorData('x') })
  })

  test('at a past block, and with state overrides from the config', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, call, send } = chain
    const before = await call<string>('eth_blockNumber')
    await send(tracing.nested(leafAddress, 9))
    const peek = { to: leafAddress, data: leafAbi.encodeFunctionData('peek') }
    expect((await call<DebugCall>('debug_traceCall', peek, 'latest')).output).toBe(word(9))
    expect((await call<DebugCall>('debug_traceCall', peek, before)).output).toBe(word(0))
    const overridden = await call<DebugCall>('debug_traceCall', peek, 'latest', { stateOverrides: { [leafAddress]: { stateDiff: { [word(0)]: word(42) } } } })
    expect(overridden.output).toBe(word(42))
    const replaced = await call<DebugCall>('debug_traceCall', peek, 'latest', { tracer: 'callTracer', stateOverrides: { [leafAddress]: { state: {} } } })
    expect(replaced.output).toBe(word(0))
    // Overrides never stick.
    expect((await call<DebugCall>('debug_traceCall', peek, 'latest')).output).toBe(word(9))
  })
})
