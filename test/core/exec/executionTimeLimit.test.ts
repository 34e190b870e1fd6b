import { describe, expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { DEV, rpc, startNode } from '../../support/chain.ts'
import { signTx } from '../../support/rawTx.ts'

/** JUMPDEST, PUSH1 0, JUMP: loops until it runs out of gas (~20 s at the 50M gas cap, unlimited). */
const LOOP = '0x5b600056'
/** A contract whose runtime code is the loop: deployed code runs it on every call. */
const LOOP_INIT = '0x6004600c60003960046000f3' + LOOP.slice(2)
const LIMIT_MS = 300

/** Resolves after a task of the event loop: what a looping call must let happen. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 20))

/** Runs `looping`, then while it runs `cheap`: which one answered first, and both outcomes. */
async function alongside(node: Node, looping: () => Promise<unknown>, cheap: () => Promise<unknown>) {
  const order: string[] = []
  type Outcome = { value?: unknown; error?: unknown }
  const slow = looping().then(
    (value): Outcome => (order.push('loop'), { value }),
    (error: unknown): Outcome => (order.push('loop'), { error }),
  )
  await nextTask() // only a loop that yields lets this timer fire
  const quick = await cheap()
  order.push('cheap')
  return { order, quick, slow: await slow }
}

describe('the execution time limit', () => {
  test("a looping eth_call is aborted with geth's error, and a cheap call answers meanwhile", async () => {
    const node = await startNode({ limits: { evmTimeoutMs: LIMIT_MS } })
    const call = rpc(node)
    const { order, quick, slow } = await alongside(
      node,
      () => call('eth_call', { data: LOOP }),
      () => call('eth_getBalance', DEV[0].address, 'latest'),
    )
    expect(order).toEqual(['cheap', 'loop'])
    expect(BigInt(quick as string)).toBeGreaterThan(0n)
    expect(slow.error).toMatchObject({ code: -32000, message: 'execution aborted (timeout = 300ms)' })
  })

  test('a cheap eth_call at the same block runs beside the looping one (it does not wait for its sandbox)', async () => {
    const node = await startNode({ limits: { evmTimeoutMs: LIMIT_MS } })
    const call = rpc(node)
    const { order, quick, slow } = await alongside(
      node,
      () => call('eth_call', { data: LOOP }, 'latest'),
      () => call('eth_call', { data: '0x602a60005260206000f3' }, 'latest'), // returns 42
    )
    expect(order).toEqual(['cheap', 'loop'])
    expect(BigInt(quick as string)).toBe(42n)
    expect(slow.error).toMatchObject({ code: -32000, message: 'execution aborted (timeout = 300ms)' })
  })

  test('eth_estimateGas, the zks_ estimates and debug_traceCall stop at the limit too', async () => {
    const node = await startNode({ limits: { evmTimeoutMs: LIMIT_MS } })
    const call = rpc(node)
    const aborted = { code: -32000, message: 'execution aborted (timeout = 300ms)' }
    await expect(call('eth_estimateGas', { data: LOOP })).rejects.toMatchObject(aborted)
    await expect(call('zks_estimateFee', { data: LOOP })).rejects.toMatchObject(aborted)
    await expect(call('zks_estimateGasL1ToL2', { data: LOOP })).rejects.toMatchObject(aborted)
    // A trace, in geth's tracer words.
    await expect(call('debug_traceCall', { data: LOOP }, 'latest')).rejects.toMatchObject({ code: -32000, message: 'execution timeout' })
  })

  test("a trace's own timeout option replaces the node's limit", async () => {
    // No limit on the node, and a gas cap at which the loop ends by itself (out of gas).
    const call = rpc(await startNode({ limits: { evmTimeoutMs: 0, callGasCap: 2_000_000n } }))
    expect(await call('debug_traceCall', { data: LOOP }, 'latest', { tracer: 'callTracer' })).toMatchObject({ error: 'out of gas' })
    await expect(call('debug_traceCall', { data: LOOP }, 'latest', { tracer: 'callTracer', timeout: '1ms' })).rejects.toMatchObject({
      code: -32000,
      message: 'execution timeout',
    })
  })

  test('four looping calls at once each end at the limit, and a cheap call answers while they run', async () => {
    const node = await startNode({ limits: { evmTimeoutMs: LIMIT_MS } })
    const call = rpc(node)
    const { order, quick, slow } = await alongside(
      node,
      () => Promise.all([1, 2, 3, 4].map(() => call('eth_call', { data: LOOP }).catch((error: unknown) => error))),
      () => call('eth_chainId'),
    )
    expect(order).toEqual(['cheap', 'loop'])
    expect(quick).toBe('0x104')
    expect(slow.value).toEqual(Array(4).fill(expect.objectContaining({ code: -32000, message: 'execution aborted (timeout = 300ms)' })))
  })

  test('a replayed transaction (debug_traceTransaction) is limited, its mined block untouched', async () => {
    const node = await startNode({ limits: { evmTimeoutMs: LIMIT_MS } })
    const call = rpc(node)
    // Mined transactions are not time-limited (the block gas limit bounds them): a million gas of loop.
    const hash = await call<string>('eth_sendTransaction', { from: DEV[0].address, data: LOOP_INIT, gas: '0x100000' })
    const receipt = await call<{ contractAddress: string }>('eth_getTransactionReceipt', hash)
    const loopTx = await call<string>('eth_sendTransaction', { from: DEV[0].address, to: receipt.contractAddress, gas: '0x1000000' })
    const mined = await call<{ status: string; gasUsed: string }>('eth_getTransactionReceipt', loopTx)
    expect(mined).toMatchObject({ status: '0x0', gasUsed: '0x1000000' })
    // A short timeout makes the replay of that loop stop; a generous one traces it.
    await expect(call('debug_traceTransaction', loopTx, { timeout: '1ms' })).rejects.toMatchObject({ code: -32000, message: 'execution timeout' })
    const traced = await call<{ error: string }>('debug_traceTransaction', loopTx, { timeout: '60s' })
    expect(traced.error).toBe('out of gas')
    expect(await call('eth_getTransactionReceipt', loopTx)).toEqual(mined)
  })

  test("zks_sendRawTransactionWithDetailedOutput's simulation is limited: a looping transaction is refused, not pooled", async () => {
    const node = await startNode({ limits: { evmTimeoutMs: LIMIT_MS } })
    const call = rpc(node)
    // A creation whose init code loops, with a billion gas: mined, it would hold the miner that long.
    const raw = await signTx(DEV[0].key, { to: null, data: LOOP, gasLimit: 1_000_000_000n, value: 0n })
    await expect(call('zks_sendRawTransactionWithDetailedOutput', raw)).rejects.toMatchObject({ code: -32000, message: 'execution aborted (timeout = 300ms)' })
    expect(await call('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x0')
    expect(await call('eth_blockNumber')).toBe('0x0')
  })

  test('0 is no limit, as in geth', async () => {
    const node = await startNode({ limits: { evmTimeoutMs: 0, callGasCap: 2_000_000n } })
    await expect(rpc(node)('eth_call', { data: LOOP })).rejects.toMatchObject({ code: -32000, message: 'out of gas' })
  })

  test('a sandbox a timed-out call used still answers right (its frames unwound, nothing left behind)', async () => {
    const node = await startNode({ limits: { evmTimeoutMs: LIMIT_MS } })
    const call = rpc(node)
    await expect(call('eth_call', { data: LOOP })).rejects.toMatchObject({ message: 'execution aborted (timeout = 300ms)' })
    // The same sandbox (latest) again: a call that sees the state the loop's frames could have touched.
    expect(await call('eth_call', { data: '0x602a60005260206000f3' })).toBe(`0x${'00'.repeat(31)}2a`)
    expect(await call('eth_estimateGas', { from: DEV[0].address, to: DEV[1].address, value: '0x1' })).toBe('0x5208')
  })

  test('a block mined and a balance set while a call is paused change neither the call nor the chain', async () => {
    const node = await startNode({ limits: { evmTimeoutMs: 60_000 } })
    const call = rpc(node)
    const who = DEV[1].address
    // Counts 500,000 down (long enough to pause many times), then returns BALANCE(who).
    const countThenBalance = `0x620${(500_000).toString(16)}5b600190038060045750` + `73${who.slice(2)}31` + '60005260206000f3'
    const before = await call<string>('eth_getBalance', who, 'latest')
    const order: string[] = []
    const paused = call<string>('eth_call', { data: countThenBalance }, 'latest').finally(() => order.push('call answered'))
    await nextTask()
    const hash = await call<string>('eth_sendTransaction', { from: DEV[0].address, to: who, value: '0x1' })
    await call('anvil_setBalance', DEV[2].address, '0x2a')
    order.push('block mined, balance set')
    // The call saw the state of the block it started at, not the transfer mined meanwhile.
    expect(BigInt(await paused)).toBe(BigInt(before))
    expect(order).toEqual(['block mined, balance set', 'call answered'])
    // And the chain is as those changes left it.
    expect(await call('eth_getTransactionReceipt', hash)).toMatchObject({ status: '0x1' })
    expect(BigInt(await call<string>('eth_getBalance', who, 'latest'))).toBe(BigInt(before) + 1n)
    expect(await call('eth_getBalance', DEV[2].address, 'latest')).toBe('0x2a')
    expect(BigInt(await call<string>('eth_call', { data: countThenBalance }, 'latest'))).toBe(BigInt(before) + 1n)
  })

  test('anvil_reset waits for a paused call instead of wiping the state under it', async () => {
    const node = await startNode({ limits: { evmTimeoutMs: LIMIT_MS } })
    const call = rpc(node)
    const looping = call('eth_call', { data: LOOP }).catch((error: unknown) => error)
    await nextTask()
    await call('anvil_reset')
    // The loop ended at its limit, not with a missing trie node (an internal error).
    expect(await looping).toMatchObject({ code: -32000, message: 'execution aborted (timeout = 300ms)' })
    expect(await call('eth_blockNumber')).toBe('0x0')
  })
})
