/**
 * EIP-1193 conformance of the page's provider: every event it can emit, the error shape, and
 * the behaviour once the node is gone.
 */
import { expect, test } from 'vitest'
import { DISCONNECTED, ProviderRpcError } from '../../src/client/index.ts'
import { rejection, start, transfer, uniqueName } from '../support/browser/nodes.ts'

const memoryNode = () => start({ name: uniqueName('provider'), persist: false })

test('connect fires once after start, with the chain id, for a listener attached after startNode resolved', async () => {
  const node = await memoryNode()
  const events: unknown[] = []
  node.provider.on('connect', (info: unknown) => events.push(info))
  await expect.poll(() => events).toEqual([{ chainId: '0x104' }])
  expect(node.provider.connected).toBe(true)
  await node.provider.request({ method: 'eth_blockNumber' })
  expect(events).toHaveLength(1)
})

test('stop() emits disconnect (4900) once; later calls reject with 4900 and never hang', async () => {
  const node = await memoryNode()
  const disconnects: ProviderRpcError[] = []
  node.provider.on('disconnect', (error: ProviderRpcError) => disconnects.push(error))
  await node.stop()
  await node.stop()
  expect(disconnects).toHaveLength(1)
  expect(disconnects[0]).toBeInstanceOf(ProviderRpcError)
  expect(disconnects[0].code).toBe(DISCONNECTED)
  expect(node.provider.connected).toBe(false)
  const error = await rejection(node.provider.request({ method: 'eth_chainId' }))
  expect(error.code).toBe(DISCONNECTED)
  expect(error.message).toMatch(/stopped/)
})

