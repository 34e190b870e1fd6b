/**
 * An exception that is none of the node's typed errors is a bug in pagenode: the caller gets a
 * -32603 that says so and names the method, the error keeps the original as its cause (stack
 * intact), and the node reports it once, with the method and params (`onInternalError`).
 */
import { afterEach, describe, expect, test, vi } from 'vitest'
import { ErrorCode, MemoryStore, RpcError, type ChainCommit, type NodeConfig, type NodeSource, type Store } from '../../src/core/index.ts'
import { createNode, type Node } from '../../src/core/node.ts'
import { DEV } from '../support/chain.ts'

/**
 * A store whose node reads, once it holds a chain, find only its state root's trie node: any
 * other read fails with a TypeError, as a store with a bug would.
 */
class FaultyStore implements Store {
  private readonly memory = new MemoryStore()
  /** The node store's key of the stored head's state root (unprefixed hex), once there is a chain. */
  rootKey: string | undefined
  readonly thrown: TypeError[] = []
  readonly nodes: NodeSource = {
    get: async (key) => {
      if (this.rootKey === undefined || key === this.rootKey) return this.memory.nodes.get(key)
      return this.readSegments()
    },
  }

  load = () => this.memory.load()
  commit = (commit: ChainCommit) => this.memory.commit(commit)
  wipe = () => this.memory.wipe()
  close = () => this.memory.close()

  /** The store's bug: it reads a segment index it never made. */
  private readSegments(): never {
    const error = new TypeError("Cannot read properties of undefined (reading 'segments')")
    this.thrown.push(error)
    throw error
  }
}

const nodes: Node[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  await Promise.all(nodes.splice(0).map((node) => node.close()))
})

/** A node on a FaultyStore, and what its `onInternalError` was told. */
async function faultyNode(config: NodeConfig = {}) {
  const store = new FaultyStore()
  const first = await createNode({ store })
  const genesis = (await first.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })) as { stateRoot: string }
  store.rootKey = genesis.stateRoot.slice(2)
  await first.close()
  const reported: [RpcError, { method: string; params: unknown }][] = []
  const node = await createNode({ store, onInternalError: (error, call) => reported.push([error, call]), ...config })
  nodes.push(node)
  return { node, store, reported }
}

const balanceOf = [DEV[0].address, 'latest']
const BUG = /^internal error in eth_getBalance \(a bug in pagenode: please report it\): Cannot read properties of undefined \(reading 'segments'\)$/

describe('an unexpected exception', () => {
  test('rejects request() with a -32603 RpcError that says it is a bug, caused by the original, stack intact', async () => {
    const { node, store } = await faultyNode()
    const error = await node.request({ method: 'eth_getBalance', params: balanceOf }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcError)
    const rpcError = error as RpcError
    expect(rpcError.code).toBe(ErrorCode.internal)
    expect(rpcError.message).toMatch(BUG)
    expect(rpcError.cause).toBe(store.thrown[0])
    // The original's own stack, down to the line that threw.
    expect((rpcError.cause as Error).stack).toMatch(/^TypeError: Cannot read properties of undefined \(reading 'segments'\)\n\s+at FaultyStore\.readSegments /)
    // The node keeps serving what does not need those nodes.
    expect(await node.request({ method: 'eth_chainId' })).toBe('0x104')
  })

  test('is reported once, with the method and params, however the call came', async () => {
    const { node, store, reported } = await faultyNode()
    await expect(node.request({ method: 'eth_getBalance', params: balanceOf })).rejects.toThrow(BUG)
    expect(reported).toHaveLength(1)
    const [error, call] = reported[0]
    expect(call).toEqual({ method: 'eth_getBalance', params: balanceOf })
    expect(error.message).toMatch(BUG)
    expect(error.cause).toBe(store.thrown[0])

    // Through the JSON-RPC envelope (HTTP), in a batch: the answer carries code and message only.
    const answer = await node.handleText(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: balanceOf },
        { jsonrpc: '2.0', id: 2, method: 'eth_chainId' },
      ]),
    )
    expect(JSON.parse(answer!)).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: expect.stringMatching(BUG) } },
      { jsonrpc: '2.0', id: 2, result: '0x104' },
    ])
    expect(reported.map(([, call]) => call)).toEqual([
      { method: 'eth_getBalance', params: balanceOf },
      { method: 'eth_getBalance', params: balanceOf },
    ])
  })

  test('is reported even as a notification, which is not answered', async () => {
    const { node, reported } = await faultyNode()
    expect(await node.handle({ jsonrpc: '2.0', method: 'eth_getBalance', params: balanceOf })).toBeUndefined()
    expect(reported).toHaveLength(1)
  })

  test('goes to console.error by default', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { node, store } = await faultyNode({ onInternalError: undefined })
    await expect(node.request({ method: 'eth_getBalance', params: balanceOf })).rejects.toThrow(BUG)
    expect(logged).toHaveBeenCalledTimes(1)
    expect(logged.mock.calls[0]).toEqual([
      expect.stringMatching(/^pagenode: internal error in eth_getBalance \(a bug in pagenode/),
      { method: 'eth_getBalance', params: balanceOf, cause: store.thrown[0] },
    ])
  })

  test('a reporter that throws does not change the answer', async () => {
    const { node } = await faultyNode({
      onInternalError: () => {
        throw new Error('the log is full')
      },
    })
    await expect(node.request({ method: 'eth_getBalance', params: balanceOf })).rejects.toThrow(BUG)
  })
})

test('typed errors are answered as they are, and reported as nothing', async () => {
  const reported: unknown[] = []
  const node = await createNode({ onInternalError: (error) => reported.push(error) })
  nodes.push(node)
  await expect(node.request({ method: 'eth_getBalance', params: ['0x1', 'latest'] })).rejects.toMatchObject({ code: -32602 })
  await expect(node.request({ method: 'eth_nope' })).rejects.toMatchObject({ code: -32601 })
  await expect(node.request({ method: 'eth_getFilterChanges', params: ['0x1'] })).rejects.toMatchObject({ code: -32000, message: 'filter not found' })
  expect(reported).toEqual([])
})

test('onInternalError must be a function', async () => {
  await expect(createNode({ onInternalError: 'console' as unknown as NodeConfig['onInternalError'] })).rejects.toThrow(
    'onInternalError must be a function, got string',
  )
})
