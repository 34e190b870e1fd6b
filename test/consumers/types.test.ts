/**
 * A TypeScript consumer as strict as they come (strict, noUncheckedIndexedAccess, and
 * skipLibCheck off, so pagenode's declarations are checked too) compiles every entry with zero
 * errors from pagenode, with bundler resolution (apps) and with Node's own (nodenext).
 */
import { afterAll, expect, test } from 'vitest'
import { createConsumer, stopConsumerProcesses } from './support/consumer.ts'

const STRICT = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  skipLibCheck: false,
  noEmit: true,
  target: 'ES2022',
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
}

const APP = `import { startNode, ProviderRpcError, type PageNode, type StartOptions } from 'pagenode'
import { useChain, type TestChain } from 'pagenode/testing'
import pagenode from 'pagenode/vite'

const options: StartOptions = { name: 'app', persist: false, mining: { mode: 'interval', intervalMs: 500 }, worker: '/pagenode-worker/nodeWorker.js' }
export async function start(): Promise<PageNode> {
  const node = await startNode(options)
  node.provider.on('message', (message) => console.log(message.data.subscription))
  const accounts = (await node.provider.request({ method: 'eth_accounts' })) as string[]
  const first: string | undefined = accounts[0]
  console.log(first, node.role, node.baseUrls)
  return node
}
export const isRpcError = (error: unknown): error is ProviderRpcError => error instanceof ProviderRpcError
export const chain: TestChain = useChain({ persist: true })
export const plugin = pagenode()
`

const SCRIPT = `import { createNode, ErrorCode, RpcError, type Pagenode, type MinedBlock } from 'pagenode/core'

const node: Pagenode = await createNode({ chainId: 260, mining: { mode: 'manual' }, limits: { maxLogResults: 100 } })
const stop = node.on('block', (block: MinedBlock) => console.log(block.number, block.hash))
const key: string | undefined = node.accounts[0]?.privateKey
try {
  await node.request({ method: 'eth_call', params: [{ to: '0x0' }] })
} catch (error) {
  if (error instanceof RpcError && error.code === ErrorCode.invalidParams) console.log(error.message)
}
console.log(key, await node.handleText('{}'))
stop()
await node.close()
`

afterAll(stopConsumerProcesses)

/** tsc's diagnostics that name a file of pagenode or of the consumer itself. */
async function ownErrors(tsconfig: object, files: Record<string, string>): Promise<{ errors: string[]; checked: string[] }> {
  const app = await createConsumer('types', { 'tsconfig.json': JSON.stringify(tsconfig, null, 2), ...files })
  let output: string
  try {
    output = (await app.run('tsc', ['-p', '.', '--listFiles'])).stdout
  } catch (error) {
    output = (error as Error).message
  }
  const lines = output.split('\n')
  const errors = lines.filter((line) => /error TS\d+/.test(line) && (line.includes('node_modules/pagenode/') || line.startsWith('src/')))
  const checked = lines.filter((line) => line.includes('/node_modules/pagenode/'))
  return { errors, checked }
}

test('an app (bundler resolution) type-checks every browser entry strictly, pagenode\'s declarations included', async () => {
  const { errors, checked } = await ownErrors(
    { compilerOptions: { ...STRICT, module: 'ESNext', moduleResolution: 'Bundler' }, include: ['src'] },
    { 'src/app.ts': APP, 'src/script.ts': SCRIPT },
  )
  expect(errors).toEqual([])
  // The declarations were read, not skipped: every entry's.
  for (const entry of ['client/index.d.ts', 'testing/index.d.ts', 'vite/plugin.d.ts', 'core/index.d.ts']) {
    expect(checked.some((file) => file.endsWith(`/node_modules/pagenode/dist/${entry}`)), entry).toBe(true)
  }
})

test('a Node program (nodenext resolution) type-checks pagenode/core strictly', async () => {
  const { errors, checked } = await ownErrors(
    { compilerOptions: { ...STRICT, module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'] }, include: ['src'] },
    { 'src/script.ts': SCRIPT },
  )
  expect(errors).toEqual([])
  expect(checked.some((file) => file.endsWith('/node_modules/pagenode/dist/core/index.d.ts'))).toBe(true)
})