test('when the worker dies, pending and later calls reject with 4900 and a new node can start', async () => {
  const node = await memoryNode()
  const disconnected = new Promise<ProviderRpcError>((resolve) => node.provider.on('disconnect', resolve))
  const pending = rejection(node.provider.request({ method: 'eth_estimateGas', params: [{ to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' }] }))
  node.terminate()
  expect((await pending).code).toBe(DISCONNECTED)
  expect((await disconnected).code).toBe(DISCONNECTED)
  expect((await rejection(node.provider.request({ method: 'eth_chainId' }))).code).toBe(DISCONNECTED)
  const again = await memoryNode()
  expect(await again.provider.request({ method: 'eth_blockNumber' })).toBe('0x0')
})

test('message events carry eth_subscription notifications', async () => {
  const node = await memoryNode()
  const messages: unknown[] = []
  node.provider.on('message', (message: unknown) => messages.push(message))
  const id = await node.provider.request({ method: 'eth_subscribe', params: ['newHeads'] })
  await transfer(node)
  await expect.poll(() => messages.length).toBeGreaterThan(0)
  expect(messages[0]).toMatchObject({ type: 'eth_subscription', data: { subscription: id, result: { number: '0x1' } } })
})

test('chainChanged and accountsChanged can be listened to and removed; a steady node never emits them', async () => {
  const node = await memoryNode()
  const heard: string[] = []
  const onChain = () => heard.push('chainChanged')
  const onAccounts = () => heard.push('accountsChanged')
  expect(node.provider.on('chainChanged', onChain)).toBe(node.provider)
  expect(node.provider.on('accountsChanged', onAccounts)).toBe(node.provider)
  node.provider.once('chainChanged', onChain)
  await node.provider.request({ method: 'eth_chainId' })
  await transfer(node)
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(node.provider.removeListener('chainChanged', onChain)).toBe(node.provider)
  expect(node.provider.removeListener('accountsChanged', onAccounts)).toBe(node.provider)
  expect(heard).toEqual([])
})

test('accountsChanged follows eth_accounts: an impersonated address joins it, and leaves it when stopped or reset', async () => {
  const node = await memoryNode()
  const heard: string[][] = []
  node.provider.on('accountsChanged', (accounts: string[]) => heard.push(accounts))
  const devAccounts = (await node.provider.request({ method: 'eth_accounts' })) as string[]
  const whale = '0x00000000000000000000000000000000000000aa'
  await node.provider.request({ method: 'anvil_impersonateAccount', params: [whale] })
  await expect.poll(() => heard).toEqual([[...devAccounts, whale]])
  expect(await node.provider.request({ method: 'eth_accounts' })).toEqual([...devAccounts, whale])
  // Impersonating it again changes nothing, so says nothing.
  await node.provider.request({ method: 'hardhat_impersonateAccount', params: [whale] })
  await node.provider.request({ method: 'anvil_stopImpersonatingAccount', params: [whale] })
  await expect.poll(() => heard).toEqual([[...devAccounts, whale], devAccounts])
  await node.provider.request({ method: 'anvil_impersonateAccount', params: [whale] })
  await node.provider.request({ method: 'anvil_reset', params: [] })
  await expect.poll(() => heard).toEqual([[...devAccounts, whale], devAccounts, [...devAccounts, whale], devAccounts])
})

test('a listener that throws does not keep the others from hearing an event', async () => {
  const node = await memoryNode()
  const heard: string[] = []
  const uncaught: unknown[] = []
  const onError = (event: ErrorEvent) => {
    event.preventDefault()
    uncaught.push(event.error)
  }
  window.addEventListener('error', onError)
  try {
    node.provider.on('disconnect', () => {
      throw new Error('listener bug')
    })
    node.provider.on('disconnect', () => heard.push('second'))
    await node.stop()
    expect(heard).toEqual(['second'])
    await expect.poll(() => uncaught.length).toBe(1)
  } finally {
    window.removeEventListener('error', onError)
  }
})

test('errors carry code, message and data: unknown method, bad params, rejected transaction, revert', async () => {
  const node = await memoryNode()
  const unknown = await rejection(node.provider.request({ method: 'eth_nope' }))
  expect(unknown).toBeInstanceOf(ProviderRpcError)
  expect(unknown).toBeInstanceOf(Error)
  expect(unknown).toMatchObject({ code: -32601, message: expect.stringContaining('eth_nope') })

  const bad = await rejection(node.provider.request({ method: 'eth_getBalance', params: ['0x1234', 'latest'] }))
  expect(bad.code).toBe(-32602)
  expect(bad.message).toMatch(/address/i)

  const garbage = await rejection(node.provider.request({ method: 'eth_sendRawTransaction', params: ['0x1234'] }))
  expect(garbage.code).toBeLessThan(0)

  // A contract that reverts with its own 4 bytes: code 3 and data '0xdeadbeef'.
  const target = '0x00000000000000000000000000000000000000aa'
  const reverting = '0x63deadbeef60e01b60005260046000fd' // PUSH4 deadbeef; PUSH1 e0; SHL; MSTORE 0; REVERT(0, 4)
  const reverted = await rejection(
    node.provider.request({ method: 'eth_call', params: [{ to: target }, 'latest', { [target]: { code: reverting } }] }),
  )
  expect(reverted).toMatchObject({ code: 3, data: '0xdeadbeef' })
  expect(reverted.message).toMatch(/^execution reverted/)
})

test('request() refuses a call without a method with -32600 before it reaches the node', async () => {
  const node = await memoryNode()
  for (const method of [undefined, '', 42]) {
    const error = await rejection(node.provider.request({ method } as unknown as { method: string }))
    expect(error.code).toBe(-32600)
  }
})

test('params structured clone refuses (a function) are -32602 naming the reason, and the node goes on', async () => {
  const node = await memoryNode()
  const error = await rejection(node.provider.request({ method: 'eth_getBalance', params: [() => 1, 'latest'] }))
  expect(error.code).toBe(-32602)
  expect(error.message).toMatch(/^invalid params: they cannot be sent to the node \(.*could not be cloned/)
  expect(await node.provider.request({ method: 'eth_blockNumber' })).toBe('0x0')
})

test('ping() is answered by the worker while the node runs, and rejects once it stopped', async () => {
  const node = await memoryNode()
  await node.ping()
  const [, blockNumber] = await Promise.all([node.ping(), node.provider.request({ method: 'eth_blockNumber' }), node.ping()])
  expect(blockNumber).toBe('0x0')
  await node.stop()
  await expect(node.ping()).rejects.toThrow(/stopped/)
})
