import { BrowserProvider, Wallet, parseEther } from 'ethers'
import { createPublicClient, custom } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { startNode, type PageNode, ProviderRpcError } from '../../src/client/index.ts'

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const started: PageNode[] = []
const uniqueName = () => `runtime-${crypto.randomUUID()}`

/** The error a call rejects with (and a failure if it resolves). */
async function rejection(call: Promise<unknown>): Promise<ProviderRpcError> {
  const outcome = await call.then(
    () => undefined,
    (error: ProviderRpcError) => error,
  )
  if (!outcome) throw new Error('expected the call to fail')
  return outcome
}

async function start(options: Parameters<typeof startNode>[0] = {}): Promise<PageNode> {
  const node = await startNode({ name: uniqueName(), ...options })
  started.push(node)
  return node
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((node) => node.stop()))
})

test('the provider answers from the worker and reports connect', async () => {
  const node = await start({ persist: false })
  const connected = new Promise((resolve) => node.provider.on('connect', resolve))
  expect(await connected).toEqual({ chainId: '0x104' })
  expect(node.role).toBe('leader')
  expect(await node.provider.request({ method: 'eth_chainId' })).toBe('0x104')
  expect(await node.provider.request({ method: 'eth_accounts', params: [] })).toHaveLength(10)
})

test('errors arrive with code, message and data intact', async () => {
  const node = await start({ persist: false })
  const unknown = await rejection(node.provider.request({ method: 'eth_nope' }))
  expect(unknown).toBeInstanceOf(ProviderRpcError)
  expect(unknown.code).toBe(-32601)
  // A revert with Error("no"): code 3, the decoded reason and the raw revert bytes.
  const data = '0x08c379a0' + '20'.padStart(64, '0') + '2'.padStart(64, '0') + '6e6f'.padEnd(64, '0')
  // Code that copies the revert data (appended after its 14 bytes) to memory and reverts with it.
  const length = (data.length - 2) / 2
  const code = `0x61${length.toString(16).padStart(4, '0')}600e60003961${length.toString(16).padStart(4, '0')}6000fd${data.slice(2)}`
  const target = '0x00000000000000000000000000000000000000aa'
  const error = await rejection(
    node.provider.request({ method: 'eth_call', params: [{ to: target }, 'latest', { [target]: { code } }] }),
  )
  expect(error.code).toBe(3)
  expect(error.message).toBe('execution reverted: no')
  expect(error.data).toBe(data)
})

test('ethers and viem drive the node through the provider', async () => {
  const node = await start({ persist: false })
  const wallet = new Wallet(KEY, new BrowserProvider(node.provider))
  const receipt = await (await wallet.sendTransaction({ to: TO, value: parseEther('1.5') })).wait()
  expect(receipt?.status).toBe(1)
  const viem = createPublicClient({ transport: custom(node.provider) })
  expect(await viem.getBalance({ address: TO })).toBe(parseEther('10001.5'))
  expect(await viem.getBlockNumber()).toBe(1n)
})

test('subscriptions deliver newHeads, logs and pending transactions as message events', async () => {
  const node = await start({ persist: false })
  const messages: { subscription: string; result: Record<string, unknown> | string }[] = []
  node.provider.on('message', (message: unknown) => {
    const { type, data } = message as { type: string; data: (typeof messages)[number] }
    if (type === 'eth_subscription') messages.push(data)
  })
  const heads = (await node.provider.request({ method: 'eth_subscribe', params: ['newHeads'] })) as string
  const pending = (await node.provider.request({ method: 'eth_subscribe', params: ['newPendingTransactions'] })) as string
  const wallet = new Wallet(KEY, new BrowserProvider(node.provider))
  const sent = await wallet.sendTransaction({ to: TO, value: 1n })
  await sent.wait()
  await expect.poll(() => messages.length).toBeGreaterThanOrEqual(2)
  expect(messages.find((m) => m.subscription === pending)?.result).toBe(sent.hash)
  const head = messages.find((m) => m.subscription === heads)?.result as Record<string, unknown>
  expect(head.number).toBe('0x1')
  expect(head).not.toHaveProperty('transactions')
  expect(await node.provider.request({ method: 'eth_unsubscribe', params: [heads] })).toBe(true)
  expect(await node.provider.request({ method: 'eth_unsubscribe', params: [heads] })).toBe(false)
})

test('a chain persists in IndexedDB: a new worker on the same name finds it', async () => {
  const name = uniqueName()
  const first = await startNode({ name })
  const wallet = new Wallet(KEY, new BrowserProvider(first.provider))
  await (await wallet.sendTransaction({ to: TO, value: 7n })).wait()
  const head = await first.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })
  await first.stop()

  const second = await start({ name })
  expect(await second.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })).toEqual(head)
  expect(await second.provider.request({ method: 'eth_getBalance', params: [TO, 'latest'] })).toBe('0x21e19e0c9bab2400007')
})

test('when the worker dies, pending and later calls reject with 4900 and a new node can start', async () => {
  const node = await startNode({ name: uniqueName(), persist: false })
  const disconnected = new Promise((resolve) => node.provider.on('disconnect', resolve))
  const pending = rejection(node.provider.request({ method: 'eth_estimateGas', params: [{ to: TO }] }))
  node.terminate()
  expect((await pending).code).toBe(4900)
  expect(((await disconnected) as ProviderRpcError).code).toBe(4900)
  expect((await rejection(node.provider.request({ method: 'eth_chainId' }))).code).toBe(4900)
  const again = await start({ persist: false })
  expect(await again.provider.request({ method: 'eth_blockNumber' })).toBe('0x0')
})
