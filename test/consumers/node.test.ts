/**
 * pagenode in Node as installed: `pagenode/core` from a plain ESM script, and the `pagenode`
 * command (`npx pagenode`, `npx pagenode init`).
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, http, parseEther, webSocket, type Address } from 'viem'
import { zksyncInMemoryNode } from 'viem/chains'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createConsumer, stopConsumerProcesses, type Consumer } from './support/consumer.ts'

let app: Consumer

beforeAll(async () => {
  app = await createConsumer('node', {
    'script.mjs': `import { createNode } from 'pagenode/core'
import { createPublicClient, createWalletClient, custom, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'

const node = await createNode()
const transport = custom({ request: (args) => node.request(args) })
// A local account: viem signs, the node verifies and mines the raw transaction.
const account = privateKeyToAccount(node.accounts[0].privateKey)
const wallet = createWalletClient({ account, chain: zksyncInMemoryNode, transport })
const client = createPublicClient({ chain: zksyncInMemoryNode, transport })
const to = node.accounts[1].address
const hash = await wallet.sendTransaction({ to, value: parseEther('1') })
const receipt = await client.getTransactionReceipt({ hash })
const envelope = JSON.parse(await node.handleText(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_getBalance', params: [to, 'latest'] })))
await node.close()
console.log(JSON.stringify({ status: receipt.status, from: receipt.from, chainId: node.chainId, envelope }))
`,
  })
})

afterAll(stopConsumerProcesses)

test("a plain Node ESM script sends a transfer through pagenode/core with viem", async () => {
  const { stdout } = await app.run('node', ['script.mjs'])
  expect(JSON.parse(stdout)).toEqual({
    status: 'success',
    from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    chainId: 260,
    envelope: { jsonrpc: '2.0', id: 7, result: `0x${(10_001n * 10n ** 18n).toString(16)}` },
  })
})

test('npx pagenode serves JSON-RPC over HTTP: a transfer the node signs, read back with viem', async () => {
  const { match } = await app.start('npx', ['--no', '--', 'pagenode', '--port', '0'], /^Listening on (http:\/\/\S+)$/m)
  const transport = http(match[1])
  const client = createPublicClient({ chain: zksyncInMemoryNode, transport })
  const [from, to] = (await createWalletClient({ chain: zksyncInMemoryNode, transport }).getAddresses()) as [Address, Address]
  const wallet = createWalletClient({ account: from, chain: zksyncInMemoryNode, transport })
  const hash = await wallet.sendTransaction({ to, value: parseEther('1') })
  expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success')
  expect(await client.getBalance({ address: to })).toBe(10_001n * 10n ** 18n)
})

test('npx pagenode serves WebSocket on the same port: a request and a newHeads subscription with viem', async () => {
  const { match } = await app.start('npx', ['--no', '--', 'pagenode', '--port', '0'], /^Listening on (http:\/\/\S+)$/m)
  const transport = webSocket(match[1].replace(/^http/, 'ws'), { retryCount: 0 })
  const client = createPublicClient({ chain: zksyncInMemoryNode, transport })
  expect(await client.getChainId()).toBe(260)
  const heads: bigint[] = []
  const { unsubscribe } = await transport({ chain: zksyncInMemoryNode }).value!.subscribe({
    params: ['newHeads'],
    onData: (data) => void heads.push(BigInt((data.result as { number: string }).number)),
    onError: () => {},
  })
  const [from, to] = (await createWalletClient({ chain: zksyncInMemoryNode, transport: http(match[1]) }).getAddresses()) as [Address, Address]
  await createWalletClient({ account: from, chain: zksyncInMemoryNode, transport: http(match[1]) }).sendTransaction({ to, value: 1n })
  await expect.poll(() => heads).toEqual([1n])
  await unsubscribe()
})

test('npx pagenode init writes the prebuilt service worker, and with --worker the node worker', async () => {
  const { stdout } = await app.run('npx', ['--no', '--', 'pagenode', 'init', 'public', '--worker'])
  expect(stdout).toContain("startNode({ worker: '/pagenode-worker/nodeWorker.js' })")
  const shipped = join(app.dir, 'node_modules', 'pagenode', 'dist')
  expect(await readFile(join(app.dir, 'public', 'pagenode-sw.js'), 'utf8')).toBe(await readFile(join(shipped, 'sw', 'pagenode-sw.js'), 'utf8'))
  expect((await readdir(join(app.dir, 'public', 'pagenode-worker'))).sort()).toEqual((await readdir(join(shipped, 'worker'))).sort())
})

test('npx pagenode --version names the packed version', async () => {
  const { stdout } = await app.run('npx', ['--no', '--', 'pagenode', '--version'])
  const { version } = JSON.parse(await readFile(join(app.dir, 'node_modules', 'pagenode', 'package.json'), 'utf8')) as { version: string }
  expect(stdout.trim()).toBe(`pagenode v${version}`)
})
